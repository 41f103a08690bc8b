package dev.levee.degrade;

/**
 * A snapshot of a {@link Coalescer}'s counters since creation.
 *
 * @param loads loads started (each ran the loader once)
 * @param joined calls that waited for a load another call started
 * @param held calls answered by a held value (hold window)
 * @param earlyRefreshes loads started early by XFetch while a held value was still served
 * @param bypassed calls run on their own because {@code maxEntries} keys were in flight
 * @param entries keys in flight or held right now
 */
public record CoalescerMetrics(long loads, long joined, long held, long earlyRefreshes, long bypassed, int entries) {}
