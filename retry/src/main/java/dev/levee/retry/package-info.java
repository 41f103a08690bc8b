/**
 * Retries, retry budgets and hedging: running a call again after a transient failure, keeping retry
 * traffic a bounded fraction of real traffic, and answering slowness with a second attempt.
 *
 * <ul>
 *   <li>{@link dev.levee.retry.Retry} and {@link dev.levee.retry.RetryConfig}: the retry loop, its
 *       decision order and every knob; by default only transient failures
 *       ({@link dev.levee.retry.TransientFailure}) are retried, 3 attempts, exponential backoff from
 *       100 ms with full jitter ({@link dev.levee.retry.Backoff}, {@link dev.levee.retry.Jitter});</li>
 *   <li>{@link dev.levee.retry.RetryBudget} and {@link dev.levee.retry.RetryBudgetConfig}: a lock-free
 *       allowance, shared by many retries and hedges, that stops retry storms;</li>
 *   <li>{@link dev.levee.retry.Hedge} and {@link dev.levee.retry.HedgeConfig}: a second attempt after
 *       the p95 latency;</li>
 *   <li>events ({@link dev.levee.retry.RetryEvent}, {@link dev.levee.retry.HedgeEvent}), snapshots
 *       ({@link dev.levee.retry.RetryMetrics}, {@link dev.levee.retry.HedgeMetrics}) and Micrometer
 *       binders ({@link dev.levee.retry.RetryMetricsBinder}, {@link dev.levee.retry.HedgeMetricsBinder}).</li>
 * </ul>
 * The user guide is {@code docs/retry.md}.
 */
package dev.levee.retry;
