package dev.levee.loadshed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.levee.core.Classifier;
import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.ManualTicker;
import dev.levee.core.RejectedException;
import dev.levee.core.ShedException;
import dev.levee.loadshed.limit.LatencyAimdLimit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ConcurrencyLimiterTest {
    private final ManualTicker ticker = new ManualTicker(5_000_000_000L);

    private ConcurrencyLimiter limiter(ScriptedAlgorithm algorithm) {
        return ConcurrencyLimiter.of("api", ConcurrencyLimiterConfig.builder().algorithm(() -> algorithm)
                .ticker(ticker).build());
    }

    @Test
    void admitsUpToTheLimitThenShedsWithTheReason() {
        ConcurrencyLimiter l = limiter(ScriptedAlgorithm.fixed(3));
        long now = ticker.read();
        assertThat(l.tryAcquire(now)).isTrue();
        assertThat(l.tryAcquire(now)).isTrue();
        assertThat(l.tryAcquire(now)).isTrue();
        assertThat(l.tryAcquire(now)).isFalse();
        RejectedException r = l.rejection(now);
        assertThat(r).isInstanceOf(ShedException.class);
        assertThat(((ShedException) r).reason()).isEqualTo("concurrency_limit");
        assertThat(r.kind()).isEqualTo("shed");
        assertThat(r.policyName()).isEqualTo("api");
        assertThat(r.getStackTrace()).isEmpty();
        assertThat(l.metrics()).isEqualTo(new ConcurrencyLimiterMetrics(3, 3, 0, 1, 0, 0));
        assertThat(l.metrics().utilisation()).isEqualTo(1.0);
        assertThat(l.loadSignal().load()).isEqualTo(1.0);
    }

    @Test
    void completionsFeedTheAlgorithmAndReturnTheSlot() {
        ScriptedAlgorithm a = ScriptedAlgorithm.fixed(2);
        ConcurrencyLimiter l = limiter(a);
        long start = ticker.read();
        assertThat(l.tryAcquire(start)).isTrue();
        assertThat(l.tryAcquire(start)).isTrue();
        ticker.advance(7);
        l.onSuccess(7);
        l.onFailureAt(start + 9, 9, new DeadlineExceededException("t", "late", 0));
        assertThat(a.samples).containsExactly(
                new ScriptedAlgorithm.Sample(start + 7, 7, 2, false),
                new ScriptedAlgorithm.Sample(start + 9, 9, 1, true));
        assertThat(l.inflight()).isZero();
        assertThat(l.metrics().drops()).isEqualTo(1);
        assertThat(l.metrics().samples()).isEqualTo(2);
    }

    @Test
    void ignoredOutcomesReturnTheSlotWithoutASample() {
        ScriptedAlgorithm a = ScriptedAlgorithm.fixed(2);
        ConcurrencyLimiter l = ConcurrencyLimiter.of("api", ConcurrencyLimiterConfig.builder().algorithm(() -> a)
                .classifier(Classifier.builder().ignore(IllegalArgumentException.class).build()).ticker(ticker).build());
        assertThat(l.tryAcquire(0)).isTrue();
        assertThat(l.tryAcquire(0)).isTrue();
        l.onFailure(3, new IllegalArgumentException("bad request"));
        l.onIgnored();
        assertThat(a.samples).isEmpty();
        assertThat(l.inflight()).isZero();
        // An Error is ignored by the default classifier.
        ConcurrencyLimiter d = limiter(ScriptedAlgorithm.fixed(1));
        assertThat(d.tryAcquire(0)).isTrue();
        d.onFailure(1, new StackOverflowError());
        assertThat(d.metrics().samples()).isZero();
    }

    @Test
    void resultClassifiedAsFailureIsADrop() {
        ScriptedAlgorithm a = ScriptedAlgorithm.fixed(2);
        ConcurrencyLimiter l = ConcurrencyLimiter.of("api", ConcurrencyLimiterConfig.builder().algorithm(() -> a)
                .classifier(Classifier.builder().failOnResult(r -> "503".equals(r)).build()).ticker(ticker).build());
        assertThat(l.tryAcquire(0)).isTrue();
        l.onResult(4, "503");
        assertThat(l.tryAcquire(0)).isTrue();
        l.onResult(4, "200");
        assertThat(a.samples).extracting(ScriptedAlgorithm.Sample::drop).containsExactly(true, false);
    }

    @Test
    void aReleaseWithoutAPermitThrowsAndLeavesTheCount() {
        ConcurrencyLimiter l = limiter(ScriptedAlgorithm.fixed(2));
        assertThatThrownBy(() -> l.onSuccess(1)).isInstanceOf(IllegalStateException.class);
        assertThat(l.inflight()).isZero();
        assertThat(l.tryAcquire(0)).isTrue();
        assertThat(l.tryAcquire(0)).isTrue();
        assertThat(l.tryAcquire(0)).isFalse();
    }

    @Test
    void whenTheLimitFallsNoRequestIsAdmittedUntilInflightIsBelowIt() {
        // Limit 5; the first sample moves it to 2.
        ConcurrencyLimiter l = limiter(new ScriptedAlgorithm(5, 1, 5, n -> 2, false));
        for (int i = 0; i < 5; i++) {
            assertThat(l.tryAcquire(0)).isTrue();
        }
        l.onSuccess(1);
        assertThat(l.limit()).isEqualTo(2);
        assertThat(l.inflight()).isEqualTo(4);
        assertThat(l.tryAcquire(0)).isFalse();
        l.onSuccess(1);
        l.onSuccess(1);
        assertThat(l.tryAcquire(0)).isFalse();
        l.onSuccess(1);
        assertThat(l.inflight()).isEqualTo(1);
        assertThat(l.tryAcquire(0)).isTrue();
        assertThat(l.tryAcquire(0)).isFalse();
    }

    @Test
    void eventsReportLimitChangesAndRejections() {
        ConcurrencyLimiter l = limiter(new ScriptedAlgorithm(1, 1, 5, n -> 1 + n, false));
        List<ConcurrencyLimiterEvent> events = new ArrayList<>();
        l.onEvent(events::add);
        long now = ticker.read();
        assertThat(l.tryAcquire(now)).isTrue();
        assertThat(l.tryAcquire(now)).isFalse();
        l.onSuccess(3);
        assertThat(events).containsExactly(
                new ConcurrencyLimiterEvent.Rejected("api", now, "concurrency_limit", 1, 1),
                new ConcurrencyLimiterEvent.LimitChanged("api", now, 1, 2, 0));
    }

    @Test
    void executeRunsTheCallAndRethrowsItsExceptionUnchanged() {
        ScriptedAlgorithm a = ScriptedAlgorithm.fixed(1);
        ConcurrencyLimiter l = limiter(a);
        assertThat(l.execute(() -> "ok")).isEqualTo("ok");
        IllegalStateException boom = new IllegalStateException("boom");
        assertThatThrownBy(() -> l.execute(() -> {
            throw boom;
        })).isSameAs(boom);
        assertThat(a.samples).extracting(ScriptedAlgorithm.Sample::drop).containsExactly(false, true);
        assertThat(l.inflight()).isZero();
    }

    @Test
    void executeShedsWhenFull() {
        ConcurrencyLimiter l = limiter(ScriptedAlgorithm.fixed(1));
        assertThat(l.tryAcquire(0)).isTrue();
        assertThatThrownBy(() -> l.execute(() -> "never")).isInstanceOf(ShedException.class)
                .hasMessageContaining("1 of 1");
    }

    @Test
    void defaultsAreSeed002Aimd() {
        ConcurrencyLimiter l = ConcurrencyLimiter.ofDefaults("d");
        assertThat(l.limit()).isEqualTo(LatencyAimdLimit.DEFAULT_INITIAL_LIMIT);
        assertThat(l.config()).isSameAs(ConcurrencyLimiterConfig.defaults());
        assertThat(ConcurrencyLimiter.registry(ConcurrencyLimiterConfig.defaults()).get("x").name()).isEqualTo("x");
    }

    // ------------------------------------------------------------------ waiting

    private ConcurrencyLimiter waiting(int limit, ConcurrencyLimiterConfig.WaitOrder order, int maxWaiters) {
        return ConcurrencyLimiter.of("w", ConcurrencyLimiterConfig.builder()
                .algorithm(() -> ScriptedAlgorithm.fixed(limit)).maxWait(Duration.ofSeconds(10)).waitOrder(order)
                .maxWaiters(maxWaiters).ticker(ticker).build());
    }

    @Test
    void failFastByDefault() {
        ConcurrencyLimiter l = limiter(ScriptedAlgorithm.fixed(1));
        l.acquire(0);
        assertThatThrownBy(() -> l.acquire(0)).isInstanceOf(ShedException.class);
    }

    private static List<Integer> grantOrder(ConcurrencyLimiter l) throws Exception {
        l.acquire(0);
        List<Integer> order = new CopyOnWriteArrayList<>();
        List<CompletableFuture<Void>> waiters = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int id = i;
            waiters.add(CompletableFuture.runAsync(() -> {
                l.acquire(0);
                order.add(id);
                l.onSuccess(1);
            }, r -> new Thread(r).start()));
            await().atMost(60, TimeUnit.SECONDS).until(() -> l.waiting() == id + 1);
        }
        l.onSuccess(1);
        for (CompletableFuture<Void> w : waiters) {
            w.get(60, TimeUnit.SECONDS);
        }
        return order;
    }

    @Test
    void fifoServesTheOldestWaiterFirst() throws Exception {
        assertThat(grantOrder(waiting(1, ConcurrencyLimiterConfig.WaitOrder.FIFO, 10))).containsExactly(0, 1, 2);
    }

    @Test
    void lifoServesTheNewestWaiterFirst() throws Exception {
        assertThat(grantOrder(waiting(1, ConcurrencyLimiterConfig.WaitOrder.LIFO, 10))).containsExactly(2, 1, 0);
    }

    @Test
    void waitEndsAtMaxWait() {
        ConcurrencyLimiter l = waiting(1, ConcurrencyLimiterConfig.WaitOrder.FIFO, 10);
        l.acquire(ticker.read());
        CompletableFuture<Void> w = CompletableFuture.runAsync(() -> l.acquire(ticker.read()), r -> new Thread(r).start());
        await().atMost(60, TimeUnit.SECONDS).until(() -> l.waiting() == 1);
        ticker.advance(Duration.ofSeconds(10));
        assertThatThrownBy(() -> w.get(60, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(ShedException.class);
        assertThat(l.waiting()).isZero();
        assertThat(l.inflight()).isEqualTo(1);
    }

    @Test
    void neverWaitsPastTheCurrentDeadline() {
        ConcurrencyLimiter l = waiting(1, ConcurrencyLimiterConfig.WaitOrder.FIFO, 10);
        l.acquire(ticker.read());
        try (ContextScope scope = Deadline.afterNanos(0, ticker).attach()) {
            assertThatThrownBy(() -> l.acquire(ticker.read())).isInstanceOf(ShedException.class);
        }
        assertThat(l.waiting()).isZero();
        assertThat(l.metrics().rejected()).isEqualTo(1);
    }

    @Test
    void tooManyWaitersAreRefusedAtOnce() {
        ConcurrencyLimiter l = waiting(1, ConcurrencyLimiterConfig.WaitOrder.FIFO, 1);
        l.acquire(ticker.read());
        CompletableFuture<Void> w = CompletableFuture.runAsync(() -> l.acquire(ticker.read()), r -> new Thread(r).start());
        await().atMost(60, TimeUnit.SECONDS).until(() -> l.waiting() == 1);
        assertThatThrownBy(() -> l.acquire(ticker.read())).isInstanceOf(ShedException.class);
        l.onSuccess(1);
        assertThat(w).succeedsWithin(Duration.ofSeconds(60));
        assertThat(l.inflight()).isEqualTo(1);
    }

    @Test
    void anInterruptedWaiterStopsWaitingAndKeepsItsInterruptFlag() throws Exception {
        ConcurrencyLimiter l = waiting(1, ConcurrencyLimiterConfig.WaitOrder.LIFO, 10);
        l.acquire(ticker.read());
        CompletableFuture<Boolean> flag = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                l.acquire(ticker.read());
                flag.complete(false);
            } catch (ShedException e) {
                flag.complete(Thread.currentThread().isInterrupted() && e.getMessage().contains("interrupted"));
            }
        });
        t.start();
        await().atMost(60, TimeUnit.SECONDS).until(() -> l.waiting() == 1);
        t.interrupt();
        assertThat(flag.get(60, TimeUnit.SECONDS)).isTrue();
        assertThat(l.waiting()).isZero();
        assertThat(l.inflight()).isEqualTo(1);
    }

    @Test
    void aRisingLimitWakesWaiters() throws Exception {
        // Limit 1, rising to 3 on the first sample.
        ConcurrencyLimiter l = ConcurrencyLimiter.of("w", ConcurrencyLimiterConfig.builder()
                .algorithm(() -> new ScriptedAlgorithm(1, 1, 3, n -> 3, false)).maxWait(Duration.ofSeconds(10))
                .ticker(ticker).build());
        l.acquire(0);
        CompletableFuture<Void> a = CompletableFuture.runAsync(() -> l.acquire(ticker.read()), r -> new Thread(r).start());
        CompletableFuture<Void> b = CompletableFuture.runAsync(() -> l.acquire(ticker.read()), r -> new Thread(r).start());
        await().atMost(60, TimeUnit.SECONDS).until(() -> l.waiting() == 2);
        l.onSuccess(1);
        assertThat(a).succeedsWithin(Duration.ofSeconds(60));
        assertThat(b).succeedsWithin(Duration.ofSeconds(60));
        assertThat(l.limit()).isEqualTo(3);
        assertThat(l.inflight()).isEqualTo(2);
    }

    @Test
    void insideAPipelineItReadsNoClockOfItsOwn() {
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        dev.levee.core.Ticker counting = () -> {
            reads.incrementAndGet();
            return ticker.read();
        };
        ConcurrencyLimiter l = ConcurrencyLimiter.of("p", ConcurrencyLimiterConfig.builder()
                .algorithm(() -> ScriptedAlgorithm.fixed(2)).ticker(counting).build());
        dev.levee.core.Pipeline pipeline = dev.levee.core.Pipeline.of(l);
        reads.set(0);
        assertThat(pipeline.execute(() -> "ok")).isEqualTo("ok");
        assertThat(reads.get()).as("the pipeline's two readings, none of the limiter's own").isEqualTo(2);
        assertThatThrownBy(() -> pipeline.execute(() -> {
            throw new IllegalStateException();
        })).isInstanceOf(IllegalStateException.class);
        assertThat(reads.get()).isEqualTo(4);
        assertThat(l.inflight()).isZero();
    }
}
