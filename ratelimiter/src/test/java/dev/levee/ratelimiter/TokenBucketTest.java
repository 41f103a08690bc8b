package dev.levee.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The token bucket is exact even when the period is not a whole number of intervals (3 per second). */
class TokenBucketTest {
    private static final long SECOND = 1_000_000_000L;

    private static RateLimiter bucket(ManualTicker ticker, long limit, long burst) {
        return RateLimiter.of("tb", RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.TOKEN_BUCKET)
                .rate(limit, Duration.ofSeconds(1)).burst(burst).ticker(ticker).sleeper(ticker).build());
    }

    @Test
    void threePerSecondForAnHourIsExactlyTenThousandEightHundredPlusTheBurst() {
        ManualTicker ticker = new ManualTicker(123L);
        RateLimiter limiter = bucket(ticker, 3, 2);
        long granted = 0;
        for (long ms = 0; ms <= 3_600_000; ms++) {
            while (limiter.tryAcquire(1, ticker.read())) {
                granted++;
            }
            ticker.advance(1_000_000L);
        }
        // 2 at start, then floor(3600.001 s · 3) tokens produced: no drift either way.
        assertThat(granted).isEqualTo(2 + 10_800);
    }

    @Test
    void aStreamAtThreePerSecondIsNeverRefused() {
        ManualTicker ticker = new ManualTicker(0L);
        RateLimiter limiter = bucket(ticker, 3, 1);
        assertThat(limiter.tryAcquire(1, 0L)).isTrue();
        for (long k = 1; k <= 30_000; k++) {
            long due = (k * SECOND + 2) / 3; // ceil(k / 3 s)
            assertThat(limiter.tryAcquire(1, due)).as("arrival " + k).isTrue();
        }
    }

    @Test
    void aRateChangeCarriesTheTokensAcrossRepresentations() {
        ManualTicker ticker = new ManualTicker(0L);
        RateLimiter limiter = bucket(ticker, 10, 5); // whole interval: 100 ms
        assertThat(limiter.tryAcquire(3)).isTrue();
        limiter.setRate(3, Duration.ofSeconds(1)); // counting curve
        assertThat(limiter.availablePermits()).isEqualTo(2);
        assertThat(limiter.tryAcquire(2)).isTrue();
        assertThat(limiter.tryAcquire(1)).isFalse();
        ticker.advance(SECOND / 3 + 1);
        assertThat(limiter.tryAcquire(1)).isTrue();
        limiter.setRate(10, Duration.ofSeconds(1)); // back to whole intervals, empty
        assertThat(limiter.availablePermits()).isZero();
        ticker.advance(100_000_000L);
        assertThat(limiter.tryAcquire(1)).isTrue();
        assertThat(limiter.tryAcquire(1)).isFalse();
    }

    @Test
    void theDecisionReportsTokensRetryAndReset() {
        ManualTicker ticker = new ManualTicker(0L);
        RateLimiter limiter = bucket(ticker, 3, 3);
        RateLimitDecision d = new RateLimitDecision();
        assertThat(limiter.tryAcquire(3, 0L, d)).isTrue();
        assertThat(d.remaining()).isZero();
        assertThat(d.resetAfterNanos()).isEqualTo(SECOND);
        assertThat(limiter.tryAcquire(1, 0L, d)).isFalse();
        assertThat(d.retryAfterNanos()).isEqualTo((SECOND + 2) / 3);
    }
}
