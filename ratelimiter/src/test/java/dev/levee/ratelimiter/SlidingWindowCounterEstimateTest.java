package dev.levee.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 12, bug 6: pins the sliding-window counter's weighted estimate
 * {@code curr + floor(prev·(P − elapsed − 1)/P)}. Removing the weighting (or counting the previous
 * window whole) fails these tests.
 */
class SlidingWindowCounterEstimateTest {
    private static final long P = 1_000_000_000L;

    private static RateLimiter limiter(ManualTicker ticker, long limit) {
        return RateLimiter.of("swc", RateLimiterConfig.builder()
                .algorithm(RateLimitAlgorithm.SLIDING_WINDOW_COUNTER).rate(limit, Duration.ofNanos(P))
                .ticker(ticker).build());
    }

    private static int grantsOfOne(RateLimiter l, long now) {
        int n = 0;
        while (l.tryAcquire(1, now)) {
            n++;
        }
        return n;
    }

    /** A full previous window of 10; how many fit at {@code elapsed} into the next one. */
    @ParameterizedTest(name = "elapsed {0} ns: prev weighted {1}, {2} available")
    @CsvSource({
        "0,          9,  1",
        "1,          9,  1",
        "100000000,  8,  2",
        "250000000,  7,  3",
        "500000000,  4,  6",
        "750000000,  2,  8",
        "900000000,  0, 10",
        "999999999,  0, 10"})
    void thePreviousWindowCountsByTheShareTheSlidingWindowStillCovers(long elapsed, long weighted, int available) {
        ManualTicker ticker = new ManualTicker(0);
        RateLimiter l = limiter(ticker, 10);
        assertThat(grantsOfOne(l, 0)).isEqualTo(10);
        long now = P + elapsed;
        assertThat(10 - (long) Math.floor(10.0 * (P - elapsed - 1) / P)).isEqualTo(10 - weighted);
        assertThat(grantsOfOne(l, now)).isEqualTo(available);
    }

    /**
     * The grant test multiplies instead of dividing ({@code floor(a/P) > room} as {@code a >= (room+1)·P});
     * the estimate {@link RateLimiter#availablePermits} reports still divides. Over random limits, periods,
     * fill levels and instants, a request is granted exactly when it fits in what is reported available.
     */
    @Test
    void theGrantTestAgreesWithTheDividedEstimateEverywhere() {
        SplittableRandom random = new SplittableRandom(20261125L);
        for (int trial = 0; trial < 2_000; trial++) {
            long limit = 1 + random.nextInt(300);
            long period = 2 * (1 + random.nextLong(2_500_000L)); // even, for the exact instants below
            ManualTicker ticker = new ManualTicker(0);
            RateLimiter l = RateLimiter.of("swc", RateLimiterConfig.builder()
                    .algorithm(RateLimitAlgorithm.SLIDING_WINDOW_COUNTER).rate(limit, Duration.ofNanos(period))
                    .ticker(ticker).build());
            l.tryAcquire((int) (1 + random.nextLong(limit)), random.nextLong(period));
            long second = period + random.nextLong(period / 2);
            l.tryAcquire((int) (1 + random.nextLong(limit)), second);
            // Half the trials at P/2 − 1 into the window, where the previous count is weighted by exactly
            // 1/2: an even count weighs a whole number, the equality case of the grant test.
            long now = random.nextBoolean() ? period + period / 2 - 1 : second + random.nextLong(2 * period - second);
            long available = l.availablePermits(now);
            int n = (int) (1 + random.nextLong(limit));
            assertThat(l.tryAcquire(n, now))
                    .as("limit %d per %d ns, %d wanted at %d ns, %d available", limit, period, n, now, available)
                    .isEqualTo(n <= available);
        }
    }

    @Test
    void theEstimateAddsTheCurrentWindow() {
        ManualTicker ticker = new ManualTicker(0);
        RateLimiter l = limiter(ticker, 100);
        for (int i = 0; i < 60; i++) {
            assertThat(l.tryAcquire(1, i * (P / 100))).isTrue(); // 60 spread over the first 0.6 s
        }
        // At 1.5 s: 60 weighted by (P − 0.5P − 1)/P -> floor(29.99...) = 29; 71 fit.
        long now = P + P / 2;
        assertThat(l.tryAcquire(40, now)).isTrue();
        // estimate = 40 + 29 = 69: 31 more fit, the 32nd does not.
        RateLimitDecision d = new RateLimitDecision();
        assertThat(l.tryAcquire(31, now, d)).isTrue();
        assertThat(d.remaining()).isZero();
        assertThat(l.tryAcquire(1, now)).isFalse();
    }

    @Test
    void theRemainingCountAndRetryAfterFollowTheEstimate() {
        ManualTicker ticker = new ManualTicker(0);
        RateLimiter l = limiter(ticker, 10);
        assertThat(grantsOfOne(l, 0)).isEqualTo(10);
        RateLimitDecision d = new RateLimitDecision();
        // At 1.25 s the estimate is 7: 3 remain before this request, 2 after it.
        assertThat(l.tryAcquire(1, P + P / 4, d)).isTrue();
        assertThat(d.remaining()).isEqualTo(2);
        assertThat(l.tryAcquire(2, P + P / 4)).isTrue();
        assertThat(l.tryAcquire(1, P + P / 4, d)).isFalse();
        // The weighted count falls by one every P/10 once prev·(P − elapsed − 1)/P drops below 7.
        assertThat(d.retryAfterNanos()).isPositive().isLessThanOrEqualTo(P / 10 + 1);
    }

    @Test
    void skippingAWindowForgetsTheOldCounts() {
        ManualTicker ticker = new ManualTicker(0);
        RateLimiter l = limiter(ticker, 10);
        assertThat(grantsOfOne(l, 0)).isEqualTo(10);
        assertThat(grantsOfOne(l, 2 * P)).isEqualTo(10);
    }
}
