package dev.levee.degrade;

import dev.levee.core.PolicyEvent;

/**
 * A {@link DegradationLevel} changed level. Delivered on the thread that sampled the load.
 */
public sealed interface DegradeEvent extends PolicyEvent permits DegradeEvent.LevelRaised, DegradeEvent.LevelLowered {

    /** @return the level before the change */
    int from();

    /** @return the level after the change */
    int to();

    /** @return the load reading that caused the change */
    double load();

    /**
     * Load rose past a threshold: features of the levels passed are now off.
     *
     * @param policyName the degradation level's name
     * @param tickerNanos when, on its ticker
     * @param from the level before
     * @param to the level after, higher
     * @param load the reading
     */
    record LevelRaised(String policyName, long tickerNanos, int from, int to, double load) implements DegradeEvent {}

    /**
     * Load fell below a threshold minus the hysteresis, after the recovery delay: features come back on.
     *
     * @param policyName the degradation level's name
     * @param tickerNanos when, on its ticker
     * @param from the level before
     * @param to the level after, lower
     * @param load the reading
     */
    record LevelLowered(String policyName, long tickerNanos, int from, int to, double load) implements DegradeEvent {}
}
