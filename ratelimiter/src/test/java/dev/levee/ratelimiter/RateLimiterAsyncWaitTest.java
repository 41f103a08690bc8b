package dev.levee.ratelimiter;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.RateLimitedException;
import dev.levee.core.Sleeper;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 12, bug 4 (gate half, rate-limiter path): {@code executeAsync} of a limiter with a wait never
 * sleeps on the caller's thread; the wait is scheduled and the call resumes on the async executor.
 */
class RateLimiterAsyncWaitTest {
    private final ManualTicker ticker = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);
    private final Queue<Runnable> handedOff = new ArrayDeque<>();
    private final Executor recording = handedOff::add;
    /** Fails the test if a caller's thread is ever put to sleep. */
    private final Sleeper forbidden = nanos -> {
        throw new AssertionError("slept " + nanos + " ns on the caller's thread");
    };

    @ParameterizedTest
    @EnumSource(RateLimitAlgorithm.class)
    void anAsyncCallWaitsOnTheSchedulerAndResumesOnTheExecutor(RateLimitAlgorithm algorithm) throws Exception {
        RateLimiter limiter = RateLimiter.of("async", RateLimiterConfig.builder().algorithm(algorithm)
                .limit(1).period(Duration.ofSeconds(1)).maxWait(Duration.ofSeconds(5))
                .ticker(ticker).sleeper(forbidden).scheduler(scheduler).asyncExecutor(recording).build());
        assertThat(limiter.executeAsync(() -> CompletableFuture.completedFuture("first")).toCompletableFuture()
                .get(60, SECONDS)).isEqualTo("first");

        CompletableFuture<String> second = limiter.executeAsync(() -> CompletableFuture.completedFuture("second"))
                .toCompletableFuture();
        assertThat(second).as("waiting, not refused and not run").isNotDone();

        for (int i = 0; i < 10 && !second.isDone(); i++) {
            scheduler.advance(Duration.ofMillis(500));
            assertThat(second).as("the scheduler only hands off").isNotDone();
            while (!handedOff.isEmpty()) {
                handedOff.poll().run();
            }
        }
        assertThat(second.get(60, SECONDS)).isEqualTo("second");
    }

    @ParameterizedTest
    @EnumSource(RateLimitAlgorithm.class)
    void aWaitLongerThanMaxWaitIsRefusedAtOnce(RateLimitAlgorithm algorithm) {
        RateLimiter limiter = RateLimiter.of("async", RateLimiterConfig.builder().algorithm(algorithm)
                .limit(1).period(Duration.ofSeconds(10)).maxWait(Duration.ofSeconds(1))
                .ticker(ticker).sleeper(forbidden).scheduler(scheduler).asyncExecutor(recording).build());
        limiter.executeAsync(() -> CompletableFuture.completedFuture("first"));

        CompletableFuture<String> second = limiter.executeAsync(() -> CompletableFuture.completedFuture("second"))
                .toCompletableFuture();
        assertThat(second).isCompletedExceptionally();
        assertThatThrownBy(second::get).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(RateLimitedException.class);
    }
}
