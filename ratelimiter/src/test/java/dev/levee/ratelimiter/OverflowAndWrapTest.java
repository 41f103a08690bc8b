package dev.levee.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Review fixes: n·interval overflow, GCRA rate cuts freeing burst, wrapped window indexes. */
class OverflowAndWrapTest {
    /** 6e10 ns × 153,722,868 just exceeds Long.MAX_VALUE and wraps negative. */
    private static final int WRAPPING = 153_722_868;
    /** 6e10 ns × 307,445,735 wraps past 2^64 to 26 s: less than one interval. */
    private static final int WRAPPING_SMALL = 307_445_735;

    private static RateLimiter limiter(RateLimitAlgorithm algorithm, ManualTicker ticker, long limit, Duration period,
            long burst) {
        return RateLimiter.of("r", RateLimiterConfig.builder().algorithm(algorithm).rate(limit, period).burst(burst)
                .ticker(ticker).sleeper(ticker).build());
    }

    @ParameterizedTest
    @EnumSource(value = RateLimitAlgorithm.class, names = {"GCRA", "TOKEN_BUCKET", "LEAKY_BUCKET"})
    void aRequestWhoseCostOverflowsIsRefusedAndLeavesTheStateAlone(RateLimitAlgorithm algorithm) {
        ManualTicker ticker = new ManualTicker(10_000_000_000_000L); // under 3 hours of uptime
        RateLimiter limiter = limiter(algorithm, ticker, 1, Duration.ofMinutes(1), 1);
        long now = ticker.read();
        assertThat(limiter.tryAcquire(WRAPPING, now)).isFalse();
        assertThat(limiter.tryAcquire(WRAPPING_SMALL, now)).isFalse();
        RateLimitDecision d = new RateLimitDecision();
        assertThat(limiter.tryAcquire(WRAPPING, now, d)).isFalse();
        assertThat(d.retryAfterNanos()).isEqualTo(Long.MAX_VALUE);
        assertThat(limiter.reserve(WRAPPING, now, Long.MAX_VALUE)).isNegative();
        // The limiter is as it was: one permit, then nothing for a minute.
        assertThat(limiter.tryAcquire(1, now)).isTrue();
        assertThat(limiter.tryAcquire(1, now)).isFalse();
        assertThat(limiter.tryAcquire(1, now + 59_000_000_000L)).isFalse();
    }

    @Test
    void aTokenBucketNeverReservesMoreThanItsCapacityEvenWithAnUnboundedWait() {
        ManualTicker ticker = new ManualTicker(0L);
        RateLimiter limiter = limiter(RateLimitAlgorithm.TOKEN_BUCKET, ticker, 10, Duration.ofSeconds(1), 2);
        assertThat(limiter.reserve(3, 0L, Long.MAX_VALUE)).isEqualTo(~Long.MAX_VALUE);
        assertThat(limiter.tryAcquire(2, 0L)).isTrue();
    }

    @Test
    void aLeakyBucketKeepsQueueingAfterAHugeRequest() {
        ManualTicker ticker = new ManualTicker(0L);
        RateLimiter limiter = limiter(RateLimitAlgorithm.LEAKY_BUCKET, ticker, 1, Duration.ofDays(366), 1);
        // T = 366 days: a request of 300 permits already needs more than 2^63 ns.
        assertThat(limiter.reserve(300, 0L, Long.MAX_VALUE)).isEqualTo(~Long.MAX_VALUE);
        assertThat(limiter.reserve(1, 0L, Long.MAX_VALUE)).isZero();
        long t = Duration.ofDays(366).toNanos();
        assertThat(limiter.reserve(1, 0L, Long.MAX_VALUE)).isEqualTo(t); // queued behind the first
        assertThat(limiter.tryAcquire(1, 0L)).isFalse();
    }

    @Test
    void cuttingTheRateNeverFreesTheBurstAlreadyUsed() {
        ManualTicker ticker = new ManualTicker(5_000_000_000L);
        RateLimiter limiter = limiter(RateLimitAlgorithm.GCRA, ticker, 1000, Duration.ofSeconds(1), 10);
        long now = ticker.read();
        assertThat(limiter.tryAcquire(10, now)).isTrue();
        limiter.setRate(10, Duration.ofSeconds(1));
        assertThat(limiter.availablePermits(now)).isZero();
        assertThat(limiter.tryAcquire(1, now)).isFalse(); // was 9 more at the same instant
        // The permit in progress arrives when it was due (1 ms), later ones every 100 ms.
        assertThat(limiter.tryAcquire(1, now + 999_999L)).isFalse();
        assertThat(limiter.tryAcquire(1, now + 1_000_000L)).isTrue();
        assertThat(limiter.tryAcquire(1, now + 100_999_999L)).isFalse();
        assertThat(limiter.tryAcquire(1, now + 101_000_000L)).isTrue();
    }

    @Test
    void raisingTheRateKeepsThePermitsAvailable() {
        ManualTicker ticker = new ManualTicker(0L);
        RateLimiter limiter = limiter(RateLimitAlgorithm.GCRA, ticker, 10, Duration.ofSeconds(1), 10);
        assertThat(limiter.tryAcquire(1, 0L)).isTrue();
        limiter.setRate(1000, Duration.ofSeconds(1));
        assertThat(limiter.availablePermits(0L)).isEqualTo(9);
        assertThat(limiter.tryAcquire(1, 1_000_000L)).isTrue(); // the used one is back after 1 ms
        assertThat(limiter.availablePermits(1_000_000L)).isEqualTo(9);
    }

    @Test
    void aSlidingWindowIsNotLockedOutAfterItsIndexWraps() {
        ManualTicker ticker = new ManualTicker(0L);
        RateLimiter limiter = limiter(RateLimitAlgorithm.SLIDING_WINDOW_COUNTER, ticker, 5, Duration.ofMillis(1), 5);
        assertThat(limiter.tryAcquire(5, 0L)).isTrue();
        assertThat(limiter.tryAcquire(1, 0L)).isFalse();
        // A late reading a few windows behind still decides in the state's window.
        assertThat(limiter.tryAcquire(5, 2_500_000L)).isTrue();
        assertThat(limiter.tryAcquire(1, 500_000L)).isFalse();
        // Idle for 2^21 + 10 windows (35 minutes): the index diff comes out negative.
        long later = ((1L << 21) + 12) * 1_000_000L;
        RateLimitDecision d = new RateLimitDecision();
        assertThat(limiter.tryAcquire(5, later, d)).isTrue();
        assertThat(limiter.tryAcquire(1, later, d)).isFalse();
        assertThat(d.retryAfterNanos()).isLessThanOrEqualTo(2_000_000L);
    }

    @Test
    void aFixedWindowIsNotLockedOutAfterItsIndexWraps() {
        ManualTicker ticker = new ManualTicker(0L);
        RateLimiter limiter = limiter(RateLimitAlgorithm.FIXED_WINDOW, ticker, 1, Duration.ofNanos(1_000), 1);
        assertThat(limiter.tryAcquire(1, 0L)).isTrue();
        assertThat(limiter.tryAcquire(1, 2_500L)).isTrue();
        assertThat(limiter.tryAcquire(1, 500L)).isFalse(); // late reading: the state's window is full
        // Idle for 2^39 + 10 windows of 1 µs (6.4 days).
        long later = ((1L << 39) + 12) * 1_000L;
        RateLimitDecision d = new RateLimitDecision();
        assertThat(limiter.tryAcquire(1, later, d)).isTrue();
        assertThat(limiter.tryAcquire(1, later, d)).isFalse();
        assertThat(d.retryAfterNanos()).isLessThanOrEqualTo(1_000L);
    }
}
