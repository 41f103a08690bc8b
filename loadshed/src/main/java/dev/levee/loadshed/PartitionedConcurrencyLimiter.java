package dev.levee.loadshed;

import dev.levee.core.Gate;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.RejectedException;
import dev.levee.core.ShedException;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One adaptive limit shared by named partitions, each guaranteed a share of it: checkout 70 %, search
 * 30 %. A partition may borrow capacity another leaves idle, but never the share of a partition that
 * is asking for it.
 *
 * <pre>{@code
 * PartitionedConcurrencyLimiter limiter = PartitionedConcurrencyLimiter.of("api", config,
 *         Partitions.builder().add("checkout", 0.7).add("search", 0.3).build());
 * Gate checkout = limiter.partition("checkout");
 * checkout.execute(() -> placeOrder(cart));
 * }</pre>
 *
 * <p><b>Model.</b> The limit {@code L} comes from one {@link ConcurrencyLimiter} that every partition's
 * completions feed. Partition {@code p} with share {@code s} is guaranteed {@code g = ⌊L × s⌋} slots.
 * A partition is <em>active</em> if it asked for a slot within {@code idleTimeout}. A request of
 * {@code p} is admitted when the total in flight is below {@code L} and
 * <pre>
 *   inflight(p) &lt; g(p)                                              (within its share), or
 *   total + Σ over other active q of max(0, g(q) − inflight(q)) &lt; L   (borrowing leaves the others' unused shares free)
 * </pre>
 *
 * <p><b>Guarantees.</b> The total in flight never exceeds the limit in force at admission. While
 * every partition keeps asking, none is held below its share by another's borrowing: borrowers stop as
 * soon as an active partition is below its share, and the slots they free go to it. An idle
 * partition's share is lent; when it comes back it is refused at most until borrowers complete enough
 * requests to bring the total below {@code L} (one service time), never longer.
 *
 * <p><b>Cost.</b> Shares are a property of all partitions at once, so admission and completion update
 * the partitions' counts under one {@link ReentrantLock} (a few dozen instructions; never a monitor,
 * so virtual threads do not pin). Use a plain {@link ConcurrencyLimiter} when there is one class of
 * traffic.
 */
public final class PartitionedConcurrencyLimiter {
    private final String name;
    private final ConcurrencyLimiter total;
    private final Ticker ticker;
    private final long idleNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final Partition[] partitions;
    private final Map<String, Partition> byName;

    private PartitionedConcurrencyLimiter(String name, ConcurrencyLimiterConfig config, Partitions shares) {
        this.total = ConcurrencyLimiter.of(name, config);
        this.name = name;
        this.ticker = config.ticker();
        this.idleNanos = shares.idleTimeout().toNanos();
        List<Partition> list = new ArrayList<>();
        Map<String, Partition> map = new LinkedHashMap<>();
        for (Map.Entry<String, Double> e : shares.shares().entrySet()) {
            Partition p = new Partition(e.getKey(), e.getValue());
            list.add(p);
            map.put(e.getKey(), p);
        }
        this.partitions = list.toArray(new Partition[0]);
        this.byName = Collections.unmodifiableMap(map);
    }

    /**
     * A partitioned limiter.
     *
     * @param name the name, used in rejections, events, logs and metric tags
     * @param config the limit's configuration (algorithm, classifier, ticker; waiting is not supported
     *     here: {@code maxWait} must be zero)
     * @param partitions the partitions and their shares
     * @return the limiter
     * @throws InvalidConfigException if the name is blank or {@code maxWait} is not zero
     */
    public static PartitionedConcurrencyLimiter of(String name, ConcurrencyLimiterConfig config, Partitions partitions) {
        String p = Validate.describe("PartitionedConcurrencyLimiter", Validate.name("PartitionedConcurrencyLimiter", name));
        Validate.notNull(p, "config", config);
        Validate.notNull(p, "partitions", partitions);
        Validate.check(config.maxWaitNanos() == 0, p, "maxWait", "zero (partitions fail fast)", config.maxWait());
        return new PartitionedConcurrencyLimiter(name, config, partitions);
    }

    /**
     * The gate of one partition: the permit protocol, {@code execute}, pipelines.
     *
     * @param partition a partition name given at construction
     * @return its gate
     * @throws IllegalArgumentException for an unknown name
     */
    public Gate partition(String partition) {
        Partition p = byName.get(partition);
        if (p == null) {
            throw new IllegalArgumentException("PartitionedConcurrencyLimiter '" + name + "' has no partition '"
                    + partition + "'; partitions: " + byName.keySet());
        }
        return p;
    }

    /** @return the name */
    public String name() {
        return name;
    }

    /** @return the shared limit in force */
    public int limit() {
        return total.limit();
    }

    /** @return requests in flight over all partitions */
    public int inflight() {
        return total.inflight();
    }

    /**
     * @param partition a partition name
     * @return its requests in flight
     */
    public int inflight(String partition) {
        return ((Partition) partition(partition)).inflight;
    }

    /**
     * @param partition a partition name
     * @return its guaranteed slots under the current limit, {@code ⌊L × share⌋}
     */
    public int guaranteed(String partition) {
        return ((Partition) partition(partition)).guaranteed(total.limit());
    }

    /**
     * @param partition a partition name
     * @return its requests refused since creation
     */
    public long rejectedCount(String partition) {
        return ((Partition) partition(partition)).rejected.sum();
    }

    /** @return the shared limit's snapshot (its rejected count covers refusals of the total only) */
    public ConcurrencyLimiterMetrics metrics() {
        return total.metrics();
    }

    /** @return the limiter holding the shared limit: for events and metrics, not for admitting requests */
    public ConcurrencyLimiter sharedLimit() {
        return total;
    }

    private boolean admit(Partition p, long now) {
        lock.lock();
        try {
            p.lastSeenNanos = now;
            p.seen = true;
            int l = total.limit();
            int inflightTotal = total.inflight();
            if (inflightTotal >= l) {
                return false;
            }
            if (p.inflight >= p.guaranteed(l)) {
                int reserved = 0;
                for (Partition q : partitions) {
                    if (q != p && q.seen && now - q.lastSeenNanos <= idleNanos) {
                        reserved += Math.max(0, q.guaranteed(l) - q.inflight);
                    }
                }
                if (inflightTotal + reserved >= l) {
                    return false;
                }
            }
            if (!total.tryAcquire(now)) {
                return false;
            }
            p.inflight++;
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void leave(Partition p) {
        lock.lock();
        try {
            if (p.inflight <= 0) {
                throw new IllegalStateException("PartitionedConcurrencyLimiter '" + name + "': partition '" + p.name
                        + "' released a permit it was never given");
            }
            p.inflight--;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("PartitionedConcurrencyLimiter[" + name + ", limit=" + total.limit());
        for (Partition p : partitions) {
            sb.append(", ").append(p.name).append('=').append(p.inflight).append('/').append(p.guaranteed(total.limit()));
        }
        return sb.append(']').toString();
    }

    /** One partition's gate and counts; counts are guarded by the limiter's lock. */
    private final class Partition implements Gate {
        final String name;
        final double share;
        final LongAdder rejected = new LongAdder();
        int inflight;
        long lastSeenNanos;
        boolean seen;

        Partition(String name, double share) {
            this.name = name;
            this.share = share;
        }

        int guaranteed(int limit) {
            return (int) (limit * share);
        }

        @Override
        public String name() {
            return PartitionedConcurrencyLimiter.this.name + "/" + name;
        }

        @Override
        public Ticker ticker() {
            return ticker;
        }

        @Override
        public boolean tryAcquire(long nowNanos) {
            if (admit(this, nowNanos)) {
                return true;
            }
            rejected.increment();
            return false;
        }

        @Override
        public RejectedException rejection(long nowNanos) {
            return new ShedException(name(), ConcurrencyLimiter.REASON,
                    "PartitionedConcurrencyLimiter '" + PartitionedConcurrencyLimiter.this.name + "': partition '" + name
                            + "' refused: " + inflight + " in flight, " + guaranteed(total.limit())
                            + " guaranteed, limit " + total.limit(), 0L, null);
        }

        @Override
        public void onSuccess(long latencyNanos) {
            leave(this);
            total.onSuccess(latencyNanos);
        }

        @Override
        public void onResultAt(long endNanos, long latencyNanos, Object result) {
            leave(this);
            total.onResultAt(endNanos, latencyNanos, result);
        }

        @Override
        public void onResult(long latencyNanos, Object result) {
            leave(this);
            total.onResult(latencyNanos, result);
        }

        @Override
        public void onFailure(long latencyNanos, Throwable error) {
            leave(this);
            total.onFailure(latencyNanos, error);
        }

        @Override
        public void onFailureAt(long endNanos, long latencyNanos, Throwable error) {
            leave(this);
            total.onFailureAt(endNanos, latencyNanos, error);
        }

        @Override
        public void onIgnored() {
            leave(this);
            total.onIgnored();
        }

        @Override
        public String toString() {
            return "Partition[" + name() + ", share=" + share + ", inflight=" + inflight + "]";
        }
    }
}
