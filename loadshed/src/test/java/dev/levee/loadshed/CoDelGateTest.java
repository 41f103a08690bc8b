package dev.levee.loadshed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.Gate;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import dev.levee.core.RejectedException;
import dev.levee.core.ShedException;
import dev.levee.core.Ticker;
import dev.levee.loadshed.queue.CoDelQueueConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

@SuppressWarnings("try") // scopes opened only for their effect on the current thread
class CoDelGateTest {

    /** A counting semaphore gate that records the most permits ever out. */
    static class Slots implements Gate {
        final Ticker ticker;
        final int limit;
        final AtomicInteger out = new AtomicInteger();
        final AtomicInteger max = new AtomicInteger();

        Slots(Ticker ticker, int limit) {
            this.ticker = ticker;
            this.limit = limit;
        }

        @Override
        public String name() {
            return "slots";
        }

        @Override
        public Ticker ticker() {
            return ticker;
        }

        @Override
        public boolean tryAcquire(long nowNanos) {
            while (true) {
                int n = out.get();
                if (n >= limit) {
                    return false;
                }
                if (out.compareAndSet(n, n + 1)) {
                    max.accumulateAndGet(n + 1, Math::max);
                    return true;
                }
            }
        }

        @Override
        public RejectedException rejection(long nowNanos) {
            return new ShedException("slots", "full", 0);
        }

        @Override
        public void onSuccess(long latencyNanos) {
            out.decrementAndGet();
        }

        @Override
        public void onFailure(long latencyNanos, Throwable error) {
            out.decrementAndGet();
        }

        @Override
        public void onIgnored() {
            out.decrementAndGet();
        }
    }

    private final ManualTicker ticker = new ManualTicker();

    private CoDelGate gate(Slots slots, int maxWaiters, boolean lifo) {
        return CoDelGate.of("g", CoDelQueueConfig.builder().maxSize(maxWaiters).adaptiveLifo(lifo).build(),
                Duration.ofHours(1), slots);
    }

    private Thread waiter(CoDelGate g, ConcurrentLinkedQueue<String> results) {
        Thread t = new Thread(() -> {
            try {
                g.acquire(ticker.read());
                results.add("granted");
            } catch (ShedException e) {
                results.add(e.reason());
            }
        });
        t.start();
        return t;
    }

    @Test
    void directWhenFreeAndTryAcquireNeverWaits() {
        Slots slots = new Slots(ticker, 1);
        CoDelGate g = gate(slots, 10, true);
        assertThat(g.tryAcquire()).isTrue();
        assertThat(g.tryAcquire()).isFalse();
        assertThat(((ShedException) g.rejection(0)).reason()).isEqualTo("concurrency_limit");
        g.onSuccess(1);
        assertThat(slots.out.get()).isZero();
        assertThat(g.inFlight()).isZero();
    }

    /** A second completion is refused before it reaches the inner gate, whose count it would lower. */
    @Test
    void aSecondCompletionIsRefusedWithoutTouchingTheInnerGate() {
        Slots slots = new Slots(ticker, 2);
        CoDelGate g = gate(slots, 10, true);
        assertThat(g.tryAcquire()).isTrue();
        assertThat(g.tryAcquire()).isTrue();
        g.onSuccess(1);
        g.onSuccess(1);
        for (Runnable misuse : new Runnable[] {() -> g.onSuccess(1), () -> g.onFailure(1, new RuntimeException()),
                () -> g.onIgnored(), () -> g.onResult(1, "r"), () -> g.onResultAt(2, 1, "r"),
                () -> g.onFailureAt(2, 1, new RuntimeException()), () -> g.onIgnoredAt(0)}) {
            assertThatThrownBy(misuse::run).isInstanceOf(IllegalStateException.class);
        }
        assertThat(slots.out.get()).as("the inner gate's count").isZero();
        assertThat(g.inFlight()).isZero();
    }

    /** An inner completion that throws still returns this gate's permit and serves the waiters. */
    @Test
    void aThrowingInnerCompletionStillServesTheWaiters() throws Exception {
        Slots slots = new Slots(ticker, 1) {
            @Override
            public void onFailure(long latencyNanos, Throwable error) {
                out.decrementAndGet(); // the permit goes back, then the inner gate's own rule throws
                throw new IllegalArgumentException("a classifier that throws");
            }
        };
        CoDelGate g = gate(slots, 10, true);
        assertThat(g.tryAcquire()).isTrue();
        ConcurrentLinkedQueue<String> results = new ConcurrentLinkedQueue<>();
        Thread t = waiter(g, results);
        await().atMost(Duration.ofSeconds(60)).until(() -> g.waitingCount() == 1);
        assertThatThrownBy(() -> g.onFailure(1, new RuntimeException("the call's failure")))
                .isInstanceOf(IllegalArgumentException.class);
        t.join(60_000);
        assertThat(results).containsExactly("granted");
        assertThat(g.inFlight()).isEqualTo(1);
        assertThat(slots.out.get()).isEqualTo(1);
    }

    /** Waiting time is the sojourn: the seed's schedule drops the oldest waiter at the first drop time. */
    @Test
    void dropsTheOldestWaiterOnTheSeedSchedule() throws Exception {
        Slots slots = new Slots(ticker, 1);
        CoDelGate g = gate(slots, 100, false);
        assertThat(g.tryAcquire()).isTrue();
        ConcurrentLinkedQueue<String> results = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            threads.add(waiter(g, results));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> g.waitingCount() == 6);
        ticker.advance(Duration.ofMillis(10));    // head waited 10 ms: above target, first_above = +100 ms
        g.onSuccess(1);
        await().atMost(Duration.ofSeconds(30)).until(() -> results.size() == 1);
        ticker.advance(Duration.ofMillis(100));   // enter dropping
        g.onSuccess(1);
        await().atMost(Duration.ofSeconds(30)).until(() -> results.size() == 2);
        assertThat(g.isDropping()).isTrue();
        assertThat(g.decide(5, ticker.read())).isEqualTo(ShedDecision.CODEL);
        ticker.advance(Duration.ofMillis(100));   // drop_next: one granted, the oldest remaining dropped
        g.onSuccess(1);
        await().atMost(Duration.ofSeconds(30)).until(() -> results.size() == 4);
        assertThat(results).containsExactlyInAnyOrder("granted", "granted", "granted", "codel");
        assertThat(g.shedCount(ShedDecision.CODEL)).isEqualTo(1);
        assertThat(slots.out.get()).isEqualTo(1);
        // free the rest
        g.onSuccess(1);
        await().atMost(Duration.ofSeconds(30)).until(() -> results.size() == 5);
        g.onSuccess(1);
        for (Thread t : threads) {
            t.join(30_000);
            assertThat(t.isAlive()).isFalse();
        }
        g.onSuccess(1);
        assertThat(slots.out.get()).isZero();
    }

    @Test
    void queueFullAndDeadline() {
        Slots slots = new Slots(ticker, 1);
        CoDelGate none = gate(slots, 1, true);
        none.tryAcquire();
        try (ContextScope s = Deadline.afterNanos(0, ticker).attach()) {
            assertThatThrownBy(() -> none.acquire(ticker.read())).isInstanceOfSatisfying(ShedException.class,
                    e -> assertThat(e.reason()).isEqualTo("deadline"));
        }
        assertThat(none.waitingCount()).isZero();
        CoDelGate noWait = CoDelGate.of("g", CoDelQueueConfig.defaults(), Duration.ZERO, slots);
        assertThatThrownBy(() -> noWait.acquire(ticker.read())).isInstanceOfSatisfying(ShedException.class,
                e -> assertThat(e.reason()).isEqualTo("queue_timeout"));
    }

    @Test
    void sixteenThreadsNeverExceedTheInnerLimitAndAllEnd() throws Exception {
        Slots slots = new Slots(Ticker.system(), 4);
        CoDelGate g = CoDelGate.of("g", CoDelQueueConfig.builder().maxSize(8).build(), Duration.ofSeconds(5), slots);
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger done = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 16; t++) {
            threads.add(new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < 2_000; i++) {
                        try {
                            g.acquire(g.ticker().read());
                            g.onSuccess(1);
                            done.incrementAndGet();
                        } catch (ShedException e) {
                            done.incrementAndGet();
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
        assertThat(done.get()).isEqualTo(16 * 2_000);
        assertThat(slots.max.get()).isLessThanOrEqualTo(4);
        assertThat(slots.out.get()).isZero();
        assertThat(g.inFlight()).isZero();
        assertThat(g.waitingCount()).isZero();
    }

    @Test
    void bounds() {
        Slots slots = new Slots(ticker, 1);
        assertThatThrownBy(() -> CoDelGate.of("g", CoDelQueueConfig.defaults(), Duration.ofHours(2), slots))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("maxWait");
        assertThatThrownBy(() -> CoDelGate.of("g", CoDelQueueConfig.defaults(), Duration.ofSeconds(1), null))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("inner");
    }
}
