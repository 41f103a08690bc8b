package dev.levee.bulkhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.levee.core.BulkheadFullException;
import dev.levee.core.ContextPropagator;
import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

@SuppressWarnings("try")
class ThreadPoolBulkheadTest {
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final ThreadLocal<String> TENANT = new ThreadLocal<>();
    private final List<ThreadPoolBulkhead> toClose = new ArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);

    /** A user context propagator, like an MDC or tracing one. */
    static final ContextPropagator<String> TENANT_PROPAGATOR = new ContextPropagator<>() {
        @Override
        public String capture() {
            return TENANT.get();
        }

        @Override
        public ContextScope restore(String captured) {
            String previous = TENANT.get();
            TENANT.set(captured);
            return () -> TENANT.set(previous);
        }
    };

    @AfterEach
    void closeAll() {
        release.countDown();
        Thread.interrupted();
        toClose.forEach(b -> b.close(Duration.ofSeconds(5)));
    }

    private ThreadPoolBulkhead pool(String name, ThreadPoolBulkheadConfig.Builder builder) {
        ThreadPoolBulkhead b = ThreadPoolBulkhead.of(name, builder.build());
        toClose.add(b);
        return b;
    }

    private String blockUntilReleased() throws InterruptedException {
        release.await();
        return "released";
    }

    private static List<Thread> liveThreads(String prefix) {
        List<Thread> live = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(prefix) && t.isAlive()) {
                live.add(t);
            }
        }
        return live;
    }

    @Test
    void runsOnNamedDaemonWorkersAndReturnsTheResult() throws Exception {
        ThreadPoolBulkhead b = pool("io", ThreadPoolBulkheadConfig.builder().maxThreads(2));
        AtomicReference<Thread> worker = new AtomicReference<>();
        String result = b.submit(() -> {
            worker.set(Thread.currentThread());
            return "ok";
        }).get(BOUND.toSeconds(), TimeUnit.SECONDS);
        assertThat(result).isEqualTo("ok");
        assertThat(worker.get().getName()).startsWith("levee-bulkhead-io-");
        assertThat(worker.get().isDaemon()).isTrue();
        assertThat(b.execute(() -> 7)).isEqualTo(7);
        await().atMost(BOUND).until(() -> b.completedCount() == 2);
    }

    @Test
    void whatTheCallThrowsComesOutUnchanged() {
        ThreadPoolBulkhead b = pool("io", ThreadPoolBulkheadConfig.builder().maxThreads(1));
        IOException io = new IOException("down");
        assertThatThrownBy(() -> b.execute(() -> {
            throw io;
        })).isSameAs(io);
        StackOverflowError error = new StackOverflowError("deep");
        assertThatThrownBy(() -> b.execute(() -> {
            throw error;
        })).isSameAs(error);
        CompletableFuture<Object> failed = b.submit(() -> {
            throw io;
        });
        assertThatThrownBy(() -> failed.get(BOUND.toSeconds(), TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isSameAs(io);
        CompletionStage<String> async = b.executeAsync(() -> CompletableFuture.failedFuture(io));
        assertThatThrownBy(() -> async.toCompletableFuture().get(BOUND.toSeconds(), TimeUnit.SECONDS))
                .cause().isSameAs(io);
        CompletionStage<String> asyncOk = b.executeAsync(() -> CompletableFuture.completedFuture("a"));
        assertThat(asyncOk.toCompletableFuture().join()).isEqualTo("a");
    }

    @Test
    void theQueueBoundHoldsAndOneMoreIsRejected() {
        ThreadPoolBulkhead b = pool("q", ThreadPoolBulkheadConfig.builder().maxThreads(2).queueCapacity(3));
        List<CompletableFuture<String>> accepted = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            accepted.add(b.submit(this::blockUntilReleased));
        }
        await().atMost(BOUND).until(() -> b.activeCount() == 2);
        assertThat(b.queueDepth()).isEqualTo(3);
        assertThat(b.remainingQueueCapacity()).isZero();
        CompletableFuture<String> refused = b.submit(() -> "never");
        assertThatThrownBy(refused::join).cause().isInstanceOf(BulkheadFullException.class)
                .hasMessageContaining("is full");
        assertThatThrownBy(() -> b.execute(() -> "never")).isInstanceOf(BulkheadFullException.class);
        CompletionStage<String> refusedAsync = b.executeAsync(() -> CompletableFuture.completedFuture("x"));
        assertThatThrownBy(() -> refusedAsync.toCompletableFuture().join()).cause()
                .isInstanceOf(BulkheadFullException.class);
        assertThat(b.rejectedCount()).isEqualTo(3);
        assertThat(b.threadCount()).isEqualTo(2);
        release.countDown();
        accepted.forEach(f -> assertThat(f.join()).isEqualTo("released"));
        assertThat(b.queueDepth()).isZero();
    }

    @Test
    void aZeroQueueHandsStraightToAThreadOrRejects() {
        ThreadPoolBulkhead b = pool("direct", ThreadPoolBulkheadConfig.builder().maxThreads(1).queueCapacity(0));
        CompletableFuture<String> first = b.submit(this::blockUntilReleased);
        await().atMost(BOUND).until(() -> b.activeCount() == 1);
        assertThatThrownBy(() -> b.submit(() -> "x").join()).cause().isInstanceOf(BulkheadFullException.class);
        release.countDown();
        assertThat(first.join()).isEqualTo("released");
    }

    @Test
    void theDeadlineAndUserContextArriveInTheWorkerAndComeBack() throws Exception {
        ThreadPoolBulkhead b = pool("ctx", ThreadPoolBulkheadConfig.builder().maxThreads(1)
                .propagators(List.of(TENANT_PROPAGATOR)));
        Deadline deadline = Deadline.after(Duration.ofMinutes(5));
        AtomicReference<Deadline> seenDeadline = new AtomicReference<>();
        AtomicReference<String> seenTenant = new AtomicReference<>();
        AtomicReference<String> tenantInContinuation = new AtomicReference<>();
        CompletableFuture<String> blocked;
        TENANT.set("acme");
        try (ContextScope ignored = deadline.attach()) {
            blocked = b.submit(this::blockUntilReleased);
            CompletableFuture<String> probe = b.submit(() -> {
                seenDeadline.set(Deadline.currentOrNull());
                seenTenant.set(TENANT.get());
                return "done";
            });
            // Registered while the task is still queued, so it runs on the worker on completion.
            probe.thenApply(v -> {
                tenantInContinuation.set(TENANT.get());
                return v;
            });
            release.countDown();
            assertThat(probe.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEqualTo("done");
            assertThat(b.execute(() -> TENANT.get() + "@" + Thread.currentThread().getName()))
                    .startsWith("acme@levee-bulkhead-ctx-");
        } finally {
            TENANT.remove();
        }
        assertThat(blocked.join()).isEqualTo("released");
        assertThat(seenDeadline.get()).isSameAs(deadline);
        assertThat(seenTenant.get()).isEqualTo("acme");
        await().atMost(BOUND).until(() -> tenantInContinuation.get() != null);
        assertThat(tenantInContinuation.get()).isEqualTo("acme");
        // The worker's own context is restored afterwards.
        assertThat(b.submit(() -> String.valueOf(TENANT.get()) + Deadline.currentOrNull()).join()).isEqualTo("nullnull");
    }

    @Test
    void aCallWhoseDeadlinePassedWhileQueuedIsNotStarted() {
        ManualTicker ticker = new ManualTicker();
        ThreadPoolBulkhead b = pool("late", ThreadPoolBulkheadConfig.builder().maxThreads(1));
        CompletableFuture<String> blocker = b.submit(this::blockUntilReleased);
        AtomicBoolean ran = new AtomicBoolean();
        CompletableFuture<String> late;
        try (ContextScope ignored = Deadline.afterNanos(1_000, ticker).attach()) {
            late = b.submit(() -> {
                ran.set(true);
                return "ran";
            });
        }
        ticker.advance(1_000);
        release.countDown();
        assertThat(blocker.join()).isEqualTo("released");
        assertThatThrownBy(late::join).cause().isInstanceOf(DeadlineExceededException.class)
                .hasMessageContaining("was not started");
        assertThat(ran).isFalse();
    }

    @Test
    void aSynchronousCallerStopsWaitingAtItsDeadlineAndTheCallIsCancelled() throws Exception {
        ManualTicker ticker = new ManualTicker();
        ThreadPoolBulkhead b = pool("sync", ThreadPoolBulkheadConfig.builder().maxThreads(1));
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean interruptedInWorker = new AtomicBoolean();
        CompletableFuture<Throwable> caller = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try (ContextScope ignored = Deadline.afterNanos(Duration.ofSeconds(1).toNanos(), ticker).attach()) {
                b.execute(() -> {
                    started.countDown();
                    try {
                        new CountDownLatch(1).await();
                    } catch (InterruptedException e) {
                        interruptedInWorker.set(true);
                    }
                    return "x";
                });
                caller.complete(null);
            } catch (Throwable e) {
                caller.complete(e);
            }
        });
        t.start();
        assertThat(started.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
        ticker.advance(Duration.ofSeconds(1));
        assertThat(caller.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isInstanceOf(DeadlineExceededException.class);
        await().atMost(BOUND).untilTrue(interruptedInWorker);
        await().atMost(BOUND).until(() -> b.activeCount() == 0);
    }

    @Test
    void anInterruptedSynchronousCallerGetsARejectionAndKeepsItsFlag() throws Exception {
        ThreadPoolBulkhead b = pool("intr", ThreadPoolBulkheadConfig.builder().maxThreads(1));
        CompletableFuture<Throwable> caller = new CompletableFuture<>();
        AtomicBoolean flag = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            try {
                b.execute(() -> {
                    started.countDown();
                    return blockUntilReleased();
                });
                caller.complete(null);
            } catch (Throwable e) {
                flag.set(Thread.currentThread().isInterrupted());
                caller.complete(e);
            }
        });
        t.start();
        assertThat(started.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
        t.interrupt();
        assertThat(caller.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isInstanceOf(BulkheadFullException.class)
                .hasMessageContaining("interrupted");
        assertThat(flag).isTrue();
        await().atMost(BOUND).until(() -> b.activeCount() == 0);
    }

    @Test
    void cancellingTheStageCancelsTheTask() throws Exception {
        ThreadPoolBulkhead b = pool("cancel", ThreadPoolBulkheadConfig.builder().maxThreads(1));
        CompletableFuture<String> running = b.submit(this::blockUntilReleased);
        AtomicBoolean ran = new AtomicBoolean();
        CompletableFuture<String> queued = b.submit(() -> {
            ran.set(true);
            return "x";
        });
        await().atMost(BOUND).until(() -> b.activeCount() == 1);
        assertThat(queued.cancel(true)).isTrue();
        assertThat(running.cancel(true)).isTrue();
        await().atMost(BOUND).until(() -> b.activeCount() == 0);
        assertThat(b.submit(() -> "after").get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEqualTo("after");
        assertThat(ran).isFalse();
        assertThatThrownBy(queued::join).isInstanceOf(CancellationException.class);
    }

    @Test
    void closeLetsAcceptedWorkFinishAndLeavesNoThread() throws Exception {
        ThreadPoolBulkhead b = pool("leak", ThreadPoolBulkheadConfig.builder().maxThreads(3).queueCapacity(5)
                .threadNamePrefix("leak-test-"));
        List<CompletableFuture<String>> accepted = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            accepted.add(b.submit(() -> "v"));
        }
        accepted.forEach(f -> assertThat(f.join()).isEqualTo("v"));
        assertThat(b.close(Duration.ofSeconds(10))).isTrue();
        assertThat(b.isClosed()).isTrue();
        assertThatThrownBy(() -> b.submit(() -> "late").join()).cause().isInstanceOf(BulkheadFullException.class)
                .hasMessageContaining("closed");
        await().atMost(BOUND).until(() -> liveThreads("leak-test-").isEmpty());
    }

    @Test
    void closeAfterTheGracePeriodInterruptsRunningAndFailsQueuedWork() throws Exception {
        ThreadPoolBulkhead b = pool("grace", ThreadPoolBulkheadConfig.builder().maxThreads(1).queueCapacity(2)
                .threadNamePrefix("grace-test-"));
        List<BulkheadEvent> events = new ArrayList<>();
        b.onEvent(events::add);
        AtomicBoolean interrupted = new AtomicBoolean();
        CompletableFuture<String> running = b.submit(() -> {
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.set(true);
                throw e;
            }
            return "never";
        });
        await().atMost(BOUND).until(() -> b.activeCount() == 1);
        CompletableFuture<String> queued = b.submit(() -> "never");
        assertThat(b.close(Duration.ZERO)).isFalse();
        assertThatThrownBy(queued::join).cause().isInstanceOf(BulkheadFullException.class)
                .hasMessageContaining("closed before the call started");
        assertThatThrownBy(running::join).cause().isInstanceOf(InterruptedException.class);
        assertThat(interrupted).isTrue();
        assertThat(b.awaitTermination(BOUND)).isTrue();
        await().atMost(BOUND).until(() -> liveThreads("grace-test-").isEmpty());
        assertThat(events).hasAtLeastOneElementOfType(BulkheadEvent.Closed.class);
    }

    @Test
    void closeUsesTheConfiguredGracePeriodAndEventsUseTheConfiguredTicker() {
        ManualTicker ticker = new ManualTicker(77L);
        ThreadPoolBulkhead b = pool("cfg", ThreadPoolBulkheadConfig.builder().maxThreads(1).queueCapacity(0)
                .closeGracePeriod(Duration.ZERO).ticker(ticker));
        List<BulkheadEvent> events = new ArrayList<>();
        b.onEvent(events::add);
        CompletableFuture<String> running = b.submit(this::blockUntilReleased);
        await().atMost(BOUND).until(() -> b.activeCount() == 1);
        b.submit(() -> "refused");
        b.close();
        assertThatThrownBy(running::join).cause().isInstanceOf(InterruptedException.class);
        assertThat(events).extracting(e -> e.getClass().getSimpleName()).containsExactly("Rejected", "Closed");
        assertThat(events).allMatch(e -> e.tickerNanos() == 77L);
    }

    @Test
    void coreThreadsBelowMaxGrowOnlyWhenTheQueueIsFull() {
        ThreadPoolBulkhead b = pool("grow", ThreadPoolBulkheadConfig.builder().maxThreads(3).coreThreads(1)
                .queueCapacity(1).keepAlive(Duration.ofMillis(50)));
        List<CompletableFuture<String>> accepted = new ArrayList<>();
        accepted.add(b.submit(this::blockUntilReleased));
        accepted.add(b.submit(this::blockUntilReleased));
        assertThat(b.threadCount()).isEqualTo(1);
        assertThat(b.queueDepth()).isEqualTo(1);
        accepted.add(b.submit(this::blockUntilReleased));
        assertThat(b.threadCount()).isEqualTo(2);
        release.countDown();
        accepted.forEach(CompletableFuture::join);
        await().atMost(BOUND).until(() -> b.threadCount() == 0);
    }

    @Test
    void configBoundsAndDefaults() {
        ThreadPoolBulkheadConfig d = ThreadPoolBulkheadConfig.builder().build();
        assertThat(d.maxThreads()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(d.coreThreads()).isEqualTo(d.maxThreads());
        assertThat(d.queueCapacity()).isEqualTo(100);
        assertThat(d.keepAlive()).isEqualTo(Duration.ofSeconds(60));
        assertThat(d.closeGracePeriod()).isEqualTo(Duration.ofSeconds(10));
        assertThat(d.threadNamePrefix()).isNull(); // the bulkhead derives levee-bulkhead-<name>-
        assertThat(d.virtualThreads()).isFalse();
        assertThat(d.propagators()).isEmpty();
        assertThatThrownBy(() -> ThreadPoolBulkheadConfig.builder().maxThreads(0).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("ThreadPoolBulkhead: maxThreads must be in [1, 10000] but was 0");
        assertThatThrownBy(() -> ThreadPoolBulkheadConfig.builder().maxThreads(2).coreThreads(3).build())
                .hasMessage("ThreadPoolBulkhead: coreThreads must be in [1, maxThreads (2)] but was 3");
        assertThatThrownBy(() -> ThreadPoolBulkheadConfig.builder().coreThreads(0).build())
                .hasMessageContaining("coreThreads");
        assertThatThrownBy(() -> ThreadPoolBulkheadConfig.builder().queueCapacity(-1).build())
                .hasMessage("ThreadPoolBulkhead: queueCapacity must be in [0, 1000000] but was -1");
        assertThatThrownBy(() -> ThreadPoolBulkheadConfig.builder().keepAlive(Duration.ZERO).build())
                .hasMessageContaining("keepAlive must be > 0");
        assertThatThrownBy(() -> ThreadPoolBulkheadConfig.builder().closeGracePeriod(Duration.ofSeconds(-1)).build())
                .hasMessageContaining("closeGracePeriod must be >= 0");
        assertThatThrownBy(() -> ThreadPoolBulkheadConfig.builder().threadNamePrefix(" ").build())
                .hasMessageContaining("threadNamePrefix");
        assertThatThrownBy(() -> ThreadPoolBulkheadConfig.builder().propagators(null).build())
                .hasMessageContaining("propagators");
        assertThatThrownBy(() -> ThreadPoolBulkheadConfig.builder().ticker(null).build())
                .hasMessageContaining("ticker");
        assertThatThrownBy(() -> ThreadPoolBulkhead.of("", d)).hasMessageContaining("name");
        assertThatThrownBy(() -> ThreadPoolBulkhead.of("p", null)).isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("config");
        if (!dev.levee.core.internal.VirtualThreads.supported()) {
            assertThatThrownBy(() -> ThreadPoolBulkheadConfig.builder().virtualThreads(true).build())
                    .isInstanceOf(InvalidConfigException.class)
                    .hasMessageContaining("virtualThreads must be false on a JDK without virtual threads");
        }
    }
}
