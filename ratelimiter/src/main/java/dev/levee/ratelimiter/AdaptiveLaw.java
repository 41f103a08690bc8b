package dev.levee.ratelimiter;

/**
 * How an {@link AdaptiveRateLimiter} moves its rate.
 *
 * <table>
 *   <caption>Laws</caption>
 *   <tr><th>law</th><th>signal</th><th>acts</th><th>rule</th></tr>
 *   <tr><td>{@link #LATENCY_AIMD} (default)</td><td>mean latency and failure share per interval</td>
 *       <td>once per {@code adjustInterval}, with at least {@code minSamples}</td><td>additive increase,
 *       multiplicative decrease against a slowly drifting latency floor (see {@link AdaptiveRateLimiter})</td></tr>
 *   <tr><td>{@link #RTT_RATIO}</td><td>round-trip times</td><td>on every sample once 10 are known</td>
 *       <td>seed 002's Vegas-style ratio rule (below)</td></tr>
 * </table>
 *
 * <p><b>Why {@code LATENCY_AIMD} is the default.</b> Seed 002's rule ignores failures (a downstream
 * that fails fast looks uncongested and gets more traffic), multiplies the rate on every sample (from
 * the minimum to the maximum in a few dozen fast calls, halved by one slow mean), and its base RTT is
 * the minimum ever seen, so a downstream that becomes lastingly slower (a failover to a farther region)
 * pins the rate at the minimum for good. The interval law counts failures, acts once per interval on
 * enough samples, and lets its floor drift toward a lasting change.
 */
public enum AdaptiveLaw {
    /** Interval AIMD on mean latency and failure share (the formula on {@link AdaptiveRateLimiter}). */
    LATENCY_AIMD,
    /**
     * Seed 002's rule, applied on every latency sample (successes and failures alike: each is a round
     * trip), with {@code base} the smallest sample ever seen and {@code mean} the integer mean of the
     * last 10 samples in nanoseconds:
     * <pre>
     *   fewer than 10 samples      → keep the rate
     *   ratio = base / mean
     *   ratio &gt; 0.9               → rate := min(maxRate, rate × 1.1)
     *   ratio &lt; 0.5               → rate := max(minRate, rate × 0.5)
     *   ratio &lt; 0.7               → rate := max(minRate, rate × 0.9)
     *   otherwise                  → keep the rate
     * </pre>
     * Two of the seed's quirks are not reproduced: its limiter rebuilds its token bucket on every
     * adjustment, handing out a full bucket (two seconds' worth) each time, which with an adjustment per
     * sample is no limit at all; here the GCRA state is kept and only its rate changes. And the seed's
     * lock around every sample becomes a try-lock: a sample that finds another thread applying the rule
     * is skipped rather than waited for (a single-threaded sequence is reproduced exactly). The base RTT
     * never forgets, as in the seed; {@code setRate} does not reset it.
     */
    RTT_RATIO
}
