package dev.levee.redis.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The local stock of lease mode: permits already taken from Redis, spent here without a round trip.
 *
 * <p><b>Bound.</b> The stock never exceeds {@code size}: a refill asks Redis for {@code size − stock}
 * and, when it arrives, adds at most what fits ({@link #add}); anything beyond is dropped (permits
 * counted by Redis and never used: under-admission, never over). So at any moment an instance holds
 * at most {@code size} permits that Redis has counted and nobody has used yet, and a fleet of
 * {@code N} instances admits at most {@code N × size} more than the shared limit in any interval.
 * One refill is in flight at a time.
 */
public final class LeasePool {
    private final long size;
    private final long refillAt;
    private final AtomicLong stock = new AtomicLong();
    private final AtomicBoolean refilling = new AtomicBoolean();
    private final AtomicLong refills = new AtomicLong();
    /** After Redis refused a refill: no new one before this ticker reading (its retryAfter). */
    private volatile long notBefore;
    private volatile boolean waitingOut;

    /**
     * @param size the lease size, at least 1
     * @param refillThreshold refill when the stock falls to this fraction of {@code size}
     */
    public LeasePool(long size, double refillThreshold) {
        this.size = size;
        this.refillAt = (long) Math.floor(size * refillThreshold);
    }

    /**
     * Takes {@code permits} from the stock if it holds them. Lock-free, allocation-free.
     *
     * @param permits how many
     * @return true if taken
     */
    public boolean tryTake(int permits) {
        while (true) {
            long s = stock.get();
            if (s < permits) {
                return false;
            }
            if (stock.compareAndSet(s, s - permits)) {
                return true;
            }
        }
    }

    /**
     * Whether a refill should start now: the stock is at or below the threshold and none is in flight.
     * When it answers a positive count, the caller owns the refill and must call {@link #refilled}
     * when it ends. After a refused refill none starts before the refusal's retryAfter has passed, so
     * an exhausted limit is not asked twice per decision.
     *
     * @param now the current ticker reading
     * @return how many permits to ask for, or 0 for none
     */
    public long startRefill(long now) {
        long s = stock.get();
        if (s > refillAt || (waitingOut && now - notBefore < 0) || !refilling.compareAndSet(false, true)) {
            return 0;
        }
        long want = size - stock.get();
        if (want <= 0) {
            refilling.set(false);
            return 0;
        }
        return want;
    }

    /**
     * Ends a refill: adds the permits granted (capped so the stock never exceeds the size).
     *
     * @param granted permits Redis granted, 0 if it refused or failed
     * @param notBefore no refill starts before this ticker reading
     */
    public void refilled(long granted, long notBefore) {
        if (granted > 0) {
            add(granted);
            refills.incrementAndGet();
        }
        this.notBefore = notBefore;
        this.waitingOut = granted == 0;
        refilling.set(false);
    }

    private void add(long permits) {
        while (true) {
            long s = stock.get();
            long next = Math.min(size, s + permits);
            if (stock.compareAndSet(s, next)) {
                return;
            }
        }
    }

    /**
     * Whether a refill is in flight.
     *
     * @return true between {@link #startRefill} and {@link #refilled}
     */
    public boolean refilling() {
        return refilling.get();
    }

    /**
     * The permits held now.
     *
     * @return at least 0
     */
    public long stock() {
        return stock.get();
    }

    /**
     * How many refills Redis granted.
     *
     * @return the count
     */
    public long refills() {
        return refills.get();
    }
}
