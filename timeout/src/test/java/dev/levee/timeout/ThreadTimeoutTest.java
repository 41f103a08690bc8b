package dev.levee.timeout;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.levee.core.BulkheadFullException;
import dev.levee.core.ContextPropagator;
import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** THREAD mode with real worker threads; Awaitility with generous bounds where a thread must be observed. */
@SuppressWarnings("try")
class ThreadTimeoutTest {
    private static final long MS = 1_000_000L;

    private final ExecutorService callers = Executors.newCachedThreadPool();

    @AfterEach
    void stopCallers() {
        callers.shutdownNow();
    }

    @Test
    void aCallStuckInABlockingReadIsAbandonedAtTheDeadlineAndInterrupted() throws Exception {
        // The deadline is fired by a manual scheduler once the worker is about to block, so a slow
        // machine cannot make the call time out before it even starts reading.
        ManualTicker ticker = new ManualTicker();
        ManualScheduler scheduler = new ManualScheduler(ticker);
        Timeout timeout = Timeout.of("read", TimeoutConfig.builder().timeout(Duration.ofMillis(50))
                .ticker(ticker).scheduler(scheduler).build());
        AtomicReference<Throwable> workerSaw = new AtomicReference<>();
        CountDownLatch reading = new CountDownLatch(1);
        CountDownLatch workerDone = new CountDownLatch(1);
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress("127.0.0.1", 0));
            Future<Throwable> caller = callers.submit(() -> {
                try {
                    timeout.execute(() -> {
                        try (SocketChannel channel = SocketChannel.open(server.getLocalAddress())) {
                            reading.countDown();
                            return channel.read(ByteBuffer.allocate(16)); // the server never writes
                        } catch (IOException e) {
                            workerSaw.set(e);
                            throw e;
                        } finally {
                            workerDone.countDown();
                        }
                    });
                    return null;
                } catch (Throwable t) {
                    return t;
                }
            });
            assertThat(reading.await(30, SECONDS)).isTrue();
            await().atMost(30, SECONDS).until(() -> scheduler.pending() == 1);
            scheduler.advance(50 * MS);
            Throwable thrown = caller.get(30, SECONDS);
            assertThat(thrown).isInstanceOf(DeadlineExceededException.class);
            assertThat(((DeadlineExceededException) thrown).policyName()).isEqualTo("read");
            assertThat(workerDone.await(30, SECONDS)).isTrue();
        }
        assertThat(workerSaw.get()).isInstanceOf(ClosedByInterruptException.class);
        assertThat(timeout.timeoutCount()).isEqualTo(1);
    }

    @Test
    void withRealTimeTheCallerReturnsAtTheDeadline() {
        Timeout timeout = Timeout.of("real", Duration.ofMillis(20));
        assertThatThrownBy(() -> timeout.execute(() -> {
            new CountDownLatch(1).await();
            return null;
        })).isInstanceOf(DeadlineExceededException.class);
    }

    @Test
    void noWorkerIsLeftRunningAfterAThousandTimedOutCalls() throws Exception {
        ThreadPoolExecutor pool = TimeoutExecutors.boundedDaemonPool(64);
        try {
            AtomicInteger running = new AtomicInteger();
            AtomicInteger interrupted = new AtomicInteger();
            Timeout timeout = Timeout.of("many", TimeoutConfig.builder().timeout(Duration.ofMillis(2))
                    .minimumRemaining(Duration.ZERO).executor(pool).build());
            Timeout onDefault = Timeout.of("many-default", TimeoutConfig.builder().timeout(Duration.ofMillis(2))
                    .minimumRemaining(Duration.ZERO).build());
            AtomicInteger timedOut = new AtomicInteger();
            int threads = 16;
            CountDownLatch done = new CountDownLatch(threads);
            for (int t = 0; t < threads; t++) {
                Timeout policy = t % 2 == 0 ? timeout : onDefault;
                callers.execute(() -> {
                    try {
                        for (int i = 0; i < 1000 / threads + 1; i++) {
                            try {
                                policy.execute(() -> {
                                    running.incrementAndGet();
                                    try {
                                        new CountDownLatch(1).await();
                                    } catch (InterruptedException e) {
                                        interrupted.incrementAndGet();
                                    } finally {
                                        running.decrementAndGet();
                                    }
                                    return null;
                                });
                            } catch (DeadlineExceededException e) {
                                timedOut.incrementAndGet();
                            }
                        }
                    } finally {
                        done.countDown();
                    }
                });
            }
            assertThat(done.await(60, SECONDS)).isTrue();
            int calls = threads * (1000 / threads + 1);
            assertThat(timedOut.get()).isEqualTo(calls);
            assertThat(timeout.timeoutCount() + onDefault.timeoutCount()).isEqualTo(calls);
            await().atMost(30, SECONDS).untilAsserted(() -> {
                assertThat(running.get()).isZero();
                assertThat(pool.getActiveCount()).isZero();
                assertThat(pool.getQueue()).isEmpty(); // calls still queued at their deadline never ran
            });
            // Every call that started was interrupted out of its wait.
            assertThat(interrupted.get()).isLessThanOrEqualTo(calls);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void resultsAndExceptionsComeBackUnchanged() throws Exception {
        Timeout timeout = Timeout.of("t", Duration.ofSeconds(30));
        Object value = new Object();
        assertThat(timeout.execute(() -> value)).isSameAs(value);
        IOException checked = new IOException("io");
        assertThatThrownBy(() -> timeout.execute(() -> {
            throw checked;
        })).isSameAs(checked);
        IllegalStateException unchecked = new IllegalStateException("state");
        assertThatThrownBy(() -> timeout.execute(() -> {
            throw unchecked;
        })).isSameAs(unchecked);
        OutOfMemoryError error = new OutOfMemoryError("simulated");
        assertThatThrownBy(() -> timeout.execute(() -> {
            throw error;
        })).isSameAs(error);
        Throwable odd = new Throwable("neither exception nor error");
        assertThatThrownBy(() -> timeout.execute(() -> {
            throw odd;
        })).isSameAs(odd);
        assertThat(timeout.successCount()).isEqualTo(1);
        assertThat(timeout.failureCount()).isEqualTo(4);
    }

    @Test
    void theWorkerRunsInTheCallersContextPlusTheCallDeadline() throws Exception {
        ThreadLocal<String> requestId = new ThreadLocal<>();
        ContextPropagator<String> propagator = new ContextPropagator<>() {
            @Override
            public String capture() {
                return requestId.get();
            }

            @Override
            public ContextScope restore(String captured) {
                String previous = requestId.get();
                requestId.set(captured);
                return () -> requestId.set(previous);
            }
        };
        Timeout timeout = Timeout.of("ctx", TimeoutConfig.builder().timeout(Duration.ofSeconds(20))
                .propagators(List.of(propagator)).build());
        requestId.set("req-42");
        try (ContextScope scope = Deadline.after(Duration.ofSeconds(10)).attach()) {
            Deadline callerDeadline = Deadline.currentOrNull();
            String seen = timeout.execute(() -> requestId.get() + " " + Thread.currentThread().getName() + " "
                    + (Deadline.currentOrNull().compareTo(callerDeadline) <= 0));
            assertThat(seen).startsWith("req-42 levee-timeout-").endsWith(" true");
        } finally {
            requestId.remove();
        }
    }

    @Test
    void theCallDeadlineIsTheShorterOneOnTheWorker() throws Exception {
        Timeout timeout = Timeout.of("short", Duration.ofSeconds(30));
        try (ContextScope scope = Deadline.after(Duration.ofSeconds(600)).attach()) {
            long remaining = timeout.execute(() -> Deadline.currentOrNull().remainingNanos());
            assertThat(remaining).isLessThanOrEqualTo(30_000 * MS).isPositive();
        }
    }

    @Test
    void onTheManualSchedulerTheCallerReturnsExactlyWhenTheDeadlineFires() throws Exception {
        ManualTicker ticker = new ManualTicker();
        ManualScheduler scheduler = new ManualScheduler(ticker);
        Timeout timeout = Timeout.of("manual", TimeoutConfig.builder().timeout(Duration.ofMillis(100))
                .ticker(ticker).scheduler(scheduler).build());
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interruptedWorker = new CountDownLatch(1);
        Future<Throwable> caller = callers.submit(() -> {
            try {
                timeout.execute(() -> {
                    started.countDown();
                    try {
                        new CountDownLatch(1).await();
                    } catch (InterruptedException e) {
                        interruptedWorker.countDown();
                    }
                    return "never";
                });
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
        assertThat(started.await(30, SECONDS)).isTrue();
        await().atMost(30, SECONDS).until(() -> scheduler.pending() == 1);
        scheduler.advance(99 * MS);
        assertThat(caller.isDone()).isFalse();
        scheduler.advance(1 * MS);
        assertThat(caller.get(30, SECONDS)).isInstanceOf(DeadlineExceededException.class);
        assertThat(interruptedWorker.await(30, SECONDS)).isTrue();
    }

    @Test
    void withoutInterruptOnTimeoutTheCallerReturnsButTheWorkRunsToItsEnd() throws Exception {
        ManualTicker ticker = new ManualTicker();
        ManualScheduler scheduler = new ManualScheduler(ticker);
        Timeout timeout = Timeout.of("gentle", TimeoutConfig.builder().timeout(Duration.ofMillis(100))
                .interruptOnTimeout(false).ticker(ticker).scheduler(scheduler).build());
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean workerInterrupted = new AtomicBoolean();
        AtomicBoolean workerFinished = new AtomicBoolean();
        Future<Throwable> caller = callers.submit(() -> {
            try {
                timeout.execute(() -> {
                    started.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        workerInterrupted.set(true);
                    }
                    workerFinished.set(true);
                    return "late";
                });
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
        assertThat(started.await(30, SECONDS)).isTrue();
        await().atMost(30, SECONDS).until(() -> scheduler.pending() == 1);
        scheduler.advance(100 * MS);
        assertThat(caller.get(30, SECONDS)).isInstanceOf(DeadlineExceededException.class);
        assertThat(workerFinished.get()).isFalse();
        release.countDown();
        await().atMost(30, SECONDS).untilTrue(workerFinished);
        assertThat(workerInterrupted.get()).isFalse();
    }

    @Test
    void interruptingTheWaitingCallerCancelsTheWorkerAndRestoresTheFlag() throws Exception {
        Timeout timeout = Timeout.of("interrupted", Duration.ofSeconds(60));
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch workerInterrupted = new CountDownLatch(1);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean flagAfter = new AtomicBoolean();
        Thread caller = new Thread(() -> {
            try {
                timeout.execute(() -> {
                    started.countDown();
                    try {
                        new CountDownLatch(1).await();
                    } catch (InterruptedException e) {
                        workerInterrupted.countDown();
                    }
                    return null;
                });
            } catch (Throwable t) {
                thrown.set(t);
            }
            flagAfter.set(Thread.currentThread().isInterrupted());
        });
        caller.start();
        assertThat(started.await(30, SECONDS)).isTrue();
        caller.interrupt();
        caller.join(30_000);
        assertThat(caller.isAlive()).isFalse();
        assertThat(thrown.get()).isInstanceOf(CancellationException.class)
                .hasCauseInstanceOf(InterruptedException.class);
        assertThat(flagAfter.get()).isTrue();
        assertThat(workerInterrupted.await(30, SECONDS)).isTrue();
        assertThat(timeout.interruptedCount()).isEqualTo(1);
    }

    @Test
    void anExecutorThatRejectsGivesABulkheadFullRejection() {
        Timeout timeout = Timeout.of("full", TimeoutConfig.builder().timeout(Duration.ofSeconds(1))
                .executor(task -> {
                    throw new java.util.concurrent.RejectedExecutionException("full");
                }).build());
        assertThatThrownBy(() -> timeout.execute(() -> "x")).isInstanceOf(BulkheadFullException.class);
        assertThat(timeout.rejectedCount()).isEqualTo(1);
    }

    @Test
    void theConfiguredExecutorRunsTheCall() throws Exception {
        ExecutorService own = Executors.newSingleThreadExecutor(r -> new Thread(r, "own-worker"));
        try {
            Timeout timeout = Timeout.of("own", TimeoutConfig.builder().executor(own).build());
            assertThat(timeout.execute(() -> Thread.currentThread().getName())).isEqualTo("own-worker");
        } finally {
            own.shutdownNow();
        }
    }

    @Test
    void aPooledWorkerCarriesNoDeadlineToItsNextTask() throws Exception {
        ThreadPoolExecutor pool = TimeoutExecutors.boundedDaemonPool(1);
        try {
            Timeout timeout = Timeout.of("pooled", TimeoutConfig.builder().executor(pool).build());
            timeout.execute(() -> "first");
            AtomicReference<Deadline> leftover = new AtomicReference<>(Deadline.after(Duration.ZERO));
            pool.submit(() -> leftover.set(Deadline.currentOrNull())).get(30, SECONDS);
            assertThat(leftover.get()).isNull();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aCallerInterruptedBeforeTheCallGetsACancellationAndKeepsItsFlag() {
        Timeout timeout = Timeout.of("pre-interrupted", Duration.ofSeconds(30));
        CountDownLatch never = new CountDownLatch(1);
        Thread.currentThread().interrupt();
        try {
            // The call blocks, so only the caller's interrupt can end the wait. (A call that completes
            // before the caller waits returns its result normally, with the flag still set.)
            assertThatThrownBy(() -> timeout.execute(() -> {
                never.await();
                return "x";
            })).isInstanceOf(CancellationException.class);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void aPooledWorkerInterruptedAtATimeoutStartsItsNextTaskUninterrupted() throws Exception {
        ThreadPoolExecutor pool = TimeoutExecutors.boundedDaemonPool(1);
        ManualTicker ticker = new ManualTicker();
        ManualScheduler scheduler = new ManualScheduler(ticker);
        try {
            Timeout timeout = Timeout.of("pooled", TimeoutConfig.builder().timeout(Duration.ofMillis(10))
                    .executor(pool).ticker(ticker).scheduler(scheduler).build());
            CountDownLatch started = new CountDownLatch(1);
            Future<Throwable> caller = callers.submit(() -> {
                try {
                    timeout.execute(() -> {
                        started.countDown();
                        new CountDownLatch(1).await();
                        return null;
                    });
                    return null;
                } catch (Throwable t) {
                    return t;
                }
            });
            assertThat(started.await(30, SECONDS)).isTrue();
            await().atMost(30, SECONDS).until(() -> scheduler.pending() == 1);
            scheduler.advance(10 * MS);
            assertThat(caller.get(30, SECONDS)).isInstanceOf(DeadlineExceededException.class);
            AtomicBoolean nextSawInterrupt = new AtomicBoolean(true);
            pool.submit(() -> nextSawInterrupt.set(Thread.currentThread().isInterrupted())).get(30, SECONDS);
            assertThat(nextSawInterrupt.get()).isFalse();
        } finally {
            pool.shutdownNow();
        }
    }
}
