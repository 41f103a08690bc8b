package dev.levee.loadshed;

import dev.levee.loadshed.limit.LimitAlgorithm;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntUnaryOperator;

/** A test algorithm: records its samples, returns limits from a script, and checks it has one writer. */
final class ScriptedAlgorithm implements LimitAlgorithm {
    record Sample(long now, long rtt, int inflight, boolean drop) {}

    final List<Sample> samples = new ArrayList<>();
    final AtomicBoolean inside = new AtomicBoolean();
    volatile boolean concurrentWriters;
    private final int initial;
    private final int min;
    private final int max;
    private final IntUnaryOperator nextLimit;
    private int count;
    private final boolean record;

    ScriptedAlgorithm(int initial, int min, int max, IntUnaryOperator nextLimitBySampleNumber, boolean record) {
        this.initial = initial;
        this.min = min;
        this.max = max;
        this.nextLimit = nextLimitBySampleNumber;
        this.record = record;
    }

    static ScriptedAlgorithm fixed(int limit) {
        return new ScriptedAlgorithm(limit, 1, limit, n -> limit, true);
    }

    @Override
    public int initialLimit() {
        return initial;
    }

    @Override
    public int minLimit() {
        return min;
    }

    @Override
    public int maxLimit() {
        return max;
    }

    @Override
    public int update(long nowNanos, long rttNanos, int inflight, boolean drop) {
        if (!inside.compareAndSet(false, true)) {
            concurrentWriters = true;
        }
        try {
            if (record) {
                samples.add(new Sample(nowNanos, rttNanos, inflight, drop));
            }
            return Math.max(min, Math.min(max, nextLimit.applyAsInt(++count)));
        } finally {
            inside.set(false);
        }
    }
}
