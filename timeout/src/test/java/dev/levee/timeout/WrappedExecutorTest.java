package dev.levee.timeout;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.levee.core.ContextSnapshot;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, bug 15: a THREAD-mode call cancelled while queued must not stay queued in a pool wrapped
 * by Levee's context-propagating executor.
 */
class WrappedExecutorTest {

    @Test
    void aCallCancelledWhileQueuedIsRemovedFromAWrappedPool() throws Exception {
        ManualTicker ticker = new ManualTicker();
        ManualScheduler scheduler = new ManualScheduler(ticker);
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>());
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try {
            pool.execute(() -> {
                busy.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(busy.await(30, SECONDS)).isTrue();
            Timeout timeout = Timeout.of("queued", TimeoutConfig.builder().timeout(Duration.ofSeconds(1))
                    .executor(ContextSnapshot.propagating(pool)).ticker(ticker).scheduler(scheduler).build());

            CompletableFuture<Throwable> caller = CompletableFuture.supplyAsync(() -> {
                try {
                    timeout.execute(() -> "never runs");
                    return null;
                } catch (Throwable t) {
                    return t;
                }
            });
            await().atMost(Duration.ofSeconds(30)).until(() -> pool.getQueue().size() == 1);
            scheduler.advance(Duration.ofSeconds(1));

            assertThat(caller.get(30, SECONDS)).isInstanceOf(DeadlineExceededException.class);
            assertThat(pool.getQueue()).as("the cancelled call no longer occupies the queue").isEmpty();
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }
}
