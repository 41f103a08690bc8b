package dev.levee.checks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimiter;
import dev.levee.ratelimiter.RateLimiterConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The behavioural half of config fuzzing for the limiter, where "builds" is not enough: every seeded
 * random config that builds gives a limiter that never admits more than its configured rate. At one
 * instant: at most the burst (GCRA, token bucket) or the limit (windows, log). Over a seeded random
 * schedule of {@code H} nanoseconds: at most {@code burst + limit · H / P + 1} (continuous algorithms),
 * {@code limit · (H / P + 1)} (fixed window, sliding log) or {@code limit · (H / P + 2)} (sliding-window
 * counter, whose estimate may lag by one window).
 */
class RateLimiterConfigFuzzTest {
    private static final RateLimitAlgorithm[] ALGORITHMS = {
        RateLimitAlgorithm.GCRA, RateLimitAlgorithm.TOKEN_BUCKET, RateLimitAlgorithm.FIXED_WINDOW,
        RateLimitAlgorithm.SLIDING_WINDOW_COUNTER, RateLimitAlgorithm.SLIDING_LOG};

    @Test
    void everyBuiltLimiterKeepsItsRate() {
        RandomSource random = RandomSource.seeded(19);
        int checked = 0;
        for (int round = 0; round < 600; round++) {
            RateLimitAlgorithm algorithm = ALGORITHMS[(int) random.nextLong(ALGORITHMS.length)];
            long limit = 1 + random.nextLong(50);
            long burst = 1 + random.nextLong(60);
            long periodNanos = Duration.ofMillis(1).toNanos() + random.nextLong(Duration.ofSeconds(10).toNanos());
            ManualTicker ticker = new ManualTicker();
            RateLimiterConfig config = RateLimiterConfig.builder().algorithm(algorithm).rate(limit, Duration.ofNanos(periodNanos))
                    .burst(burst).ticker(ticker).build();
            RateLimiter limiter = RateLimiter.of("fuzz", config);
            String what = "round " + round + ": " + config;
            boolean continuous = algorithm == RateLimitAlgorithm.GCRA || algorithm == RateLimitAlgorithm.TOKEN_BUCKET;

            int atOnce = 0;
            for (int i = 0; i < 200; i++) {
                if (limiter.tryAcquire(1, 0L)) {
                    atOnce++;
                }
            }
            assertThat(atOnce).as(what + " at one instant").isLessThanOrEqualTo((int) (continuous ? burst : limit));

            long horizon = periodNanos * (1 + random.nextLong(5));
            long grants = atOnce;
            long now = 0;
            while (true) {
                now += random.nextLong(Math.max(1, periodNanos / (limit * 2)));
                if (now > horizon) {
                    break;
                }
                if (limiter.tryAcquire(1, now)) {
                    grants++;
                }
            }
            double periods = horizon / (double) periodNanos;
            double bound = switch (algorithm) {
                case GCRA, TOKEN_BUCKET -> burst + limit * periods + 1;
                case SLIDING_WINDOW_COUNTER -> limit * (periods + 2);
                default -> limit * (Math.floor(periods) + 1);
            };
            assertThat((double) grants).as(what + " over " + horizon + " ns").isLessThanOrEqualTo(bound);
            checked++;
        }
        assertThat(checked).isEqualTo(600);
    }
}
