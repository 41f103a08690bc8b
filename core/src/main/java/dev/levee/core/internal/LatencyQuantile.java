package dev.levee.core.internal;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A quantile of recent latencies: two {@link LatencyHistogram}s used in turn, so the estimate covers
 * between {@code windowSize} and {@code 2 × windowSize} of the latest samples, recomputed every
 * {@code recomputeEvery} samples and cached. The shared estimator of the adaptive timeout and the
 * hedge's percentile delay. Not for users: may change without notice.
 *
 * <p><b>Cost.</b> Recording is two atomic increments (the bucket, the sample count) and, every
 * {@code recomputeEvery} samples, one scan of 2 × 960 buckets by the recording thread; every
 * {@code windowSize} samples the older histogram is cleared (960 stores). No allocation, no lock.
 * Reading is one volatile read.
 *
 * <p><b>Accuracy.</b> The estimate is the midpoint of the histogram bucket holding the sample of rank
 * {@code ceil(q × n)} of the covered samples: within 1/32 ≈ 3.1 % of that sample.
 */
public final class LatencyQuantile {
    private final double quantile;
    private final int windowSize;
    private final int minSamples;
    private final int recomputeEvery;
    private final LatencyHistogram[] windows = {new LatencyHistogram(), new LatencyHistogram()};
    private final AtomicInteger current = new AtomicInteger();
    private final AtomicLong samples = new AtomicLong();
    private volatile long quantileNanos = -1L;

    /**
     * An estimator with no samples.
     *
     * @param quantile the quantile, a fraction in (0, 1]
     * @param windowSize samples per histogram, at least 1
     * @param minSamples samples needed before the first estimate, at least 1
     * @param recomputeEvery the estimate is recomputed every this many samples, at least 1
     */
    public LatencyQuantile(double quantile, int windowSize, int minSamples, int recomputeEvery) {
        this.quantile = quantile;
        this.windowSize = windowSize;
        this.minSamples = minSamples;
        this.recomputeEvery = recomputeEvery;
    }

    /**
     * Records one observed latency.
     *
     * @param latencyNanos the latency; negative counts as 0
     * @return true if this sample recomputed the estimate
     */
    public boolean record(long latencyNanos) {
        windows[current.get()].record(latencyNanos);
        long n = samples.incrementAndGet();
        if (n % windowSize == 0) {
            rotate();
        }
        if (n >= minSamples && (n % recomputeEvery == 0 || n == minSamples)) {
            long q = LatencyHistogram.quantile(quantile, windows[0], windows[1]);
            if (q >= 0) {
                quantileNanos = q;
                return true;
            }
        }
        return false;
    }

    /** Clears the older window and makes it current; the one just filled becomes the older one. */
    private void rotate() {
        int older = 1 - current.get();
        windows[older].clear();
        current.set(older);
    }

    /**
     * The latest estimate.
     *
     * @return nanoseconds, or -1 before {@code minSamples} samples
     */
    public long quantileNanos() {
        return quantileNanos;
    }

    /** @return samples recorded since creation */
    public long sampleCount() {
        return samples.get();
    }
}
