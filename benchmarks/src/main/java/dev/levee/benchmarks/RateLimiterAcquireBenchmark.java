package dev.levee.benchmarks;

import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimiter;
import dev.levee.ratelimiter.RateLimiterConfig;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Taking one permit when a permit is always available: the hot path of every rate-limited call.
 *
 * <p><b>Fairness.</b> Every limiter is one shared instance (a rate limiter is shared by the threads
 * it limits), reads the system clock once per call, and is configured with a rate far above what the
 * benchmark threads can consume (about 10^9 permits per second, with a burst of the same size), so
 * every call is granted and what is measured is the cost of the decision:
 * <ul>
 *   <li>Levee GCRA: {@code limit 1,000,000,000 per 1 s, burst 1,000,000,000}; {@code tryAcquire()}.</li>
 *   <li>Levee token bucket: capacity 10^9, refilled 10^9 per second; {@code tryAcquire()}.</li>
 *   <li>Levee sliding-window counter: 1,000,000 per 1 ms window (its largest limit);
 *       {@code tryAcquire()}.</li>
 *   <li>resilience4j {@code AtomicRateLimiter}: {@code limitForPeriod = Integer.MAX_VALUE} per 1 s,
 *       {@code timeoutDuration = 0}; {@code acquirePermission()}.</li>
 *   <li>bucket4j local bucket, lock-free synchronization (its default), nanosecond clock: capacity
 *       10^9, greedy refill 10^9 per second; {@code tryConsume(1)}.</li>
 *   <li>Guava {@code RateLimiter.create(1e9)} (smooth bursty); {@code tryAcquire()}.</li>
 *   <li>Failsafe smooth rate limiter, 10^9 per second; {@code tryAcquirePermit()}.</li>
 * </ul>
 * The floor (one {@code System.nanoTime()} plus one CAS) is {@code FloorBenchmark.nanoTimeAndCas}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RateLimiterAcquireBenchmark {
    private static final long HUGE = 1_000_000_000L;

    private RateLimiter gcra;
    private RateLimiter tokenBucket;
    private RateLimiter slidingWindow;
    private AtomicRateLimiter resilience4j;
    private Bucket bucket4j;
    private com.google.common.util.concurrent.RateLimiter guava;
    private dev.failsafe.RateLimiter<Object> failsafe;

    /** Builds every limiter with an always-available permit. */
    @Setup
    public void setUp() {
        gcra = RateLimiter.of("gcra", RateLimiterConfig.builder()
                .algorithm(RateLimitAlgorithm.GCRA).rate(HUGE, Duration.ofSeconds(1)).burst(HUGE).build());
        tokenBucket = RateLimiter.of("token-bucket", RateLimiterConfig.builder()
                .algorithm(RateLimitAlgorithm.TOKEN_BUCKET).rate(HUGE, Duration.ofSeconds(1)).burst(HUGE).build());
        slidingWindow = RateLimiter.of("sliding-window", RateLimiterConfig.builder()
                .algorithm(RateLimitAlgorithm.SLIDING_WINDOW_COUNTER)
                .rate(RateLimiterConfig.MAX_WINDOW_LIMIT, Duration.ofMillis(1)).build());
        resilience4j = new AtomicRateLimiter("r4j", io.github.resilience4j.ratelimiter.RateLimiterConfig.custom()
                .limitForPeriod(Integer.MAX_VALUE).limitRefreshPeriod(Duration.ofSeconds(1))
                .timeoutDuration(Duration.ZERO).build());
        bucket4j = Bucket.builder()
                .addLimit(Bandwidth.builder().capacity(HUGE).refillGreedy(HUGE, Duration.ofSeconds(1)).build())
                .withNanosecondPrecision()
                .build();
        guava = com.google.common.util.concurrent.RateLimiter.create(HUGE);
        failsafe = dev.failsafe.RateLimiter.smoothBuilder(HUGE, Duration.ofSeconds(1)).build();
    }

    /** @return granted */
    @Benchmark
    public boolean leveeGcra() {
        return gcra.tryAcquire();
    }

    /** @return granted */
    @Benchmark
    public boolean leveeTokenBucket() {
        return tokenBucket.tryAcquire();
    }

    /** @return granted */
    @Benchmark
    public boolean leveeSlidingWindowCounter() {
        return slidingWindow.tryAcquire();
    }

    /** @return granted */
    @Benchmark
    public boolean resilience4jAtomicRateLimiter() {
        return resilience4j.acquirePermission();
    }

    /** @return granted */
    @Benchmark
    public boolean bucket4jLockFree() {
        return bucket4j.tryConsume(1);
    }

    /** @return granted */
    @Benchmark
    public boolean guavaRateLimiter() {
        return guava.tryAcquire();
    }

    /** @return granted */
    @Benchmark
    public boolean failsafeSmoothRateLimiter() {
        return failsafe.tryAcquirePermit();
    }
}
