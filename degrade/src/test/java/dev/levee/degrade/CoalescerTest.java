package dev.levee.degrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class CoalescerTest {
    private static final int CALLERS = 1_000;

    private final ManualTicker ticker = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);
    private final CoalescerConfig config = CoalescerConfig.builder().ticker(ticker).scheduler(scheduler).build();

    /** Runs {@code CALLERS} threads calling {@code call} at once; returns what each returned or threw. */
    private static List<Object> concurrently(int callers, java.util.concurrent.Callable<Object> call) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<Object>> results = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            CompletableFuture<Object> result = new CompletableFuture<>();
            results.add(result);
            Thread t = new Thread(() -> {
                try {
                    start.await();
                    result.complete(call.call());
                } catch (Throwable e) {
                    result.complete(e);
                }
            });
            t.start();
            threads.add(t);
        }
        start.countDown();
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(60));
        }
        List<Object> out = new ArrayList<>();
        for (CompletableFuture<Object> r : results) {
            out.add(r.get(60, TimeUnit.SECONDS));
        }
        return out;
    }

    @Test
    void aThousandConcurrentCallersOfOneKeyShareExactlyOneExecution() throws Exception {
        Coalescer<String, String> coalescer = Coalescer.of("one-key", config);
        AtomicInteger executions = new AtomicInteger();
        String value = "the value";

        List<Object> results = concurrently(CALLERS, () -> coalescer.execute("hot", () -> {
            executions.incrementAndGet();
            // Hold the load until every other caller has joined it, so all 1,000 are concurrent.
            await().atMost(60, TimeUnit.SECONDS).until(() -> coalescer.metrics().joined() == CALLERS - 1);
            return value;
        }));

        assertThat(executions).hasValue(1);
        assertThat(results).hasSize(CALLERS).allSatisfy(r -> assertThat(r).isSameAs(value));
        assertThat(coalescer.size()).isZero();
        assertThat(coalescer.metrics()).isEqualTo(new CoalescerMetrics(1, CALLERS - 1, 0, 0, 0, 0));
    }

    @Test
    void aThousandConcurrentCallersOfOneKeyAllGetTheSameException() throws Exception {
        Coalescer<String, String> coalescer = Coalescer.of("one-key-failing", config);
        AtomicInteger executions = new AtomicInteger();
        IOException failure = new IOException("database down");

        List<Object> results = concurrently(CALLERS, () -> coalescer.execute("hot", () -> {
            executions.incrementAndGet();
            await().atMost(60, TimeUnit.SECONDS).until(() -> coalescer.metrics().joined() == CALLERS - 1);
            throw failure;
        }));

        assertThat(executions).hasValue(1);
        assertThat(results).hasSize(CALLERS).allSatisfy(r -> assertThat(r).isSameAs(failure));
        assertThat(coalescer.size()).isZero();
    }

    @Test
    void aThousandAsynchronousCallersShareOneLoadAndTheSameException() {
        Coalescer<String, String> coalescer = Coalescer.of("one-key-async", config);
        AtomicInteger executions = new AtomicInteger();
        CompletableFuture<String> load = new CompletableFuture<>();
        List<CompletableFuture<String>> stages = new ArrayList<>();
        for (int i = 0; i < CALLERS; i++) {
            stages.add(coalescer.executeAsync("hot", () -> {
                executions.incrementAndGet();
                return load;
            }).toCompletableFuture());
        }
        assertThat(coalescer.size()).isEqualTo(1);
        IllegalStateException failure = new IllegalStateException("down");

        load.completeExceptionally(failure);

        assertThat(executions).hasValue(1);
        Set<Throwable> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (CompletableFuture<String> stage : stages) {
            assertThat(stage).isCompletedExceptionally();
            stage.handle((v, e) -> seen.add(e));
        }
        assertThat(seen).containsExactly(failure);
        assertThat(coalescer.size()).isZero();
    }

    @Test
    void cancellingOneWaiterDoesNotCancelTheOthersOrTheLoad() {
        Coalescer<String, String> coalescer = Coalescer.of("cancel-one", config);
        CompletableFuture<String> load = new CompletableFuture<>();
        CompletableFuture<String> first = coalescer.executeAsync("k", () -> load).toCompletableFuture();
        CompletableFuture<String> second = coalescer.executeAsync("k", () -> load).toCompletableFuture();
        CompletableFuture<String> third = coalescer.executeAsync("k", () -> load).toCompletableFuture();

        assertThat(second.cancel(true)).isTrue();
        load.complete("v");

        assertThat(load).isNotCancelled();
        assertThat(first).isCompletedWithValue("v");
        assertThat(third).isCompletedWithValue("v");
        assertThat(second).isCancelled();
        assertThat(coalescer.size()).isZero();
    }

    @Test
    void cancellingTheLeadersStageDoesNotCancelTheLoad() {
        Coalescer<String, String> coalescer = Coalescer.of("cancel-leader", config);
        CompletableFuture<String> load = new CompletableFuture<>();
        CompletableFuture<String> leader = coalescer.executeAsync("k", () -> load).toCompletableFuture();
        CompletableFuture<String> joiner = coalescer.executeAsync("k", () -> load).toCompletableFuture();

        leader.cancel(true);
        load.complete("v");

        assertThat(load).isNotCancelled();
        assertThat(joiner).isCompletedWithValue("v");
    }

    @Test
    void anInterruptedSynchronousWaiterGivesUpAloneAndKeepsItsFlag() throws Exception {
        Coalescer<String, String> coalescer = Coalescer.of("interrupt-one", config);
        CompletableFuture<String> release = new CompletableFuture<>();
        CompletableFuture<String> leader = CompletableFuture.supplyAsync(() -> coalescer.execute("k", release::join));
        await().atMost(60, TimeUnit.SECONDS).until(() -> coalescer.metrics().loads() == 1);
        AtomicReference<Throwable> waiterOutcome = new AtomicReference<>();
        AtomicReference<Boolean> flag = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                coalescer.execute("k", () -> "never");
            } catch (Throwable e) {
                waiterOutcome.set(e);
                flag.set(Thread.currentThread().isInterrupted());
            }
        });
        CompletableFuture<String> other = CompletableFuture.supplyAsync(() -> coalescer.execute("k", () -> "never"));
        waiter.start();
        await().atMost(60, TimeUnit.SECONDS).until(() -> coalescer.metrics().joined() == 2);

        waiter.interrupt();
        waiter.join(60_000);
        release.complete("v");

        assertThat(waiterOutcome.get()).isInstanceOf(CancellationException.class)
                .hasCauseInstanceOf(InterruptedException.class);
        assertThat(flag.get()).isTrue();
        assertThat(leader.get(60, TimeUnit.SECONDS)).isEqualTo("v");
        assertThat(other.get(60, TimeUnit.SECONDS)).isEqualTo("v");
        assertThat(coalescer.size()).isZero();
    }

    @Test
    void sixteenThreadsOnRandomKeysLeaveNoEntriesBehind() throws Exception {
        Coalescer<Integer, Integer> coalescer = Coalescer.of("stress", CoalescerConfig.builder().maxEntries(64).build());
        int threads = 16;
        int callsPerThread = 5_000;
        Map<Integer, AtomicInteger> inFlightPerKey = new ConcurrentHashMap<>();
        AtomicInteger overlaps = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        List<Throwable> unexpected = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int t = 0; t < threads; t++) {
            RandomSource random = RandomSource.seeded(1_000 + t);
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < callsPerThread; i++) {
                        int key = (int) random.nextLong(32);
                        int kind = (int) random.nextLong(4);
                        try {
                            if (kind == 3) {
                                coalescer.executeAsync(key, () -> kind == 3 && key % 2 == 0
                                        ? CompletableFuture.completedFuture(key)
                                        : CompletableFuture.failedFuture(new IllegalStateException("async"))).toCompletableFuture().join();
                            } else {
                                Integer v = coalescer.execute(key, () -> {
                                    // Coalescing means one load per key at a time (bypassed calls excepted).
                                    if (inFlightPerKey.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet() > 1) {
                                        overlaps.incrementAndGet();
                                    }
                                    try {
                                        if (kind == 0) {
                                            throw new IOException("load failed");
                                        }
                                        if (kind == 1) {
                                            throw new IllegalArgumentException("bad key");
                                        }
                                        return key;
                                    } finally {
                                        inFlightPerKey.get(key).decrementAndGet();
                                    }
                                });
                                assertThat(v).isEqualTo(key);
                            }
                        } catch (IOException | IllegalArgumentException | IllegalStateException | java.util.concurrent.CompletionException expected) {
                            // failures are part of the mix
                        }
                    }
                } catch (Throwable e) {
                    unexpected.add(e);
                }
            });
            worker.start();
            workers.add(worker);
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join(TimeUnit.MINUTES.toMillis(2));
        }

        assertThat(unexpected).isEmpty();
        assertThat(coalescer.size()).isZero();
        assertThat(overlaps).hasValue(0);
        assertThat(coalescer.metrics().bypassed()).isZero(); // 32 keys never exceed 64 entries
        CoalescerMetrics m = coalescer.metrics();
        assertThat(m.loads() + m.joined()).isEqualTo((long) threads * callsPerThread);
    }

    @Test
    void aLoaderThatReturnsANullStageOrThrowsLeavesNothingBehind() {
        Coalescer<String, String> coalescer = Coalescer.of("null-stage", config);

        CompletableFuture<String> nullStage = coalescer.executeAsync("k", () -> null).toCompletableFuture();
        CompletableFuture<String> throwing = coalescer.executeAsync("k", () -> {
            throw new IllegalStateException("cannot start");
        }).toCompletableFuture();

        assertThatThrownBy(nullStage::join).hasCauseInstanceOf(NullPointerException.class);
        assertThatThrownBy(throwing::join).hasCauseInstanceOf(IllegalStateException.class);
        assertThat(coalescer.size()).isZero();
    }

    @Test
    void anErrorReachesEveryCallerAndLeavesNothingBehind() {
        Coalescer<String, String> coalescer = Coalescer.of("error", config);
        StackOverflowError error = new StackOverflowError();

        assertThatThrownBy(() -> coalescer.execute("k", () -> {
            throw error;
        })).isSameAs(error);
        assertThat(coalescer.size()).isZero();
    }

    @Test
    void beyondMaxEntriesACallRunsOnItsOwn() {
        Coalescer<String, String> coalescer = Coalescer.of("bounded",
                config.toBuilder().maxEntries(2).build());
        List<CoalescerEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();
        coalescer.onEvent(events::add);
        CompletableFuture<String> a = new CompletableFuture<>();
        CompletableFuture<String> b = new CompletableFuture<>();
        coalescer.executeAsync("a", () -> a);
        coalescer.executeAsync("b", () -> b);

        assertThat(coalescer.execute("c", () -> "c")).isEqualTo("c");
        assertThat(coalescer.size()).isEqualTo(2);
        assertThat(coalescer.execute("d", () -> "d")).isEqualTo("d");
        assertThat(coalescer.metrics().bypassed()).isEqualTo(2);
        assertThat(events).containsExactly(new CoalescerEvent.Bypassed("bounded", ticker.read(), 2),
                new CoalescerEvent.Bypassed("bounded", ticker.read(), 2));
        assertThat(dev.levee.degrade.testing.RecordingLogs.lines(org.slf4j.event.Level.WARN, "'bounded'")).hasSize(1);
        a.complete("a");
        b.complete("b");
        assertThat(coalescer.size()).isZero();
    }

    // ---------------------------------------------------------------- hold window and early refresh

    @Test
    void theHoldWindowCoalescesCallsArrivingJustAfterCompletionThenTheSchedulerRemovesTheKey() {
        Coalescer<String, String> coalescer = Coalescer.of("hold",
                config.toBuilder().holdWindow(Duration.ofMillis(100)).earlyRefreshBeta(0).build());
        AtomicInteger loads = new AtomicInteger();

        assertThat(coalescer.execute("k", () -> "v" + loads.incrementAndGet())).isEqualTo("v1");
        scheduler.advance(Duration.ofMillis(99));
        assertThat(coalescer.execute("k", () -> "v" + loads.incrementAndGet())).isEqualTo("v1");
        assertThat(coalescer.executeAsync("k", () -> CompletableFuture.completedFuture("v" + loads.incrementAndGet())))
                .isCompletedWithValue("v1");
        assertThat(coalescer.size()).isEqualTo(1);
        scheduler.advance(Duration.ofMillis(1));
        assertThat(coalescer.size()).isZero();
        assertThat(coalescer.execute("k", () -> "v" + loads.incrementAndGet())).isEqualTo("v2");
        assertThat(coalescer.metrics().held()).isEqualTo(2);
    }

    @Test
    void failuresAreNeverHeld() {
        Coalescer<String, String> coalescer = Coalescer.of("hold-failure",
                config.toBuilder().holdWindow(Duration.ofSeconds(10)).build());

        assertThatThrownBy(() -> coalescer.execute("k", () -> {
            throw new IllegalStateException("down");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(coalescer.size()).isZero();
        assertThat(coalescer.execute("k", () -> "v")).isEqualTo("v");
    }

    @Test
    void nearTheEndOfTheWindowOneCallerRefreshesWhileTheOthersAreServedTheHeldValue() {
        AtomicReference<Double> draw = new AtomicReference<>(0.0);
        Coalescer<String, String> coalescer = Coalescer.of("xfetch",
                config.toBuilder().holdWindow(Duration.ofSeconds(10)).random(draw::get).build());
        CompletableFuture<String> refresh = new CompletableFuture<>();
        coalescer.execute("k", () -> {
            ticker.advance(Duration.ofSeconds(1)); // the load took delta = 1 s
            return "v1";
        });
        // 9 s remain, delta 1 s, beta 1: refresh iff -ln(1 - draw) >= 9, i.e. draw >= 1 - e^-9.
        draw.set(0.99);
        assertThat(coalescer.executeAsync("k", () -> refresh)).isCompletedWithValue("v1");
        assertThat(coalescer.metrics().earlyRefreshes()).isZero();

        List<CoalescerEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();
        coalescer.onEvent(events::add);
        draw.set(0.99999);
        CompletableFuture<String> refresher = coalescer.executeAsync("k", () -> refresh).toCompletableFuture();
        CompletableFuture<String> other = coalescer.executeAsync("k", () -> refresh).toCompletableFuture();

        assertThat(refresher).isCompletedWithValue("v1"); // stale-while-revalidate: served at once
        assertThat(other).isCompletedWithValue("v1");
        assertThat(coalescer.metrics().earlyRefreshes()).isEqualTo(1); // only one caller refreshes
        assertThat(events).containsExactly(new CoalescerEvent.RefreshedEarly("xfetch", ticker.read()));
        refresh.complete("v2");
        assertThat(coalescer.execute("k", () -> "never")).isEqualTo("v2");
        scheduler.advance(Duration.ofSeconds(10));
        assertThat(coalescer.size()).isZero();
    }

    @Test
    void aSynchronousEarlyRefreshServesTheRefresherTheNewValue() {
        Coalescer<String, String> coalescer = Coalescer.of("xfetch-sync",
                config.toBuilder().holdWindow(Duration.ofSeconds(10)).random(() -> 0.99999).build());
        coalescer.execute("k", () -> {
            ticker.advance(Duration.ofSeconds(1));
            return "v1";
        });

        assertThat(coalescer.execute("k", () -> "v2")).isEqualTo("v2");
        // The refreshed value took no time to load (delta 0), so it is held without early refresh.
        assertThat(coalescer.execute("k", () -> "v3")).isEqualTo("v2");
        assertThat(coalescer.metrics().loads()).isEqualTo(1);
        assertThat(coalescer.metrics().earlyRefreshes()).isEqualTo(1);
    }

    @Test
    void aFailedEarlyRefreshKeepsServingTheHeldValueAndAllowsAnotherRefresh() {
        Coalescer<String, String> coalescer = Coalescer.of("xfetch-failure",
                config.toBuilder().holdWindow(Duration.ofSeconds(10)).random(() -> 0.99999).build());
        List<CoalescerEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();
        coalescer.onEvent(events::add);
        coalescer.execute("k", () -> {
            ticker.advance(Duration.ofSeconds(1));
            return "v1";
        });
        IllegalStateException failure = new IllegalStateException("reload failed");

        assertThat(coalescer.execute("k", () -> {
            throw failure;
        })).isEqualTo("v1");
        assertThat(coalescer.execute("k", () -> "v2")).isEqualTo("v2");

        assertThat(events).hasSize(3);
        assertThat(events.get(1)).isEqualTo(new CoalescerEvent.RefreshFailed("xfetch-failure", ticker.read(), failure));
    }

    @Test
    void anEarlyRefreshThatThrowsAnErrorRethrowsItAndAllowsAnotherRefresh() {
        Coalescer<String, String> coalescer = Coalescer.of("xfetch-error",
                config.toBuilder().holdWindow(Duration.ofSeconds(10)).random(() -> 0.99999).build());
        coalescer.execute("k", () -> {
            ticker.advance(Duration.ofSeconds(1));
            return "v1";
        });
        Error error = new Error("reload blew up");

        assertThatThrownBy(() -> coalescer.execute("k", () -> {
            throw error;
        })).isSameAs(error);
        assertThat(coalescer.execute("k", () -> "v2")).as("the next caller refreshes early again").isEqualTo("v2");
        assertThat(coalescer.metrics().earlyRefreshes()).isEqualTo(2);
    }

    @Test
    void xfetchRefreshesWithProbabilityExpOfMinusRemainingOverDeltaBeta() {
        RandomSource random = RandomSource.seeded(42);
        long delta = 1_000_000L;
        for (double ratio : new double[] {0.5, 1.0, 2.0, 4.0}) {
            long remaining = (long) (ratio * delta);
            int refreshed = 0;
            int draws = 100_000;
            for (int i = 0; i < draws; i++) {
                if (XFetch.shouldRefresh(0L, remaining, delta, 1.0, random.nextDouble())) {
                    refreshed++;
                }
            }
            assertThat((double) refreshed / draws).isCloseTo(Math.exp(-ratio), org.assertj.core.data.Offset.offset(0.01));
            assertThat(XFetch.probability(remaining, delta, 1.0)).isCloseTo(Math.exp(-ratio), org.assertj.core.data.Offset.offset(1e-12));
        }
        assertThat(XFetch.shouldRefresh(10L, 10L, delta, 1.0, 0.0)).isTrue();
        assertThat(XFetch.shouldRefresh(0L, 10L, delta, 0.0, 0.999999)).isFalse();
    }
}
