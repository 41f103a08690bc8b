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
 * Being refused: the limit is exhausted, the path every caller takes during a flood.
 *
 * <p><b>Fairness.</b> Every limiter allows one permit per hour with a burst of one, that permit is
 * taken in setup, and no waiting is allowed, so every measured call is refused without sleeping:
 * <ul>
 *   <li>Levee GCRA, token bucket and sliding-window counter: {@code 1 per 1 h, burst 1};
 *       {@code tryAcquire()} (no listener, no metrics bound).</li>
 *   <li>resilience4j {@code AtomicRateLimiter}: {@code limitForPeriod 1} per 1 h,
 *       {@code timeoutDuration 0}; {@code acquirePermission()}.</li>
 *   <li>bucket4j local lock-free bucket, nanosecond clock: capacity 1, refill 1 per hour (greedy);
 *       {@code tryConsume(1)}.</li>
 *   <li>Guava {@code RateLimiter.create(1.0 / 3600)}; {@code tryAcquire()}.</li>
 *   <li>Failsafe smooth rate limiter, 1 per hour; {@code tryAcquirePermit()}.</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RateLimiterRejectBenchmark {
    private static final Duration HOUR = Duration.ofHours(1);

    private RateLimiter gcra;
    private RateLimiter tokenBucket;
    private RateLimiter slidingWindow;
    private AtomicRateLimiter resilience4j;
    private Bucket bucket4j;
    private com.google.common.util.concurrent.RateLimiter guava;
    private dev.failsafe.RateLimiter<Object> failsafe;

    /** Builds every limiter and takes its only permit. */
    @Setup
    @SuppressWarnings("CheckReturnValue") // each limiter's one permit is taken to empty it; the answer is known
    public void setUp() {
        gcra = exhausted(RateLimitAlgorithm.GCRA);
        tokenBucket = exhausted(RateLimitAlgorithm.TOKEN_BUCKET);
        slidingWindow = exhausted(RateLimitAlgorithm.SLIDING_WINDOW_COUNTER);
        resilience4j = new AtomicRateLimiter("r4j", io.github.resilience4j.ratelimiter.RateLimiterConfig.custom()
                .limitForPeriod(1).limitRefreshPeriod(HOUR).timeoutDuration(Duration.ZERO).build());
        resilience4j.acquirePermission();
        bucket4j = Bucket.builder()
                .addLimit(Bandwidth.builder().capacity(1).refillGreedy(1, HOUR).build())
                .withNanosecondPrecision()
                .build();
        bucket4j.tryConsume(1);
        guava = com.google.common.util.concurrent.RateLimiter.create(1.0 / 3600);
        guava.tryAcquire();
        failsafe = dev.failsafe.RateLimiter.smoothBuilder(1, HOUR).build();
        failsafe.tryAcquirePermit();
    }

    private static RateLimiter exhausted(RateLimitAlgorithm algorithm) {
        RateLimiter limiter = RateLimiter.of(algorithm.name(), RateLimiterConfig.builder()
                .algorithm(algorithm).rate(1, HOUR).burst(1).build());
        limiter.tryAcquire();
        return limiter;
    }

    /** @return granted (false) */
    @Benchmark
    public boolean leveeGcra() {
        return gcra.tryAcquire();
    }

    /** @return granted (false) */
    @Benchmark
    public boolean leveeTokenBucket() {
        return tokenBucket.tryAcquire();
    }

    /** @return granted (false) */
    @Benchmark
    public boolean leveeSlidingWindowCounter() {
        return slidingWindow.tryAcquire();
    }

    /** @return granted (false) */
    @Benchmark
    public boolean resilience4jAtomicRateLimiter() {
        return resilience4j.acquirePermission();
    }

    /** @return granted (false) */
    @Benchmark
    public boolean bucket4jLockFree() {
        return bucket4j.tryConsume(1);
    }

    /** @return granted (false) */
    @Benchmark
    public boolean guavaRateLimiter() {
        return guava.tryAcquire();
    }

    /** @return granted (false) */
    @Benchmark
    public boolean failsafeSmoothRateLimiter() {
        return failsafe.tryAcquirePermit();
    }
}
