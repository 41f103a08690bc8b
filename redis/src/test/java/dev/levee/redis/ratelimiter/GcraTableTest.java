package dev.levee.redis.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.redis.RedisTestSupport;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The GCRA edge-case table of the local limiter (redis-cell style: advance, permits, grant or refuse
 * with retryAfter), replayed through Redis. Time is the server's: the test moves it forward with the
 * scripts' clock-shift hook, and the real time that passes between steps (milliseconds) is why
 * {@code retryAfter} is checked within a minute below the table's value rather than to the nanosecond;
 * the emission interval is an hour, so every grant and refusal is exact however slow the machine.
 */
class GcraTableTest extends RedisTestSupport {
    private static final long T = Duration.ofHours(1).toNanos(); // 10 per 10 hours
    private static final long M = Duration.ofMinutes(1).toNanos();
    private static final long SLACK = Duration.ofMinutes(1).toNanos();

    private StatefulRedisConnection<String, String> connection;

    @BeforeEach
    void open() {
        connection = connect();
    }

    @AfterEach
    void closeConnection() {
        connection.close();
    }

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
                Arguments.of("boundary, burst 1", 1L, new Step[] {
                    Step.grant(0, 1), Step.refuse(T - M, 1, M), Step.grant(2 * M, 1), Step.refuse(0, 1, T)}),
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
        RedisRateLimiter limiter = RedisRateLimiter.of(unique("gcra-table"), RedisRateLimiterConfig.builder()
                .rate(RateLimiterConfig.builder().rate(10, Duration.ofHours(10)).burst(burst).build())
                .outagePolicy(OutagePolicy.FAIL_CLOSED)
                .callTimeout(Duration.ofSeconds(10))
                .build(), connection);
        RateLimitDecision decision = new RateLimitDecision();
        long shift = 0;
        for (int i = 0; i < steps.length; i++) {
            Step step = steps[i];
            shift += step.advance();
            limiter.shiftServerClock(shift / 1000);
            boolean granted = limiter.tryAcquire(step.permits(), limiter.ticker().read(), decision);
            assertThat(granted).as(name + " step " + i).isEqualTo(step.granted());
            if (step.retryAfter() == Long.MAX_VALUE || step.retryAfter() == 0) {
                assertThat(decision.retryAfterNanos()).as(name + " step " + i + " retryAfter").isEqualTo(step.retryAfter());
            } else {
                assertThat(decision.retryAfterNanos()).as(name + " step " + i + " retryAfter")
                        .isBetween(step.retryAfter() - SLACK, step.retryAfter());
            }
        }
        assertThat(limiter.redisMetrics().outageDecisions()).isZero();
    }
}
