package dev.levee.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * For every algorithm, over seeded random arrival schedules (bursts, lulls, steady stretches, long
 * idles, multi-permit requests) on the manual ticker: no interval ever sees more grants than the
 * algorithm's documented bound, and a stream at the configured rate is never refused.
 */
class BoundPropertyTest {
    private static final int SEEDS = 25;
    private static final int ARRIVALS = 4_000;

    @ParameterizedTest
    @EnumSource(RateLimitAlgorithm.class)
    void grantsNeverExceedTheDocumentedBound(RateLimitAlgorithm algorithm) {
        for (long seed = 1; seed <= SEEDS; seed++) {
            RandomSource random = RandomSource.seeded(seed);
            ManualTicker ticker = new ManualTicker(seed * 7_919_000_000L);
            long limit = 1 + random.nextLong(20);
            long period = 1_000_000L * (1 + random.nextLong(10)) + random.nextLong(1000);
            long burst = 1 + random.nextLong(2 * limit);
            RateLimiter limiter = RateLimiter.of("bound", RateLimiterConfig.builder()
                    .algorithm(algorithm).rate(limit, Duration.ofNanos(period)).burst(burst)
                    .ticker(ticker).sleeper(ticker).build());
            long origin = ticker.read();
            int maxPermits = algorithm == RateLimitAlgorithm.LEAKY_BUCKET ? 1 : (int) Math.min(3, limit);
            boolean useReserve = limiter.reserves() && seed % 2 == 0;
            Grants grants = run(limiter, ticker, random, period / limit, period, maxPermits, useReserve);

            String where = algorithm + " seed " + seed + " limit " + limit + " period " + period + " burst " + burst;
            assertThat(grants.size()).as("some grants: " + where).isPositive();
            long interval = period / limit;
            for (long w : new long[] {0, 1, interval - 1, interval, 3 * interval + 7, period - 1, period, 2 * period,
                    5 * period + 3}) {
                if (w < 0) {
                    continue;
                }
                switch (algorithm) {
                    case GCRA:
                        assertThat(grants.maxInClosed(w)).as(where + " W=" + w).isLessThanOrEqualTo(burst + w / interval);
                        break;
                    case LEAKY_BUCKET:
                        assertThat(grants.maxInClosed(w)).as(where + " W=" + w).isLessThanOrEqualTo(1 + w / interval);
                        break;
                    case TOKEN_BUCKET:
                        assertThat(grants.maxInClosed(w)).as(where + " W=" + w)
                                .isLessThanOrEqualTo(burst + w * limit / period + 1);
                        break;
                    default:
                        break;
                }
            }
            switch (algorithm) {
                case FIXED_WINDOW:
                    assertThat(grants.maxInAligned(origin, period)).as(where).isLessThanOrEqualTo(limit);
                    assertThat(grants.maxInHalfOpen(period)).as(where).isLessThanOrEqualTo(2 * limit);
                    break;
                case SLIDING_WINDOW_COUNTER:
                    assertThat(grants.maxInHalfOpen(period)).as(where).isLessThanOrEqualTo(2 * limit);
                    break;
                case SLIDING_LOG:
                    assertThat(grants.maxInHalfOpen(period)).as(where).isLessThanOrEqualTo(limit);
                    break;
                default:
                    break;
            }
        }
    }

    /** Mixed traffic: 40% back-to-back, 40% around the emission interval, 15% up to 3 periods, 5% long idle. */
    private static Grants run(RateLimiter limiter, ManualTicker ticker, RandomSource random, long interval,
            long period, int maxPermits, boolean useReserve) {
        Grants grants = new Grants();
        for (int i = 0; i < ARRIVALS; i++) {
            double kind = random.nextDouble();
            long gap = kind < 0.4 ? 0 : kind < 0.8 ? random.nextLong(2 * interval + 1)
                    : kind < 0.95 ? random.nextLong(3 * period) : 10 * period + random.nextLong(period);
            long now = ticker.advance(gap);
            int permits = random.nextDouble() < 0.2 ? 1 + (int) random.nextLong(maxPermits) : 1;
            if (useReserve) {
                long wait = limiter.reserve(permits, now, random.nextLong(2 * period));
                if (wait >= 0) {
                    grants.add(now + wait, permits); // the caller starts after its wait
                }
            } else if (limiter.tryAcquire(permits, now)) {
                grants.add(now, permits);
            }
        }
        return grants;
    }

    @ParameterizedTest
    @EnumSource(RateLimitAlgorithm.class)
    void aStreamAtTheConfiguredRateIsNeverRefused(RateLimitAlgorithm algorithm) {
        for (long seed = 1; seed <= 5; seed++) {
            RandomSource random = RandomSource.seeded(seed);
            ManualTicker ticker = new ManualTicker(seed * 1_000_003L);
            long limit = 1 + random.nextLong(50);
            long interval = 1_000L * (1 + random.nextLong(1_000_000));
            long period = interval * limit;
            RateLimiter limiter = RateLimiter.of("steady", RateLimiterConfig.builder()
                    .algorithm(algorithm).rate(limit, Duration.ofNanos(period)).burst(1)
                    .ticker(ticker).sleeper(ticker).build());
            ticker.advance(random.nextLong(period)); // any phase against the windows
            for (int i = 0; i < 3_000; i++) {
                assertThat(limiter.tryAcquire(1, ticker.read()))
                        .as(algorithm + " seed " + seed + " arrival " + i + " limit " + limit + " interval " + interval)
                        .isTrue();
                ticker.advance(interval);
            }
        }
    }
}
