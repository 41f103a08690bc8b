package dev.levee.retry.internal;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The most recent {@code size} latencies and a percentile of them, for an adaptive hedge delay.
 *
 * <p>Recording is one {@code getAndIncrement} to claim a slot and one store: lock-free, allocation-free.
 * The percentile is recomputed (copy and sort) once every {@code size / 10} recordings and cached, so
 * its cost is amortized over many calls; readers get the cached value. Until {@code minSamples}
 * latencies have been recorded, {@link #percentileNanos(long)} returns the given fallback.
 *
 * <p>Percentile by the nearest-rank method: the value at index {@code ceil(p · n) - 1} of the sorted
 * samples.
 */
public final class LatencyWindow {
    private final AtomicLongArray samples;
    private final AtomicLong recorded = new AtomicLong();
    private final double percentile;
    private final int minSamples;
    private final int refreshEvery;
    private volatile long cachedNanos = -1L;

    /**
     * @param size samples kept, at least 1
     * @param percentile a fraction in (0, 1]: 0.95 is the p95
     * @param minSamples samples needed before the percentile is used
     */
    public LatencyWindow(int size, double percentile, int minSamples) {
        this.samples = new AtomicLongArray(size);
        this.percentile = percentile;
        this.minSamples = Math.min(minSamples, size);
        this.refreshEvery = Math.max(1, size / 10);
    }

    /**
     * Records a latency.
     *
     * @param latencyNanos the latency
     */
    public void record(long latencyNanos) {
        long n = recorded.getAndIncrement();
        samples.set((int) (n % samples.length()), latencyNanos);
        if ((n + 1) >= minSamples && ((n + 1) % refreshEvery == 0 || cachedNanos < 0)) {
            refresh(n + 1);
        }
    }

    private void refresh(long count) {
        int n = (int) Math.min(count, samples.length());
        long[] copy = new long[n];
        for (int i = 0; i < n; i++) {
            copy[i] = samples.get(i);
        }
        Arrays.sort(copy);
        int rank = (int) Math.ceil(percentile * n);
        cachedNanos = copy[Math.max(0, Math.min(n - 1, rank - 1))];
    }

    /**
     * The cached percentile.
     *
     * @param fallbackNanos returned until enough samples exist
     * @return the percentile of recent latencies, in nanoseconds
     */
    public long percentileNanos(long fallbackNanos) {
        long cached = cachedNanos;
        return cached < 0 ? fallbackNanos : cached;
    }

    /** @return latencies recorded since creation */
    public long recorded() {
        return recorded.get();
    }
}
