package dev.levee.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A key held in the keyed state table ({@code decideInSlot}, {@code freshState}; architecture decision
 * 40) decides exactly as an unkeyed limiter of the same config fed the same readings: every field of
 * every {@link RateLimitDecision} (granted, limit, remaining, balance, retryAfter, resetAfter) is
 * compared, over seeded scripts of readings that are equal, 1 ns apart, about one interval apart and
 * long idle gaps, with requests from 1 permit to one more than the capacity.
 *
 * <p>Each key's unkeyed twin must start in the key's state. A table key shares its tier's bucket, whose
 * counting curve (a refill that does not divide the period) has the phase of the tier's origin, the
 * keyed limiter's creation; a part-full key is filled from its first reading. So a twin is created with
 * the keyed limiter and, at the key's first reading, given back to the initial tokens by taking what it
 * gathered beyond them; a whole-interval bucket has no phase, and its part-full twin is simply created
 * at the key's first reading. The counters (permits granted and refused, refusals) and the refusal
 * events agree too, and the script runs on a ticker reading positive and on one reading negative (a
 * {@code System.nanoTime()} origin may be either).
 */
class KeyedSlotOracleTest {
    private static final long[] STARTS = {7_000_000_000L, -7_000_000_000L};

    static Stream<RateLimiterConfig.Builder> configs() {
        return Stream.of(
                RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.GCRA).rate(5, Duration.ofSeconds(1)),
                RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.GCRA).rate(3, Duration.ofNanos(1_000_001)).burst(7),
                RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.GCRA).rate(4, Duration.ofMillis(10)).burst(1),
                RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.LEAKY_BUCKET).rate(4, Duration.ofMillis(10)),
                // whole intervals (1 s / 5 divides) and the counting curve (1 s / 3 does not)
                RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.TOKEN_BUCKET).rate(5, Duration.ofSeconds(1)),
                RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.TOKEN_BUCKET).rate(3, Duration.ofSeconds(1)).burst(7),
                // part-full at creation: filled from the key's first reading
                RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.TOKEN_BUCKET).rate(5, Duration.ofSeconds(1))
                        .burst(6).initialTokens(2),
                RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.TOKEN_BUCKET).rate(3, Duration.ofSeconds(1))
                        .burst(4).initialTokens(0));
    }

    @ParameterizedTest
    @MethodSource("configs")
    void everyKeyedDecisionEqualsTheUnkeyedLimitersDecision(RateLimiterConfig.Builder builder) {
        for (long seed = 1; seed <= 4; seed++) {
            ManualTicker ticker = new ManualTicker(STARTS[(int) seed % 2]);
            RateLimiterConfig config = builder.ticker(ticker).sleeper(ticker).build();
            KeyedRateLimiter<Integer> keyed = KeyedRateLimiter.<Integer>builder("keyed").defaultConfig(config).build();
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            new RateLimiterMetricsBinder(keyed).bindTo(meters);
            long[] events = new long[2]; // refusal events of the table, of the twins
            keyed.onEvent(e -> events[0] += e instanceof RateLimiterEvent.Rejected ? 1 : 0);
            boolean partFull = config.algorithm() == RateLimitAlgorithm.TOKEN_BUCKET
                    && config.initialTokens() < config.burst();
            boolean wholeIntervals = config.periodNanos() % config.limit() == 0;
            Map<Integer, RateLimiter> twins = new HashMap<>();
            Map<Integer, RateLimiter> early = new HashMap<>();
            for (int k = 0; k < 3; k++) {
                early.put(k, RateLimiter.of("twin-" + k, config)); // created at the keyed limiter's origin
            }
            RandomSource random = RandomSource.seeded(seed);
            long interval = Math.max(1L, config.periodNanos() / config.limit());
            long capacity = config.algorithm() == RateLimitAlgorithm.LEAKY_BUCKET ? 1 : config.burst();
            RateLimitDecision fromTable = new RateLimitDecision();
            RateLimitDecision fromTwin = new RateLimitDecision();
            for (int step = 0; step < 300; step++) {
                long advance = switch ((int) random.nextLong(6)) {
                    case 0 -> 0L;
                    case 1 -> 1L;
                    case 2 -> interval - 1;
                    case 3 -> random.nextLong(interval + 1);
                    case 4 -> interval * random.nextLong(capacity + 2);
                    default -> random.nextLong(3) == 0 ? 1_000L * config.periodNanos() : random.nextLong(interval / 3 + 1);
                };
                ticker.advance(Duration.ofNanos(advance));
                int key = (int) random.nextLong(3);
                int permits = 1 + (int) random.nextLong(capacity + 1);
                long now = ticker.read();
                RateLimiter twin = twins.computeIfAbsent(key, k -> {
                    if (partFull && wholeIntervals) {
                        RateLimiter t = RateLimiter.of("twin-" + k, config);
                        t.onEvent(e -> events[1] += e instanceof RateLimiterEvent.Rejected ? 1 : 0);
                        new RateLimiterMetricsBinder(java.util.List.of(t)).bindTo(meters);
                        return t;
                    }
                    RateLimiter t = early.get(k);
                    t.onEvent(e -> events[1] += e instanceof RateLimiterEvent.Rejected ? 1 : 0);
                    long gathered = t.availablePermits(now) - config.initialTokens();
                    if (partFull && gathered > 0) {
                        assertThat(t.tryAcquire((int) gathered, now)).isTrue();
                    }
                    new RateLimiterMetricsBinder(java.util.List.of(t)).bindTo(meters); // counts from here
                    return t;
                });
                boolean granted = keyed.tryAcquire(key, permits, fromTable);
                boolean twinGranted = twin.tryAcquire(permits, now, fromTwin);
                String at = config.algorithm() + " seed " + seed + " step " + step + " key " + key + " permits "
                        + permits + " at " + now;
                assertThat(granted).as(at).isEqualTo(twinGranted).isEqualTo(fromTable.allowed());
                assertThat(fromTable.toString()).as(at).isEqualTo(fromTwin.toString());
                assertThat(new long[] {fromTable.limit(), fromTable.remaining(), fromTable.balance(),
                        fromTable.retryAfterNanos(), fromTable.resetAfterNanos()}).as(at)
                        .containsExactly(fromTwin.limit(), fromTwin.remaining(), fromTwin.balance(),
                                fromTwin.retryAfterNanos(), fromTwin.resetAfterNanos());
                // the short form decides the same too (no decision filled)
                if (random.nextLong(4) == 0) {
                    assertThat(keyed.tryAcquire(key, 1)).as(at + " short form").isEqualTo(twin.tryAcquire(1, now));
                }
            }
            assertThat(events[0]).as("refusal events").isEqualTo(events[1]).isPositive();
            for (String counter : new String[] {"granted", "rejected"}) {
                double twinsTotal = 0;
                for (int k : twins.keySet()) {
                    twinsTotal += meters.get("levee.ratelimiter.permits").tag("name", "twin-" + k)
                            .tag("outcome", counter).functionCounter().count();
                }
                assertThat(meters.get("levee.ratelimiter.permits").tag("name", "keyed").tag("outcome", counter)
                        .functionCounter().count()).as("permits " + counter).isEqualTo(twinsTotal).isPositive();
            }
        }
    }

    @Test
    void aTableKeyRefusesARequestOfNoPermitsLikeAnyLimiter() {
        for (RateLimitAlgorithm algorithm : new RateLimitAlgorithm[] {RateLimitAlgorithm.GCRA, RateLimitAlgorithm.TOKEN_BUCKET}) {
            ManualTicker ticker = new ManualTicker(STARTS[0]);
            KeyedRateLimiter<String> keyed = KeyedRateLimiter.<String>builder("keyed").defaultConfig(RateLimiterConfig
                    .builder().algorithm(algorithm).rate(5, Duration.ofSeconds(1)).ticker(ticker).build()).build();
            assertThat(keyed.tryAcquire("a")).isTrue();
            assertThatThrownBy(() -> keyed.tryAcquire("a", 0)).as(algorithm.name())
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> keyed.tryAcquire("a", 0, new RateLimitDecision())).as(algorithm.name())
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
