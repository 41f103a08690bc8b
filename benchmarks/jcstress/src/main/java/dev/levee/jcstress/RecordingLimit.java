package dev.levee.jcstress;

import dev.levee.loadshed.limit.LimitAlgorithm;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A limit algorithm that keeps a fixed limit of 10 and records what the limiter's single writer
 * applies: how many updates, how many carried a drop, how many carried the 20 ns sample, the largest
 * latency. Atomics, because a test must see two writers if the single-writer flag ever broke.
 */
final class RecordingLimit implements LimitAlgorithm {
    final AtomicInteger updates = new AtomicInteger();
    final AtomicInteger drops = new AtomicInteger();
    final AtomicInteger slowest = new AtomicInteger();
    final AtomicLong maxRtt = new AtomicLong();

    @Override
    public int initialLimit() {
        return 10;
    }

    @Override
    public int minLimit() {
        return 1;
    }

    @Override
    public int maxLimit() {
        return 10;
    }

    @Override
    public int update(long nowNanos, long rttNanos, int inflight, boolean drop) {
        updates.incrementAndGet();
        if (drop) {
            drops.incrementAndGet();
        }
        if (rttNanos == 20L) {
            slowest.incrementAndGet();
        }
        maxRtt.accumulateAndGet(rttNanos, Math::max);
        return 10;
    }
}
