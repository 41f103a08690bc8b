package dev.levee.retry;

/**
 * How a {@link ReplicaSet} chooses one replica among the eligible ones (neither ejected nor reported
 * unhealthy, or every replica while the set is in panic; see {@link ReplicaSet}).
 *
 * <p>Every rule runs on the set's injected {@link dev.levee.core.Ticker} and
 * {@link dev.levee.core.RandomSource}, allocates nothing and takes no lock. "P2C" is the power of two
 * choices: draw two distinct eligible replicas uniformly at random and take the cheaper, so the
 * choice is nearly as good as scanning every replica for the cheapest while costing two reads, and
 * it never herds every caller onto the one replica that looked best a moment ago.
 *
 * <table>
 *   <caption>Rules</caption>
 *   <tr><th>rule</th><th>choice</th><th>use it when</th></tr>
 *   <tr><td>{@link #ROUND_ROBIN}</td><td>the next eligible replica after a shared counter</td>
 *       <td>replicas are alike and you want the baseline</td></tr>
 *   <tr><td>{@link #RANDOM}</td><td>a uniformly random eligible replica</td><td>many independent
 *       clients, no coordination wanted</td></tr>
 *   <tr><td>{@link #LEAST_OUTSTANDING}</td><td>P2C on calls in flight</td><td>latencies are alike but
 *       capacities differ</td></tr>
 *   <tr><td>{@link #PEAK_EWMA}</td><td>P2C on latency estimate × (calls in flight + 1)</td><td>some
 *       replicas are slow (the default)</td></tr>
 * </table>
 */
public enum SelectionRule {
    /**
     * Round robin: {@code i = counter++ mod m}, then the first eligible candidate at or after
     * {@code i}. A down replica's turn goes to the next one.
     */
    ROUND_ROBIN,
    /** Uniform random choice among the eligible candidates. */
    RANDOM,
    /**
     * P2C over least outstanding: draw eligible {@code a ≠ b} uniformly, choose the one with fewer
     * calls in flight ({@code a} on a tie).
     */
    LEAST_OUTSTANDING,
    /**
     * P2C over Peak-EWMA (Finagle's and Linkerd's balancer): draw eligible {@code a ≠ b} uniformly,
     * choose the lower cost, {@code a} on a tie, where
     * <pre>
     *   cost = estimate × (outstanding + 1)
     *   estimate on a sample rtt, Δ = now − last sample, w = exp(−Δ / decayTime):
     *       decayed  = estimate · w
     *       estimate := rtt                         if rtt &gt; decayed   (the peak: up at once)
     *                   decayed + rtt · (1 − w)      otherwise           (down with time constant decayTime)
     *   estimate read while the replica is idle (outstanding = 0): estimate · exp(−Δ / decayTime)
     *   a replica with no sample yet: cost = initialLatency × outstanding  (0 while idle)
     * </pre>
     * A slow replica's estimate jumps to its latency at once, so it stops being chosen after one slow
     * answer; an idle replica's estimate decays toward zero, so a replica that was slow is probed
     * again after about {@code decayTime · ln(its estimate / the others' cost)} and readmitted when it
     * has recovered. A replica with no sample is tried once at a time until it answers.
     */
    PEAK_EWMA
}
