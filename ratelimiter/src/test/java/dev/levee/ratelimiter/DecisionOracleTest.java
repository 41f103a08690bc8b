package dev.levee.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The numbers a decision carries are exact, checked against the limiter itself (issue 19: PIT showed the
 * retry-after and remaining arithmetic pinned for sign and order only). Over seeded random scripts on the
 * manual ticker, at every step a replica replayed to the same state is asked:
 *
 * <ul>
 *   <li>refused with a finite {@code retryAfter r}: the same request is refused at {@code now + r - 1}
 *       and granted at {@code now + r} (nobody else taking permits meanwhile);</li>
 *   <li>{@code remaining k}: exactly {@code k} single permits are granted at the same instant, then a
 *       refusal;</li>
 *   <li>{@code resetAfter t}: at {@code now + t} the limiter grants its whole capacity at once.</li>
 * </ul>
 */
class DecisionOracleTest {
    private static final int SEEDS = 6;
    private static final int STEPS = 60;
    private static final long START = 5_000_000_000L;

    record Step(long advance, int permits) {}

    @ParameterizedTest
    @EnumSource(RateLimitAlgorithm.class)
    void retryAfterRemainingAndResetAreExact(RateLimitAlgorithm algorithm) {
        check(algorithm, 1);
    }

    /**
     * The sub-window counter ({@code buckets > 1}): {@code remaining} and {@code resetAfter} are exact as
     * above; its {@code retryAfter} is documented as a hint (the next bucket boundary while a full bucket
     * is in the way), so only its lower bound is checked: refused at {@code now + r - 1}.
     */
    @org.junit.jupiter.api.Test
    void theSubWindowCounterToo() {
        check(RateLimitAlgorithm.SLIDING_WINDOW_COUNTER, 4);
    }

    private static void check(RateLimitAlgorithm algorithm, int buckets) {
        for (long seed = 1; seed <= SEEDS; seed++) {
            RandomSource random = RandomSource.seeded(seed * 31 + algorithm.ordinal());
            long limit = 2 + random.nextLong(6);
            long period = 1_000_000L * (1 + random.nextLong(5)) + random.nextLong(997);
            long burst = algorithm == RateLimitAlgorithm.LEAKY_BUCKET ? 1 : 1 + random.nextLong(2 * limit);
            RateLimiterConfig config = RateLimiterConfig.builder().algorithm(algorithm)
                    .rate(limit, Duration.ofNanos(period)).burst(burst).buckets(buckets).build();
            long capacity = switch (algorithm) {
                case GCRA, TOKEN_BUCKET -> burst;
                case LEAKY_BUCKET -> 1;
                default -> limit;
            };
            int maxPermits = algorithm == RateLimitAlgorithm.LEAKY_BUCKET ? 1 : (int) Math.min(3, capacity);
            long mean = period / limit;

            List<Step> script = new ArrayList<>();
            ManualTicker ticker = new ManualTicker(START);
            RateLimiter limiter = build(config, ticker);
            RateLimitDecision d = new RateLimitDecision();
            for (int i = 0; i < STEPS; i++) {
                long advance = random.nextLong(2) == 0 ? 0 : random.nextLong(2 * mean + 1);
                int permits = 1 + (int) random.nextLong(maxPermits);
                long now = ticker.advance(advance);
                boolean granted = limiter.tryAcquire(permits, now, d);
                script.add(new Step(advance, permits));
                String where = algorithm + " seed " + seed + " step " + i + " (limit " + limit + ", period " + period
                        + ", burst " + burst + ", permits " + permits + "): " + d;
                assertThat(d.allowed()).as(where).isEqualTo(granted);

                long r = d.retryAfterNanos();
                if (granted) {
                    assertThat(r).as(where).isZero();
                } else if (r != Long.MAX_VALUE) {
                    assertThat(r).as(where).isPositive();
                    assertThat(replay(config, script).tryAcquire(permits, now + r - 1)).as("refused just before: " + where)
                            .isFalse();
                    if (buckets == 1) {
                        assertThat(replay(config, script).tryAcquire(permits, now + r)).as("granted at retryAfter: " + where)
                                .isTrue();
                    }
                }

                RateLimiter probe = replay(config, script);
                long k = 0;
                while (k <= capacity && probe.tryAcquire(1, now)) {
                    k++;
                }
                assertThat(k).as("single permits granted at once, remaining: " + where).isEqualTo(d.remaining());

                long reset = d.resetAfterNanos();
                assertThat(reset).as(where).isNotNegative();
                assertThat(replay(config, script).tryAcquire((int) capacity, now + reset))
                        .as("full capacity at resetAfter: " + where).isTrue();
            }
        }
    }

    private static RateLimiter build(RateLimiterConfig config, ManualTicker ticker) {
        return RateLimiter.of("oracle", config.toBuilder().ticker(ticker).sleeper(ticker).build());
    }

    /** A limiter in the state the script left the original in (the last step included). */
    private static RateLimiter replay(RateLimiterConfig config, List<Step> script) {
        ManualTicker ticker = new ManualTicker(START);
        RateLimiter limiter = build(config, ticker);
        for (Step s : script) {
            limiter.tryAcquire(s.permits(), ticker.advance(s.advance()));
        }
        return limiter;
    }
}
