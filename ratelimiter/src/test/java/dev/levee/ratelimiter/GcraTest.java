package dev.levee.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** GCRA edge cases, table-driven: each row is a script of (advance, permits, expected grant, expected retryAfter). */
class GcraTest {
    private static final long T = 100_000_000L; // 10 per second

    /** One step: advance the ticker, ask for permits, expect a grant or a refusal with a retryAfter. */
    record Step(long advance, int permits, boolean granted, long retryAfter) {
        static Step grant(long advance, int permits) {
            return new Step(advance, permits, true, 0);
        }

        static Step refuse(long advance, int permits, long retryAfter) {
            return new Step(advance, permits, false, retryAfter);
        }
    }

    static Stream<Arguments> scripts() {
        return Stream.of(
                Arguments.of("exact boundary, burst 1", 1L, new Step[] {
                    Step.grant(0, 1), Step.refuse(T - 1, 1, 1), Step.grant(1, 1), Step.refuse(0, 1, T)}),
                Arguments.of("permits > 1 within the burst", 5L, new Step[] {
                    Step.grant(0, 5), Step.refuse(0, 1, T), Step.grant(2 * T, 2), Step.refuse(0, 3, 3 * T)}),
                Arguments.of("request larger than the burst is never granted", 3L, new Step[] {
                    Step.refuse(0, 4, Long.MAX_VALUE), Step.refuse(100 * T, 4, Long.MAX_VALUE), Step.grant(0, 3)}),
                Arguments.of("burst exhausted, then refilled", 3L, new Step[] {
                    Step.grant(0, 1), Step.grant(0, 1), Step.grant(0, 1), Step.refuse(0, 1, T),
                    Step.grant(3 * T, 3), Step.refuse(0, 1, T)}),
                Arguments.of("partial refill", 4L, new Step[] {
                    Step.grant(0, 4), Step.refuse(T / 2, 2, 2 * T - T / 2), Step.grant(T / 2 + T, 2)}),
                Arguments.of("time going nowhere: only the burst", 3L, new Step[] {
                    Step.grant(0, 1), Step.grant(0, 1), Step.grant(0, 1), Step.refuse(0, 1, T),
                    Step.refuse(0, 1, T), Step.refuse(0, 2, 2 * T)}),
                Arguments.of("an idle limiter does not save more than the burst", 2L, new Step[] {
                    Step.grant(1_000 * T, 2), Step.refuse(0, 1, T)}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scripts")
    void script(String name, long burst, Step[] steps) {
        ManualTicker ticker = new ManualTicker(123_456_789L);
        RateLimiter limiter = RateLimiter.of("gcra", RateLimiterConfig.builder()
                .rate(10, Duration.ofSeconds(1)).burst(burst).ticker(ticker).sleeper(ticker).build());
        RateLimitDecision decision = new RateLimitDecision();
        for (int i = 0; i < steps.length; i++) {
            Step step = steps[i];
            long now = ticker.advance(step.advance());
            boolean granted = limiter.tryAcquire(step.permits(), now, decision);
            assertThat(granted).as(name + " step " + i).isEqualTo(step.granted());
            assertThat(decision.retryAfterNanos()).as(name + " step " + i + " retryAfter").isEqualTo(step.retryAfter());
        }
    }

    @Test
    void aStaleClockReadingNeverGrantsMore() {
        ManualTicker ticker = new ManualTicker(1_000_000_000L);
        RateLimiter limiter = RateLimiter.of("stale", RateLimiterConfig.builder()
                .rate(10, Duration.ofSeconds(1)).burst(2).ticker(ticker).build());
        long now = ticker.read();
        assertThat(limiter.tryAcquire(2, now)).isTrue();
        // A thread that read the clock long before: the limiter is still busy for it.
        assertThat(limiter.tryAcquire(1, now - 10 * T)).isFalse();
        assertThat(limiter.tryAcquire(1, now + T)).isTrue();
    }

    @Test
    void theDecisionReportsRemainingRetryAfterAndReset() {
        ManualTicker ticker = new ManualTicker();
        RateLimiter limiter = RateLimiter.of("decision", RateLimiterConfig.builder()
                .rate(10, Duration.ofSeconds(1)).burst(5).ticker(ticker).build());
        RateLimitDecision d = limiter.decide(2);
        assertThat(d.allowed()).isTrue();
        assertThat(d.limit()).isEqualTo(10);
        assertThat(d.remaining()).isEqualTo(3);
        assertThat(d.retryAfterNanos()).isZero();
        assertThat(d.resetAfterNanos()).isEqualTo(2 * T);
        d = limiter.decide(4);
        assertThat(d.allowed()).isFalse();
        assertThat(d.remaining()).isEqualTo(3);
        assertThat(d.retryAfterNanos()).isEqualTo(T);
        assertThat(d.retryAfterSeconds()).isEqualTo(1);
        assertThat(limiter.availablePermits()).isEqualTo(3);
    }

    @Test
    void setRateChangesTheIntervalAndKeepsTheBurst() {
        ManualTicker ticker = new ManualTicker();
        RateLimiter limiter = RateLimiter.of("rate", RateLimiterConfig.builder()
                .rate(10, Duration.ofSeconds(1)).burst(1).ticker(ticker).build());
        assertThat(limiter.tryAcquire()).isTrue();
        limiter.setRate(1, Duration.ofSeconds(1));
        assertThat(limiter.limit()).isEqualTo(1);
        ticker.advance(T);
        assertThat(limiter.tryAcquire()).isTrue(); // the old reservation ran out at T
        ticker.advance(T);
        assertThat(limiter.tryAcquire()).isFalse(); // now one per second
        ticker.advance(9 * T);
        assertThat(limiter.tryAcquire()).isTrue();
    }

    @Test
    void warmUpStartsSlowAndRampsToTheRate() {
        ManualTicker ticker = new ManualTicker();
        RateLimiter limiter = RateLimiter.of("warm", RateLimiterConfig.builder()
                .rate(10, Duration.ofSeconds(1)).burst(10).warmUp(Duration.ofSeconds(10)).coldFactor(3)
                .ticker(ticker).build());
        int firstSecond = countGrants(limiter, ticker, 1_000_000L, 1_000);
        ticker.advance(Duration.ofSeconds(20));
        int warmSecond = countGrants(limiter, ticker, 1_000_000L, 1_000);
        // Cold: no burst, interval ≈ 3T (about 4 grants in a second); warm: burst 10 plus refills.
        assertThat(firstSecond).isBetween(3, 5);
        assertThat(warmSecond).isEqualTo(10 + 9);
    }

    private static int countGrants(RateLimiter limiter, ManualTicker ticker, long step, int steps) {
        int granted = 0;
        for (int i = 0; i < steps; i++) {
            if (limiter.tryAcquire(1, ticker.read())) {
                granted++;
            }
            ticker.advance(step);
        }
        return granted;
    }

    /**
     * When the period is not a multiple of the limit, the emission interval is rounded up: at
     * 600,000,000 per second the exact interval is 1.67 ns; rounding down to 1 ns would admit
     * 1,000,000 calls in a millisecond instead of at most 600,000 + burst.
     */
    @Test
    void roundingTheIntervalNeverOverAdmits() {
        for (RateLimitAlgorithm algorithm : new RateLimitAlgorithm[] {RateLimitAlgorithm.GCRA, RateLimitAlgorithm.TOKEN_BUCKET}) {
            ManualTicker ticker = new ManualTicker(1_000);
            RateLimiter limiter = RateLimiter.of("fast", RateLimiterConfig.builder()
                    .algorithm(algorithm)
                    .rate(600_000_000L, Duration.ofSeconds(1))
                    .burst(1)
                    .ticker(ticker)
                    .build());
            long granted = 0;
            for (int ns = 0; ns < 1_000_000; ns++) {
                if (limiter.tryAcquire(1, ticker.read())) {
                    granted++;
                }
                ticker.advance(1);
            }
            assertThat(granted).as(algorithm.name()).isLessThanOrEqualTo(600_000 + 1);
        }
    }
}
