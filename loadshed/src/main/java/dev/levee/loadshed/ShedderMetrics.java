package dev.levee.loadshed;

import java.util.Map;

/**
 * A snapshot of a shedder's counters.
 *
 * @param name the shedder's name
 * @param admitted permits granted since creation
 * @param shed requests refused since creation
 * @param shedByReason refusals by reason word (only reasons with a count)
 * @param inFlight permits out now
 * @param shedRate the shedder's current shed rate, a fraction in [0, 1]
 */
public record ShedderMetrics(String name, long admitted, long shed, Map<String, Long> shedByReason, int inFlight,
        double shedRate) {}
