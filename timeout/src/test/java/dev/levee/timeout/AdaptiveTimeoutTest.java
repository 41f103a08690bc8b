package dev.levee.timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.RandomSource;
import dev.levee.core.internal.LatencyHistogram;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The adaptive timeout on seeded latency streams. */
class AdaptiveTimeoutTest {
    private static final long MS = 1_000_000L;

    /** Log-normal latencies around 20 ms: exp(N(ln 20ms, 0.5)), by Box-Muller on a seeded source. */
    private static long[] logNormalStream(long seed, int n, double medianNanos, double sigma) {
        RandomSource random = RandomSource.seeded(seed);
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            double u1 = 1.0 - random.nextDouble();
            double u2 = random.nextDouble();
            double z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
            out[i] = (long) (medianNanos * Math.exp(sigma * z));
        }
        return out;
    }

    private static long exactQuantile(long[] samples, double q) {
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.ceil(q * sorted.length) - 1];
    }

    private static AdaptiveTimeoutConfig.Builder config() {
        return AdaptiveTimeoutConfig.builder().minTimeout(Duration.ofMillis(1)).maxTimeout(Duration.ofSeconds(10));
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.5, 0.9, 0.99, 0.999})
    void convergesToTheConfiguredPercentileOfASeededStream(double percentile) {
        AdaptiveTimeout adaptive = AdaptiveTimeout.of("adaptive", config().percentile(percentile).factor(1.0)
                .windowSize(20_000).build());
        long[] samples = logNormalStream(2024, 20_000, 20 * MS, 0.5);
        for (long s : samples) {
            adaptive.record(s);
        }
        long exact = exactQuantile(samples, percentile);
        // The histogram reports bucket midpoints: within 1/32 of the true value (plus rank rounding).
        assertThat((double) adaptive.quantileNanos()).isCloseTo(exact, within(exact * 0.04));
        assertThat((double) adaptive.timeoutNanos()).isCloseTo(exact, within(exact * 0.04));
    }

    @Test
    void timeoutIsTheQuantileTimesTheFactorClamped() {
        long[] samples = logNormalStream(7, 5_000, 20 * MS, 0.3);
        AdaptiveTimeout plain = AdaptiveTimeout.of("adaptive", config().factor(1.0).build());
        AdaptiveTimeout doubled = AdaptiveTimeout.of("adaptive", config().factor(2.0).build());
        AdaptiveTimeout capped = AdaptiveTimeout.of("adaptive", config().factor(2.0).maxTimeout(Duration.ofMillis(30)).build());
        AdaptiveTimeout floored = AdaptiveTimeout.of("adaptive", config().minTimeout(Duration.ofMillis(500)).maxTimeout(Duration.ofSeconds(1))
                .build());
        for (long s : samples) {
            plain.record(s);
            doubled.record(s);
            capped.record(s);
            floored.record(s);
        }
        assertThat(doubled.timeoutNanos()).isEqualTo(2 * plain.timeoutNanos());
        assertThat(capped.timeoutNanos()).isEqualTo(30 * MS);
        assertThat(floored.timeoutNanos()).isEqualTo(500 * MS);
    }

    @Test
    void beforeEnoughSamplesTheTimeoutIsTheMaximum() {
        AdaptiveTimeout adaptive = AdaptiveTimeout.of("adaptive", config().minSamples(50).build());
        for (int i = 0; i < 49; i++) {
            adaptive.record(5 * MS);
        }
        assertThat(adaptive.timeoutNanos()).isEqualTo(10_000 * MS);
        assertThat(adaptive.quantileNanos()).isEqualTo(-1);
        adaptive.record(5 * MS);
        assertThat(adaptive.timeoutNanos()).isBetween(7 * MS, 8 * MS); // ~5 ms x 1.5
        assertThat(adaptive.timeout()).isEqualTo(Duration.ofNanos(adaptive.timeoutNanos()));
    }

    @Test
    void followsAShiftInLatencyWithinTwoWindows() {
        AdaptiveTimeout adaptive = AdaptiveTimeout.of("adaptive", config().percentile(0.9).factor(1.0).windowSize(1_000)
                .minSamples(100).build());
        for (long s : logNormalStream(1, 3_000, 10 * MS, 0.2)) {
            adaptive.record(s);
        }
        assertThat(adaptive.timeoutNanos()).isBetween(10 * MS, 15 * MS);
        for (long s : logNormalStream(2, 2_000, 100 * MS, 0.2)) {
            adaptive.record(s);
        }
        assertThat(adaptive.timeoutNanos()).isBetween(100 * MS, 150 * MS);
    }

    @Test
    void concurrentRecordingCountsEverySampleAndStaysInBounds() throws Exception {
        AdaptiveTimeout adaptive = AdaptiveTimeout.of("adaptive", config().windowSize(1_000_000).build());
        int threads = 16;
        int perThread = 10_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            for (int t = 0; t < threads; t++) {
                long[] samples = logNormalStream(t, perThread, 20 * MS, 0.5);
                pool.execute(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    for (long s : samples) {
                        adaptive.record(s);
                    }
                });
            }
            start.countDown();
        } finally {
            pool.shutdown();
            assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(adaptive.sampleCount()).isEqualTo((long) threads * perThread);
        // No window rotated: the histogram holds every sample exactly.
        assertThat(adaptive.quantileNanos()).isBetween(55 * MS, 75 * MS); // p99 of exp(N(ln 20ms, .5)) ≈ 64 ms
    }

    @Test
    void histogramBucketsCoverEveryLongWithinThreePercent() {
        assertThat(LatencyHistogram.bucketOf(Long.MAX_VALUE)).isEqualTo(LatencyHistogram.BUCKETS - 1);
        assertThat(LatencyHistogram.bucketOf(-5)).isZero();
        RandomSource random = RandomSource.seeded(99);
        for (int i = 0; i < 10_000; i++) {
            long v = (long) Math.exp(random.nextDouble() * Math.log(Long.MAX_VALUE));
            long mid = LatencyHistogram.midpointOf(LatencyHistogram.bucketOf(v));
            assertThat((double) mid).isCloseTo(v, within(Math.max(1.0, v / 32.0)));
        }
        for (long v = 0; v < 100_000; v++) {
            int b = LatencyHistogram.bucketOf(v);
            assertThat(b).isBetween(0, LatencyHistogram.BUCKETS - 1);
        }
    }

    @Test
    void configDefaults() {
        AdaptiveTimeoutConfig d = AdaptiveTimeoutConfig.builder().build();
        assertThat(d.percentile()).isEqualTo(0.99);
        assertThat(d.factor()).isEqualTo(1.5);
        assertThat(d.minTimeout()).isEqualTo(Duration.ofMillis(10));
        assertThat(d.maxTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(d.minSamples()).isEqualTo(100);
        assertThat(d.windowSize()).isEqualTo(1_000);
        assertThat(AdaptiveTimeout.ofDefaults("adaptive").timeoutNanos()).isEqualTo(5_000 * MS);
    }

    @Test
    void configBounds() {
        String p = "AdaptiveTimeout: ";
        assertThatThrownBy(() -> AdaptiveTimeoutConfig.builder().percentile(1.0).build())
                .isInstanceOf(InvalidConfigException.class).hasMessage(p + "percentile must be in (0, 1) but was 1.0");
        assertThatThrownBy(() -> AdaptiveTimeoutConfig.builder().percentile(0.0).build())
                .hasMessage(p + "percentile must be in (0, 1) but was 0.0");
        // 100 is the largest value read as a percent (99.0 is 0.99, 100 would be 1.0: refused either way)
        assertThatThrownBy(() -> AdaptiveTimeoutConfig.builder().percentile(100).build())
                .hasMessageContaining("100.0 looks like a percent: write 1.0");
        assertThatThrownBy(() -> AdaptiveTimeoutConfig.builder().percentile(100.5).build())
                .hasMessage(p + "percentile must be in (0, 1) but was 100.5");
        assertThatThrownBy(() -> AdaptiveTimeoutConfig.builder().percentile(Double.NaN).build())
                .hasMessage(p + "percentile must be in (0, 1) but was NaN");
        assertThatThrownBy(() -> AdaptiveTimeoutConfig.builder().factor(0.9).build())
                .hasMessage(p + "factor must be in [1.0, 100.0] but was 0.9");
        assertThatThrownBy(() -> AdaptiveTimeoutConfig.builder().factor(101).build())
                .hasMessage(p + "factor must be in [1.0, 100.0] but was 101.0");
        assertThatThrownBy(() -> AdaptiveTimeoutConfig.builder().minTimeout(Duration.ZERO).build())
                .hasMessage(p + "minTimeout must be > 0 but was PT0S");
        assertThatThrownBy(() -> AdaptiveTimeoutConfig.builder().minTimeout(Duration.ofSeconds(2))
                .maxTimeout(Duration.ofSeconds(1))
                .build()).hasMessage(p + "maxTimeout must be >= minTimeout (PT2S) but was PT1S");
        assertThatThrownBy(() -> AdaptiveTimeoutConfig.builder().windowSize(0).build())
                .hasMessage(p + "windowSize must be in [1, 1073741824] but was 0");
        assertThatThrownBy(() -> AdaptiveTimeoutConfig.builder().minSamples(0).build())
                .hasMessage(p + "minSamples must be in [1, 1000] but was 0");
        assertThatThrownBy(() -> AdaptiveTimeoutConfig.builder().windowSize(50).minSamples(51).build())
                .hasMessage(p + "minSamples must be in [1, 50] but was 51");
        // the bounds themselves are accepted
        AdaptiveTimeoutConfig.builder().factor(1.0).minTimeout(Duration.ofNanos(1)).maxTimeout(Duration.ofNanos(1)).windowSize(1)
                .minSamples(1).build();
    }
}
