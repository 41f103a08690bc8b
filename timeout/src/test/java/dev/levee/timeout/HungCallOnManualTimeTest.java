package dev.levee.timeout;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.DeadlineExceededException;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, bug 5: THREAD mode registers its timer before the worker starts, so a test of a hung call on
 * manual time needs no spin: once the call has started, advancing by the timeout fires it.
 */
class HungCallOnManualTimeTest {

    @Test
    void theTimerIsRegisteredBeforeTheWorkerIsHandedTheCall() {
        ManualTicker ticker = new ManualTicker();
        ManualScheduler scheduler = new ManualScheduler(ticker);
        AtomicInteger timersWhenHandedOver = new AtomicInteger(-1);
        Executor recording = task -> {
            timersWhenHandedOver.set(scheduler.pending());
            task.run();
        };
        Timeout timeout = Timeout.of("ordered", TimeoutConfig.builder().timeout(Duration.ofSeconds(1))
                .ticker(ticker).scheduler(scheduler).executor(recording).build());

        assertThat(timeout.execute(() -> "done")).isEqualTo("done");

        assertThat(timersWhenHandedOver.get()).as("timers armed when the executor got the call").isEqualTo(1);
        assertThat(scheduler.pending()).as("disarmed after the call").isZero();
    }

    /** The example of {@code docs/timeout.md}: a hung call, manual time, no sleeps and no spins. */
    @Test
    void aHungCallIsAbandonedWhenManualTimeReachesTheTimeout() throws Exception {
        ManualTicker ticker = new ManualTicker();
        ManualScheduler scheduler = new ManualScheduler(ticker);
        Timeout timeout = Timeout.of("hung", TimeoutConfig.builder().timeout(Duration.ofSeconds(2))
                .ticker(ticker).scheduler(scheduler).build());
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);

        CompletableFuture<Object> caller = CompletableFuture.supplyAsync(() -> {
            try {
                return timeout.execute(() -> {
                    started.countDown();
                    never.await(); // hangs until interrupted
                    return "unreachable";
                });
            } catch (Throwable t) {
                return t;
            }
        });
        assertThat(started.await(30, SECONDS)).isTrue(); // the call runs, so its timer is armed
        scheduler.advance(Duration.ofSeconds(2));

        assertThat(caller.get(30, SECONDS)).isInstanceOf(DeadlineExceededException.class);
        assertThat(timeout.timeoutCount()).isEqualTo(1);
    }
}
