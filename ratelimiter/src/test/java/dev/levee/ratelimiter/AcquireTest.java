package dev.levee.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.ManualTicker;
import dev.levee.core.RateLimitedException;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Waiting: on the manual ticker, which is also the sleeper, so a wait shows as time advanced. */
class AcquireTest {
    private static final long T = 100_000_000L;
    private final ManualTicker ticker = new ManualTicker(5_000_000_000L);

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private RateLimiter limiter(RateLimitAlgorithm algorithm, Duration maxWait) {
        return RateLimiter.of("wait", RateLimiterConfig.builder().algorithm(algorithm)
                .rate(10, Duration.ofSeconds(1)).burst(1).maxWait(maxWait).ticker(ticker).sleeper(ticker).build());
    }

    @Test
    void aWaitThatCannotBeMetFailsAtOnceWithoutSleeping() {
        RateLimiter limiter = limiter(RateLimitAlgorithm.GCRA, Duration.ZERO);
        limiter.acquire(1, Duration.ZERO);
        long before = ticker.read();
        assertThatThrownBy(() -> limiter.acquire(1, Duration.ofNanos(T - 1)))
                .isInstanceOfSatisfying(RateLimitedException.class, e -> {
                    assertThat(e.retryAfterNanos()).isEqualTo(T);
                    assertThat(e.policyName()).isEqualTo("wait");
                });
        assertThat(ticker.read()).isEqualTo(before); // no time passed: nothing slept
    }

    @Test
    void aWaitThatCanBeMetSleepsExactlyUntilThePermitIsDue() {
        RateLimiter limiter = limiter(RateLimitAlgorithm.GCRA, Duration.ZERO);
        limiter.acquire(1, Duration.ZERO);
        long before = ticker.read();
        limiter.acquire(1, Duration.ofSeconds(1));
        assertThat(ticker.read() - before).isEqualTo(T);
    }

    @Test
    void everyAlgorithmFailsAtOnceWhenTheWaitIsTooShort() {
        for (RateLimitAlgorithm algorithm : RateLimitAlgorithm.values()) {
            RateLimiter limiter = RateLimiter.of("wait", RateLimiterConfig.builder().algorithm(algorithm)
                    .rate(1, Duration.ofNanos(T)).burst(1).ticker(ticker).sleeper(ticker).build());
            limiter.acquire(1, Duration.ZERO);
            long before = ticker.read();
            assertThatThrownBy(() -> limiter.acquire(1, Duration.ofNanos(10)))
                    .as(algorithm.name()).isInstanceOf(RateLimitedException.class);
            assertThat(ticker.read()).as(algorithm.name()).isEqualTo(before);
        }
    }

    @Test
    void windowAlgorithmsWaitForTheNextWindow() {
        RateLimiter limiter = RateLimiter.of("window", RateLimiterConfig.builder()
                .algorithm(RateLimitAlgorithm.FIXED_WINDOW).rate(1, Duration.ofSeconds(1))
                .ticker(ticker).sleeper(ticker).build());
        long origin = ticker.read();
        limiter.acquire(1, Duration.ZERO);
        limiter.acquire(1, Duration.ofSeconds(2));
        assertThat(ticker.read() - origin).isEqualTo(Duration.ofSeconds(1).toNanos());
    }

    @SuppressWarnings("try") // the scope is held only for its close()
    @Test
    void theCurrentDeadlineShortensTheWait() {
        RateLimiter limiter = limiter(RateLimitAlgorithm.GCRA, Duration.ZERO);
        limiter.acquire(1, Duration.ZERO);
        long before = ticker.read();
        try (ContextScope scope = Deadline.afterNanos(T / 2, ticker).attach()) {
            assertThatThrownBy(() -> limiter.acquire(1, Duration.ofSeconds(10)))
                    .isInstanceOf(RateLimitedException.class)
                    .hasMessageContaining("deadline");
        }
        assertThat(ticker.read()).isEqualTo(before);
    }

    @Test
    void anInterruptedWaitRestoresTheFlagAndRefuses() {
        RateLimiter limiter = limiter(RateLimitAlgorithm.GCRA, Duration.ZERO);
        limiter.acquire(1, Duration.ZERO);
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> limiter.acquire(1, Duration.ofSeconds(1)))
                .isInstanceOf(RateLimitedException.class)
                .hasMessageContaining("interrupted")
                .hasCauseInstanceOf(InterruptedException.class);
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
    }

    /** Issue 12, bug 13: the permits an interrupted waiter booked go back, so the next caller gets them. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(value = RateLimitAlgorithm.class,
            names = {"GCRA", "TOKEN_BUCKET", "LEAKY_BUCKET"})
    void anInterruptedWaiterGivesBackThePermitsItBooked(RateLimitAlgorithm algorithm) {
        RateLimiter limiter = limiter(algorithm, Duration.ZERO);
        long start = ticker.read();
        limiter.acquire(1, Duration.ZERO);
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> limiter.acquire(1, Duration.ofSeconds(1)))
                .isInstanceOf(RateLimitedException.class).hasMessageContaining("interrupted");
        assertThat(Thread.interrupted()).isTrue();
        assertThat(ticker.read()).isEqualTo(start); // nothing slept
        // The permit due at start + T was booked by the interrupted waiter and never used.
        assertThat(limiter.tryAcquire(1, start + T - 1)).isFalse();
        assertThat(limiter.tryAcquire(1, start + T)).as("the booked permit is free again").isTrue();
        assertThat(limiter.tryAcquire(1, start + T)).isFalse();
    }

    @Test
    void theLeakyBucketQueuesCallersAtAConstantRate() {
        RateLimiter limiter = RateLimiter.of("leaky", RateLimiterConfig.builder()
                .algorithm(RateLimitAlgorithm.LEAKY_BUCKET).rate(10, Duration.ofSeconds(1))
                .maxWait(Duration.ofMillis(250)).ticker(ticker).sleeper(ticker).build());
        long now = ticker.read();
        // Five callers arrive at once: they are served T apart while the queue fits in maxWait.
        assertThat(limiter.reserve(1, now, 250_000_000L)).isEqualTo(0);
        assertThat(limiter.reserve(1, now, 250_000_000L)).isEqualTo(T);
        assertThat(limiter.reserve(1, now, 250_000_000L)).isEqualTo(2 * T);
        assertThat(limiter.reserve(1, now, 250_000_000L)).isEqualTo(~(3 * T)); // would wait 300 ms: refused
        assertThat(limiter.tryAcquire(now)).isFalse();
    }

    @Test
    void asAPolicyItRunsTheCallAndRefusesWithRetryAfter() throws IOException {
        RateLimiter limiter = limiter(RateLimitAlgorithm.GCRA, Duration.ZERO);
        assertThat(limiter.execute(() -> "ok")).isEqualTo("ok");
        assertThatThrownBy(() -> limiter.execute(() -> "again"))
                .isInstanceOfSatisfying(RateLimitedException.class,
                        e -> assertThat(e.retryAfterNanos()).isEqualTo(T));
        ticker.advance(T);
        IOException failure = new IOException("boom");
        assertThatThrownBy(() -> limiter.execute(() -> {
            throw failure;
        })).isSameAs(failure);
    }

    @Test
    void asAPolicyItWaitsUpToMaxWait() {
        RateLimiter limiter = limiter(RateLimitAlgorithm.GCRA, Duration.ofMillis(150));
        long before = ticker.read();
        limiter.execute(() -> 1);
        limiter.execute(() -> 2);
        assertThat(ticker.read() - before).isEqualTo(T);
        RateLimiter impatient = limiter(RateLimitAlgorithm.GCRA, Duration.ofMillis(50));
        impatient.execute(() -> 3);
        long at = ticker.read();
        assertThatThrownBy(() -> impatient.execute(() -> 4)).isInstanceOf(RateLimitedException.class);
        assertThat(ticker.read()).isEqualTo(at);
    }
}
