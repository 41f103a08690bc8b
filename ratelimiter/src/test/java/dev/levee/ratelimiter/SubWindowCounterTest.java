package dev.levee.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import dev.levee.testing.Concurrently;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The sliding-window counter with {@code k} sub-window buckets: its documented bounds hold on
 * adversarial and seeded random arrival sequences (manual time).
 */
class SubWindowCounterTest {
    private static final long MS = 1_000_000L;
    private static final long PERIOD = 1_000 * MS;
    private static final int LIMIT = 100;

    private static RateLimiter limiter(ManualTicker ticker, int buckets) {
        return RateLimiter.of("sub", RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.SLIDING_WINDOW_COUNTER)
                .limit(LIMIT).period(Duration.ofNanos(PERIOD)).buckets(buckets).ticker(ticker).sleeper(ticker).build());
    }

    /** Most grants in any half-open interval of {@code length}. */
    private static int maxIn(long[] grants, int count, long length) {
        int best = 0;
        int j = 0;
        for (int i = 0; i < count; i++) {
            while (j < count && grants[j] < grants[i] + length) {
                j++;
            }
            best = Math.max(best, j - i);
        }
        return best;
    }

    /** Arrival patterns: ends of buckets, starts of buckets, bursts, uniform, and all mixed. */
    private static long[] arrivals(String pattern, long width, Random random) {
        int n = 20_000;
        long[] times = new long[n];
        long horizon = 20 * PERIOD;
        for (int i = 0; i < n; i++) {
            long t;
            switch (pattern) {
                case "bucket-ends":
                    t = (random.nextInt((int) (horizon / width)) + 1) * width - 1 - random.nextInt(3);
                    break;
                case "bucket-starts":
                    t = random.nextInt((int) (horizon / width)) * width + random.nextInt(3);
                    break;
                case "bursts":
                    t = random.nextInt(40) * (horizon / 40) + random.nextInt(1_000);
                    break;
                case "mixed":
                    t = random.nextBoolean() ? (random.nextInt((int) (horizon / width)) + 1) * width - 1
                            : (long) (random.nextDouble() * horizon);
                    break;
                default:
                    t = (long) (random.nextDouble() * horizon);
            }
            times[i] = Math.max(1, t);
        }
        Arrays.sort(times);
        return times;
    }

    @Test
    void theDocumentedBoundsHoldOnAdversarialArrivals() {
        for (int k : new int[] {2, 4, 10, 50}) {
            long width = PERIOD / k;
            for (String pattern : List.of("bucket-ends", "bucket-starts", "bursts", "uniform", "mixed")) {
                for (int seed = 0; seed < 3; seed++) {
                    ManualTicker ticker = new ManualTicker();
                    RateLimiter limiter = limiter(ticker, k);
                    Random random = new Random(seed * 31L + k);
                    long[] times = arrivals(pattern, width, random);
                    long[] grants = new long[times.length];
                    int granted = 0;
                    long origin = ticker.read();
                    for (long t : times) {
                        ticker.advance(origin + t - ticker.read());
                        long now = ticker.read();
                        long available = limiter.availablePermits(now);
                        if (available > 0) {
                            checkEstimate(grants, granted, now, origin, width, k, LIMIT - available);
                        }
                        if (limiter.tryAcquire(1, now)) {
                            grants[granted++] = now;
                        }
                    }
                    String what = "k=" + k + " " + pattern + " seed " + seed;
                    assertThat(maxIn(grants, granted, (k - 1) * width)).as(what).isLessThanOrEqualTo(LIMIT);
                    int maxBucket = maxBucket(grants, granted, origin, width);
                    assertThat(maxIn(grants, granted, k * width)).as(what).isLessThanOrEqualTo(LIMIT + maxBucket)
                            .isLessThanOrEqualTo(2 * LIMIT);
                    assertThat(granted).as(what).isPositive();
                }
            }
        }
    }

    /** |estimate − true count of (now − k·w, now]| ≤ the oldest (partly covered) bucket's grants. */
    private static void checkEstimate(long[] grants, int count, long now, long origin, long width, int k, long estimate) {
        long bucket = (now - origin) / width;
        long oldestStart = origin + (bucket - k) * width;
        int inWindow = 0;
        int oldest = 0;
        for (int i = 0; i < count; i++) {
            if (grants[i] > now - k * width) {
                inWindow++;
            }
            if (grants[i] >= oldestStart && grants[i] < oldestStart + width) {
                oldest++;
            }
        }
        assertThat(Math.abs(estimate - inWindow)).as("estimate %d, true %d, oldest bucket %d", estimate, inWindow, oldest)
                .isLessThanOrEqualTo(oldest);
    }

    private static int maxBucket(long[] grants, int count, long origin, long width) {
        int best = 0;
        int run = 0;
        long current = -1;
        for (int i = 0; i < count; i++) {
            long b = (grants[i] - origin) / width;
            run = b == current ? run + 1 : 1;
            current = b;
            best = Math.max(best, run);
        }
        return best;
    }

    @Test
    void moreBucketsMeanASmallerWorstCaseOverAnyPeriodOnAnEvenStream() {
        // A stream at exactly L per P, started mid-bucket, is never refused, whatever k.
        for (int k : new int[] {1, 2, 10}) {
            ManualTicker ticker = new ManualTicker();
            RateLimiter limiter = limiter(ticker, k);
            ticker.advance(PERIOD / 3);
            for (int i = 0; i < 10 * LIMIT; i++) {
                assertThat(limiter.tryAcquire(1, ticker.read())).as("k=%d call %d", k, i).isTrue();
                ticker.advance(PERIOD / LIMIT);
            }
        }
    }

    @Test
    void sixteenThreadsNeverOverAdmitAtOneInstant() throws InterruptedException {
        ManualTicker ticker = new ManualTicker();
        RateLimiter limiter = limiter(ticker, 10);
        AtomicInteger granted = new AtomicInteger();
        Concurrently.run(thread -> {
            for (int i = 0; i < 1_000; i++) {
                if (limiter.tryAcquire(1, ticker.read())) {
                    granted.incrementAndGet();
                }
            }
        });
        assertThat(granted.get()).isEqualTo(LIMIT);
    }

    @Test
    void sixteenThreadsAcrossBucketBoundariesKeepTheIntervalBound() throws InterruptedException {
        ManualTicker ticker = new ManualTicker();
        int k = 10;
        long width = PERIOD / k;
        RateLimiter limiter = limiter(ticker, k);
        List<Long> grants = java.util.Collections.synchronizedList(new ArrayList<>());
        Concurrently.run(thread -> {
            for (int i = 0; i < 5_000; i++) {
                if (thread == 0 && i % 50 == 0) {
                    ticker.advance(width / 7);
                }
                long now = ticker.read();
                if (limiter.tryAcquire(1, now)) {
                    grants.add(now);
                }
            }
        });
        long[] sorted = grants.stream().mapToLong(Long::longValue).sorted().toArray();
        // readings may lag the head by a moment; the bound holds on the readings used
        assertThat(maxIn(sorted, sorted.length, (k - 1) * width)).isLessThanOrEqualTo(LIMIT);
    }

    @Test
    void aRateChangeKeepsWhatTheWindowHolds() {
        ManualTicker ticker = new ManualTicker();
        RateLimiter limiter = limiter(ticker, 4);
        for (int i = 0; i < 60; i++) {
            assertThat(limiter.tryAcquire(1, ticker.read())).isTrue();
        }
        limiter.setRate(80, Duration.ofNanos(PERIOD));
        assertThat(limiter.availablePermits(ticker.read())).isEqualTo(20);
        assertThat(limiter.limit()).isEqualTo(80);
    }

    @Test
    void bucketBoundsAreRefusedWithFieldAndValue() {
        assertThatThrownBy(() -> RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.SLIDING_WINDOW_COUNTER)
                .buckets(0).build()).isInstanceOf(InvalidConfigException.class).hasMessageContaining("buckets")
                .hasMessageContaining("0");
        assertThatThrownBy(() -> RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.SLIDING_WINDOW_COUNTER)
                .buckets(1_001).build()).isInstanceOf(InvalidConfigException.class).hasMessageContaining("1001");
        assertThatThrownBy(() -> RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.GCRA).buckets(4).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("SLIDING_WINDOW_COUNTER");
        assertThatThrownBy(() -> RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.SLIDING_WINDOW_COUNTER)
                .period(Duration.ofNanos(100_000)).limit(10).buckets(200).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("buckets").hasMessageContaining("200");
        assertThat(RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.SLIDING_WINDOW_COUNTER).buckets(1_000)
                .build().toBuilder().build().buckets()).isEqualTo(1_000);
        assertThat(RateLimiterConfig.defaults().buckets()).isEqualTo(RateLimiterConfig.DEFAULT_BUCKETS).isEqualTo(1);
    }
}
