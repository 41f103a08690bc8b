/**
 * Bulkheads: bound how much of the application one dependency can tie up.
 *
 * <ul>
 *   <li>{@link dev.levee.bulkhead.Bulkhead} — the semaphore bulkhead, a {@link dev.levee.core.Gate}: one
 *       CAS to enter, one decrement to leave, optional bounded and deadline-aware waiting, resizable;</li>
 *   <li>{@link dev.levee.bulkhead.ThreadPoolBulkhead} — calls on the bulkhead's own bounded workers
 *       (platform or virtual threads), with the caller's deadline and context carried along;</li>
 *   <li>{@link dev.levee.bulkhead.KeyedBulkhead} — one semaphore bulkhead per key, bounded and
 *       idle-evicting;</li>
 *   <li>{@link dev.levee.bulkhead.ShuffleSharding} and {@link dev.levee.bulkhead.ShuffleShardedBulkhead}
 *       — each key confined to a pseudo-random k of n partitions;</li>
 *   <li>{@link dev.levee.bulkhead.BulkheadMetrics} — the Micrometer binder.</li>
 * </ul>
 * The user guide is {@code docs/bulkhead.md}.
 */
package dev.levee.bulkhead;
