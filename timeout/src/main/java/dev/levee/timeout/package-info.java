/**
 * Timeouts and deadline propagation.
 *
 * <ul>
 *   <li>{@link dev.levee.timeout.Timeout} — the wrapper policy: bounds synchronous calls on a worker
 *       thread ({@link dev.levee.timeout.TimeoutMode#THREAD}) or cooperatively on the caller's thread
 *       ({@link dev.levee.timeout.TimeoutMode#COOPERATIVE}), and asynchronous calls on the scheduler;
 *       the effective timeout is {@code min(timeout, current deadline - reserve)}.</li>
 *   <li>{@link dev.levee.timeout.DeadlinePropagation} — the current deadline into and out of a request
 *       header ({@code grpc-timeout} or milliseconds); hostile values are ignored and counted.</li>
 *   <li>{@link dev.levee.timeout.AdaptiveTimeout} — {@code clamp(percentile × factor, min, max)} from a
 *       fixed-memory streaming histogram.</li>
 *   <li>{@link dev.levee.timeout.TimeoutBudget} — one total spread over a sequence of steps.</li>
 *   <li>{@link dev.levee.timeout.TimeoutProfile} — connect, read, write and total timeouts of one
 *       dependency, for HTTP and JDBC clients.</li>
 *   <li>{@link dev.levee.timeout.TimeoutMetrics} — the Micrometer binder.</li>
 * </ul>
 * The user guide is {@code docs/timeout.md}.
 */
package dev.levee.timeout;
