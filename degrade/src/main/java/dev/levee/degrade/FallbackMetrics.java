package dev.levee.degrade;

import java.util.Map;

/**
 * A snapshot of a fallback's counters since creation (see {@link GracefulDegrader#metrics()}).
 * Successful primary calls are not counted: the success path of a fallback costs nothing.
 *
 * @param fallbacks values served by a tier in place of the primary call
 * @param tierFailures tier attempts that failed (each followed by the next tier, if any)
 * @param exhausted failures for which every tier failed
 * @param byReason {@code fallbacks} by reason (every reason present, zeros included)
 * @param byTier {@code fallbacks} by tier name, in chain order
 */
public record FallbackMetrics(long fallbacks, long tierFailures, long exhausted,
        Map<FallbackReason, Long> byReason, Map<String, Long> byTier) {

    /**
     * Copies the maps so the snapshot is immutable.
     *
     * @param fallbacks values served by a tier
     * @param tierFailures tier attempts that failed
     * @param exhausted failures for which every tier failed
     * @param byReason fallbacks by reason
     * @param byTier fallbacks by tier
     */
    public FallbackMetrics {
        byReason = Map.copyOf(byReason);
        byTier = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(byTier));
    }
}
