/**
 * Retrying a call that failed in a way that may be transient, and hedging a call that is slow.
 *
 * <p>{@link dev.levee.retry.Retry} runs a call again after a failure the
 * {@link dev.levee.core.Classifier} counts, waiting a {@link dev.levee.retry.Backoff} with
 * {@link dev.levee.retry.Jitter} between attempts (or an {@link dev.levee.retry.IntervalFunction}),
 * honouring a failure's retry-after hint, the caller's {@link dev.levee.core.Deadline} and an
 * optional {@link dev.levee.retry.RetryBudget} that caps retries at a ratio of the calls across every
 * retry that shares it, so a struggling dependency is not multiplied into an outage. Asynchronous
 * calls retry without blocking a thread, their backoff on the injected scheduler.
 *
 * <p>{@link dev.levee.retry.Hedge} starts a second attempt when the first has not answered after a
 * fixed delay or a latency percentile, and returns whichever answers first; hedges draw from a budget
 * too.
 *
 * <p>Both are wrappers ({@link dev.levee.core.Policy}): inside a {@link dev.levee.core.Pipeline}
 * each attempt re-runs the policies inside them. Events are {@link dev.levee.retry.RetryEvent}s;
 * counters are read as a {@link dev.levee.retry.RetryMetrics} snapshot and exported by
 * {@link dev.levee.retry.RetryMetricsBinder}. Everything is non-null unless annotated
 * {@code @Nullable}. The page {@code docs/retry.md} has the model, the guarantees, every knob and its
 * default, and the measured cost.
 */
package dev.levee.retry;
