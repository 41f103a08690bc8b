package dev.levee.retry;

/**
 * An immutable snapshot of a {@link ReplicaSet}'s counters, from {@link ReplicaSet#metrics()}; one
 * replica's from {@link ReplicaSet#metrics(int)}.
 *
 * @param replicas replicas in the set
 * @param picks calls (attempts) sent to a replica since creation
 * @param successes completions counted as successes
 * @param failures completions counted as failures
 * @param outstanding calls in flight now
 * @param ejected replicas ejected now
 * @param unhealthy replicas a health signal reports unhealthy now
 * @param panicking whether the set is in panic now
 * @param panics times the set entered panic
 * @param ejections ejections since creation
 * @param ejectionsCapped ejections refused because the set had its maximum ejected
 */
public record ReplicaSetMetrics(int replicas, long picks, long successes, long failures, long outstanding, int ejected,
                                int unhealthy, boolean panicking, long panics, long ejections, long ejectionsCapped) {

    /**
     * One replica's counters.
     *
     * @param index the replica's index
     * @param replica the replica's {@code toString()}
     * @param picks calls sent to it
     * @param successes completions counted as successes
     * @param failures completions counted as failures
     * @param outstanding calls in flight now
     * @param ejected whether ejected now
     * @param healthy whether the health signal reports it healthy (true without a signal)
     * @param ejections its ejections (the multiplier of its next ejection time, less one)
     * @param latencyEstimateNanos its Peak-EWMA estimate now, NaN before a sample or under another rule
     */
    public record Replica(int index, String replica, long picks, long successes, long failures, long outstanding,
                          boolean ejected, boolean healthy, long ejections, double latencyEstimateNanos) {}
}
