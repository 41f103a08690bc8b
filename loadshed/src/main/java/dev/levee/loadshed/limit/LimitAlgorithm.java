package dev.levee.loadshed.limit;

/**
 * How a concurrency limit moves: a small deterministic state machine fed one completion at a time.
 *
 * <p><b>Contract.</b>
 * <ul>
 *   <li><b>Single writer.</b> The limiter never calls {@link #update} from two threads at once, and
 *       publishes the returned limit itself; implementations keep plain (non-volatile) fields and take
 *       no lock.</li>
 *   <li><b>Pure.</b> The returned limit depends only on the samples seen so far (and, for the
 *       algorithms that probe, on an injected {@link dev.levee.core.RandomSource}); time comes in with
 *       each sample, never from a clock. The same sample sequence gives the same limits, so tests
 *       script it.</li>
 *   <li><b>Bounded.</b> Every returned limit is in {@code [minLimit(), maxLimit()]}, and
 *       {@link #initialLimit()} is too.</li>
 *   <li><b>Cheap.</b> {@code update} runs on the completing request's thread: no allocation, no
 *       blocking.</li>
 * </ul>
 *
 * <p><b>Notation</b> used by every implementation's Javadoc: {@code L} the current limit, {@code rtt}
 * the sample's latency (admission to completion), {@code inflight} the requests in flight when the
 * sample completed (counting itself), {@code drop} whether the request failed in a way that signals
 * overload (a failure the limiter's classifier counts, a timeout, a
 * {@link dev.levee.core.DeadlineExceededException}), {@code min}/{@code max} the bounds.
 *
 * <p>Implementations: {@link LatencyAimdLimit} (seed 002's target-latency AIMD), {@link DropAimdLimit}
 * (classic loss-driven AIMD), {@link VegasLimit}, {@link GradientLimit}, {@link FixedLimit}. A
 * limiter's configuration holds a {@code Supplier<LimitAlgorithm>}, because an algorithm instance has
 * state and belongs to exactly one limiter.
 */
public interface LimitAlgorithm {

    /**
     * The limit before any sample.
     *
     * @return a value in {@code [minLimit(), maxLimit()]}
     */
    int initialLimit();

    /**
     * The floor: the limit never goes below it.
     *
     * @return at least 1
     */
    int minLimit();

    /**
     * The ceiling: the limit never goes above it.
     *
     * @return at least {@link #minLimit()}
     */
    int maxLimit();

    /**
     * Learns from one completed request and returns the new limit.
     *
     * @param nowNanos when the request completed, a reading of the limiter's ticker
     * @param rttNanos how long it took from admission to completion, at least 0
     * @param inflight requests in flight when it completed, counting itself
     * @param drop whether it failed in a way that signals overload
     * @return the new limit, in {@code [minLimit(), maxLimit()]}
     */
    int update(long nowNanos, long rttNanos, int inflight, boolean drop);
}
