package dev.levee.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class RemovableExecutorTest {

    @Test
    void takesAQueuedTaskBackFromAThreadPool() throws InterruptedException {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean queuedRan = new AtomicBoolean();
        try {
            pool.execute(() -> {
                started.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(started.await(60, TimeUnit.SECONDS)).isTrue();
            Runnable queued = () -> queuedRan.set(true);
            pool.execute(queued);
            assertThat(RemovableExecutor.removeFrom(pool, queued)).isTrue();
            assertThat(RemovableExecutor.removeFrom(pool, queued)).isFalse();
        } finally {
            release.countDown();
            pool.shutdown();
            assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(queuedRan).isFalse();
    }

    @Test
    void asksARemovableExecutorAndNothingElse() {
        List<Runnable> removed = new ArrayList<>();
        RemovableExecutor removable = new RemovableExecutor() {
            @Override
            public void execute(Runnable command) {}

            @Override
            public boolean remove(Runnable task) {
                removed.add(task);
                return task != null;
            }
        };
        Runnable task = () -> {};
        assertThat(RemovableExecutor.removeFrom(removable, task)).isTrue();
        assertThat(removed).containsExactly(task);

        Executor plain = Runnable::run;
        assertThat(RemovableExecutor.removeFrom(plain, task)).isFalse();
    }
}
