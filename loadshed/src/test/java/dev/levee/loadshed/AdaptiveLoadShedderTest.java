package dev.levee.loadshed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.LoadSignal;
import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.core.ShedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

@SuppressWarnings("try") // scopes opened only for their effect on the current thread
class AdaptiveLoadShedderTest {
    private final ManualTicker ticker = new ManualTicker();
    private final double[] cpu = {0.1};
    private final double[] memory = {0.1};
    private final int[] limit = {10};

    private AdaptiveLoadShedder shedder(int queueDepth) {
        return AdaptiveLoadShedder.of("api", AdaptiveLoadShedderConfig.builder().ticker(ticker)
                .limit(() -> limit[0]).cpu(() -> cpu[0]).memory(() -> memory[0]).maxQueueDepth(queueDepth)
                .maxQueueTime(Duration.ofMillis(50)).build());
    }

    private static void take(AdaptiveLoadShedder s, int n) {
        try (ContextScope c = RequestPriority.attach(10)) {
            for (int i = 0; i < n; i++) {
                assertThat(s.tryAcquire()).isTrue();
            }
        }
    }

    @Test
    void defaultsAreSeed002() {
        AdaptiveLoadShedderConfig d = AdaptiveLoadShedderConfig.builder().cpu(LoadSignal.constant(0)).memory(LoadSignal.constant(0)).build();
        assertThat(d.maxConcurrent()).isEqualTo(100);
        assertThat(d.limit().getAsInt()).isEqualTo(100);
        assertThat(d.maxQueueDepth()).isEqualTo(50);
        assertThat(d.maxQueueTime()).isEqualTo(Duration.ofSeconds(5));
        assertThat(d.cpuThreshold()).isEqualTo(0.85);
        assertThat(d.memoryThreshold()).isEqualTo(0.90);
        assertThat(d.priorityThreshold()).isEqualTo(0.8);
        assertThat(d.highPriorityLevel()).isEqualTo(7);
    }

    /** The seed's order: concurrency, then queue, CPU, memory, priority, admitted; each rule masks the later ones. */
    @Test
    void decisionFollowsTheSeedOrder() {
        AdaptiveLoadShedder s = shedder(1);
        long now = ticker.read();
        assertThat(s.decide(5, now)).isEqualTo(ShedDecision.ADMITTED);
        memory[0] = 0.91;
        assertThat(s.decide(5, now)).isEqualTo(ShedDecision.MEMORY_HIGH);
        memory[0] = 0.90;                       // not above
        assertThat(s.decide(5, now)).isEqualTo(ShedDecision.ADMITTED);
        memory[0] = 0.95;
        cpu[0] = 0.86;
        assertThat(s.decide(10, now)).isEqualTo(ShedDecision.CPU_HIGH);   // cpu before memory
        assertThat(s.explain(ShedDecision.CPU_HIGH)).isEqualTo("cpu_high:0.86");
        assertThat(s.explain(ShedDecision.MEMORY_HIGH)).isEqualTo("memory_high:0.95");
        cpu[0] = 0.1;
        memory[0] = 0.1;
        take(s, 8);                             // 8 of 10: not above 0.8 x limit
        assertThat(s.decide(5, now)).isEqualTo(ShedDecision.ADMITTED);
        take(s, 1);                             // 9 > 8
        assertThat(s.decide(6, now)).isEqualTo(ShedDecision.LOW_PRIORITY_SHED);
        assertThat(s.decide(7, now)).isEqualTo(ShedDecision.ADMITTED);
        cpu[0] = 0.99;
        assertThat(s.decide(6, now)).isEqualTo(ShedDecision.CPU_HIGH);   // cpu before priority
        take(s, 0);
        cpu[0] = 0.1;
        try (ContextScope c = RequestPriority.attach(10)) {
            assertThat(s.tryAcquire()).isTrue(); // 10 = limit
        }
        cpu[0] = 0.99;
        assertThat(s.decide(10, now)).isEqualTo(ShedDecision.QUEUED);    // concurrency before cpu
        assertThat(s.limit()).isEqualTo(10);
        assertThat(s.inFlight()).isEqualTo(10);
    }

    @Test
    void tryAcquireRefusesQueuedAsConcurrencyLimitWithReasonAndHint() {
        AdaptiveLoadShedder s = shedder(5);
        take(s, 10);
        assertThat(s.tryAcquire()).isFalse();
        ShedException e = (ShedException) s.rejection(ticker.read());
        assertThat(e.reason()).isEqualTo("concurrency_limit");
        assertThat(e.retryAfterSeconds()).isEqualTo(5);
        ShedResponse r = ShedResponse.of(e);
        assertThat(r.status()).isEqualTo(503);
        assertThat(r.headers()).containsEntry("Retry-After", "5").containsEntry("X-Shed-Reason", "concurrency_limit");
        assertThat(ShedResponse.of(ShedDecision.CPU_HIGH, Duration.ofMillis(1500)).headers())
                .containsEntry("Retry-After", "2").containsEntry("X-Shed-Reason", "cpu_high");
        assertThat(s.rejectionFor(ShedDecision.CPU_HIGH).reason()).isEqualTo("cpu_high");
    }

    @Test
    void queueFullWhenMaxQueueDepthCallersWait() throws Exception {
        AdaptiveLoadShedder s = shedder(0);
        take(s, 10);
        assertThat(s.decide(10, ticker.read())).isEqualTo(ShedDecision.QUEUE_FULL);
        assertThatThrownBy(() -> s.acquire(ticker.read())).isInstanceOfSatisfying(ShedException.class,
                e -> assertThat(e.reason()).isEqualTo("queue_full"));
        assertThat(s.shedCount(ShedDecision.QUEUE_FULL)).isEqualTo(1);
    }

    @Test
    void aQueuedCallerGetsTheNextFreedSlot() throws Exception {
        AdaptiveLoadShedder s = AdaptiveLoadShedder.of("api", AdaptiveLoadShedderConfig.builder()
                .limit(() -> 1).cpu(() -> 0).memory(() -> 0).maxQueueTime(Duration.ofMinutes(1)).build());
        take(s, 1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch admitted = new CountDownLatch(1);
        Thread waiter = new Thread(() -> {
            try {
                s.acquire(s.ticker().read());
                admitted.countDown();
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        waiter.start();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> s.waitingCount() == 1);
        assertThat(s.decide(10, 0)).isEqualTo(ShedDecision.QUEUED);
        s.onSuccess(1);
        waiter.join(30_000);
        assertThat(failure.get()).isNull();
        assertThat(admitted.getCount()).isZero();
        assertThat(s.inFlight()).isEqualTo(1);
        assertThat(s.waitingCount()).isZero();
    }

    @Test
    void aQueuedCallerNeverWaitsPastItsDeadline() {
        AdaptiveLoadShedder s = shedder(5);
        take(s, 10);
        try (ContextScope c = Deadline.afterNanos(0, ticker).attach()) {
            assertThatThrownBy(() -> s.acquire(ticker.read())).isInstanceOfSatisfying(ShedException.class,
                    e -> assertThat(e.reason()).isEqualTo("deadline"));
        }
        assertThat(s.waitingCount()).isZero();
    }

    @Test
    void anInterruptedWaiterIsRefusedAndKeepsItsFlag() {
        AdaptiveLoadShedder s = AdaptiveLoadShedder.of("api", AdaptiveLoadShedderConfig.builder()
                .limit(() -> 1).cpu(() -> 0).memory(() -> 0).maxQueueTime(Duration.ofMinutes(1)).build());
        take(s, 1);
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> s.acquire(s.ticker().read())).isInstanceOf(ShedException.class);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void inAPipelineAShedCallIsRejectedAndTheUserCallNeverRuns() {
        AdaptiveLoadShedder s = shedder(0);
        cpu[0] = 0.95;
        AtomicInteger ran = new AtomicInteger();
        assertThatThrownBy(() -> Pipeline.of(s).execute(ran::incrementAndGet)).isInstanceOfSatisfying(ShedException.class,
                e -> assertThat(e.reason()).isEqualTo("cpu_high"));
        assertThat(ran.get()).isZero();
        cpu[0] = 0.1;
        try (ContextScope c = RequestPriority.attach(8)) {
            assertThat(Pipeline.of(s).execute(ran::incrementAndGet)).isEqualTo(1);
        }
        assertThat(s.inFlight()).isZero();
        assertThat(s.metrics().shedByReason()).containsEntry("cpu_high", 1L);
    }

    /** 16 threads hammering a limit of 8: in flight never exceeds it, and every permit comes back. */
    @Test
    void sixteenThreadsNeverExceedTheLimit() throws Exception {
        AdaptiveLoadShedder s = AdaptiveLoadShedder.of("api", AdaptiveLoadShedderConfig.builder()
                .limit(() -> 8).cpu(() -> 0).memory(() -> 0).maxQueueDepth(4).maxQueueTime(Duration.ofMillis(1)).build());
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxInside = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 16; t++) {
            threads.add(new Thread(() -> {
                try (ContextScope c = RequestPriority.attach(9)) {
                    start.await();
                    for (int i = 0; i < 20_000; i++) {
                        boolean got;
                        if (i % 50 == 0) {
                            try {
                                s.acquire(s.ticker().read());
                                got = true;
                            } catch (ShedException e) {
                                got = false;
                            }
                        } else {
                            got = s.tryAcquire();
                        }
                        if (got) {
                            maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            inside.decrementAndGet();
                            s.onSuccess(1);
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        threads.forEach(Thread::start);
        start.countDown();
        for (Thread t : threads) {
            t.join(120_000);
            assertThat(t.isAlive()).isFalse();
        }
        assertThat(maxInside.get()).isLessThanOrEqualTo(8);
        assertThat(s.inFlight()).isZero();
        assertThat(s.waitingCount()).isZero();
        assertThat(s.admittedCount() + s.shedCount()).isEqualTo(16L * 20_000);
    }

    @Test
    void configBounds() {
        assertThatThrownBy(() -> AdaptiveLoadShedderConfig.builder().maxConcurrent(0).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("maxConcurrent");
        assertThatThrownBy(() -> AdaptiveLoadShedderConfig.builder().maxQueueDepth(-1).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("maxQueueDepth");
        assertThatThrownBy(() -> AdaptiveLoadShedderConfig.builder().maxQueueTime(Duration.ofHours(2)).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("maxQueueTime");
        assertThatThrownBy(() -> AdaptiveLoadShedderConfig.builder().cpuThreshold(85).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("percent");
        assertThatThrownBy(() -> AdaptiveLoadShedderConfig.builder().memoryThreshold(-0.1).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("memoryThreshold");
        assertThatThrownBy(() -> AdaptiveLoadShedderConfig.builder().priorityThreshold(1.5).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("priorityThreshold");
        assertThatThrownBy(() -> AdaptiveLoadShedderConfig.builder().highPriorityLevel(11).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("highPriorityLevel");
        assertThatThrownBy(() -> AdaptiveLoadShedderConfig.builder().retryAfter(Duration.ofSeconds(-1)).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("retryAfter");
        assertThatThrownBy(() -> AdaptiveLoadShedderConfig.builder().ticker(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("ticker");
        assertThatThrownBy(() -> AdaptiveLoadShedderConfig.builder().scheduler(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("scheduler");
        assertThatThrownBy(() -> AdaptiveLoadShedderConfig.builder().asyncExecutor(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("asyncExecutor");
        java.util.concurrent.Executor direct = Runnable::run;
        AdaptiveLoadShedderConfig c = AdaptiveLoadShedderConfig.builder().cpu(() -> 0).memory(() -> 0).maxConcurrent(7)
                .asyncExecutor(direct).build();
        assertThat(c.toBuilder().build().maxConcurrent()).isEqualTo(7);
        assertThat(c.toBuilder().build().asyncExecutor()).isSameAs(direct);
    }
}
