package dev.levee.bulkhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.levee.core.BulkheadFullException;
import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.ManualTicker;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Waiting for a slot: maxWait, the current deadline, interrupts; on the manual ticker and real threads. */
@SuppressWarnings("try")
class BulkheadWaitTest {
    private static final Duration BOUND = Duration.ofSeconds(20);
    private final ManualTicker ticker = new ManualTicker(5_000_000_000L);

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private Bulkhead fullBulkhead(Duration maxWait) {
        Bulkhead b = Bulkhead.of("w", BulkheadConfig.builder().maxConcurrentCalls(1).maxWait(maxWait).ticker(ticker).build());
        assertThat(b.tryAcquire()).isTrue();
        return b;
    }

    /** Runs an acquire on its own thread; completes with true if admitted (and releases), else with the rejection. */
    private static CompletableFuture<Boolean> acquireOnThread(Bulkhead b, Deadline deadline, AtomicBoolean interruptFlag) {
        CompletableFuture<Boolean> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try (ContextScope ignored = deadline == null ? () -> { } : deadline.attach()) {
                b.acquire(b.ticker().read());
                b.onSuccess(0);
                result.complete(true);
            } catch (Throwable e) {
                if (interruptFlag != null) {
                    interruptFlag.set(Thread.currentThread().isInterrupted());
                }
                result.completeExceptionally(e);
            }
        }, "waiter");
        t.setDaemon(true);
        t.start();
        return result;
    }

    @Test
    void failFastByDefault() {
        Bulkhead b = fullBulkhead(Duration.ZERO);
        assertThatThrownBy(() -> b.acquire(ticker.read())).isInstanceOf(BulkheadFullException.class);
        assertThat(b.waitingCount()).isZero();
    }

    @Test
    void anExpiredDeadlineRefusesAtOnceWithoutWaiting() {
        Bulkhead b = fullBulkhead(Duration.ofHours(1));
        try (ContextScope ignored = Deadline.at(ticker.read(), ticker).attach()) {
            assertThatThrownBy(() -> b.acquire(ticker.read())).isInstanceOf(BulkheadFullException.class);
        }
        assertThat(b.rejectedCount()).isEqualTo(1);
    }

    @Test
    void aWaiterIsAdmittedWhenASlotFrees() throws Exception {
        Bulkhead b = fullBulkhead(Duration.ofHours(1));
        CompletableFuture<Boolean> admitted = acquireOnThread(b, null, null);
        await().atMost(BOUND).until(() -> b.waitingCount() == 1);
        assertThat(admitted).isNotDone();
        b.onSuccess(0);
        assertThat(admitted.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(b.waitingCount()).isZero();
        assertThat(b.availablePermits()).isEqualTo(1);
    }

    @Test
    void theWaitEndsAtMaxWaitOnTheManualTicker() throws Exception {
        Bulkhead b = fullBulkhead(Duration.ofMillis(100));
        CompletableFuture<Boolean> outcome = acquireOnThread(b, null, null);
        await().atMost(BOUND).until(() -> b.waitingCount() == 1);
        ticker.advance(Duration.ofMillis(99));
        assertThat(outcome).isNotDone();
        ticker.advance(Duration.ofMillis(1));
        assertThatThrownBy(() -> outcome.get(BOUND.toSeconds(), TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(BulkheadFullException.class)
                .hasMessageContaining("no slot freed in time");
        assertThat(b.waitingCount()).isZero();
        assertThat(b.activeCount()).isEqualTo(1);
        assertThat(b.rejectedCount()).as("the expired wait counts as a rejection").isEqualTo(1);
    }

    @Test
    void theWaitEndsAtTheCurrentDeadlineWhenThatIsSooner() throws Exception {
        Bulkhead b = fullBulkhead(Duration.ofHours(1));
        Deadline deadline = Deadline.afterNanos(Duration.ofMillis(50).toNanos(), ticker);
        CompletableFuture<Boolean> outcome = acquireOnThread(b, deadline, null);
        await().atMost(BOUND).until(() -> b.waitingCount() == 1);
        ticker.advance(Duration.ofMillis(50));
        assertThatThrownBy(() -> outcome.get(BOUND.toSeconds(), TimeUnit.SECONDS))
                .cause().isInstanceOf(BulkheadFullException.class);
    }

    @Test
    void anInterruptedWaiterIsRefusedWithItsFlagRestored() throws Exception {
        Bulkhead b = fullBulkhead(Duration.ofHours(1));
        AtomicBoolean flag = new AtomicBoolean();
        CompletableFuture<Boolean> outcome = acquireOnThread(b, null, flag);
        await().atMost(BOUND).until(() -> b.waitingCount() == 1);
        Thread waiter = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("waiter") && t.isAlive()).findFirst().orElseThrow();
        waiter.interrupt();
        assertThatThrownBy(() -> outcome.get(BOUND.toSeconds(), TimeUnit.SECONDS))
                .cause().isInstanceOf(BulkheadFullException.class)
                .hasMessageContaining("interrupted");
        assertThat(flag).isTrue();
        assertThat(b.waitingCount()).isZero();
    }

    @Test
    void anAlreadyInterruptedThreadIsRefusedAndKeepsItsFlag() {
        Bulkhead b = fullBulkhead(Duration.ofHours(1));
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> b.acquire(ticker.read())).isInstanceOf(BulkheadFullException.class)
                .hasMessageContaining("interrupted");
        assertThat(Thread.interrupted()).isTrue();
    }

    @Test
    void aFreeSlotIsTakenEvenByAnInterruptedThread() {
        Bulkhead b = Bulkhead.of("w", BulkheadConfig.builder().maxConcurrentCalls(1).maxWait(Duration.ofHours(1))
                .ticker(ticker).build());
        Thread.currentThread().interrupt();
        b.acquire(ticker.read());
        assertThat(Thread.interrupted()).isTrue();
        b.onSuccess(0);
    }

    @Test
    void realTimeWaitEndsWithARejection() {
        Bulkhead b = Bulkhead.of("real", BulkheadConfig.builder().maxConcurrentCalls(1)
                .maxWait(Duration.ofMillis(20)).build());
        assertThat(b.tryAcquire()).isTrue();
        assertThatThrownBy(() -> b.execute(() -> "never")).isInstanceOf(BulkheadFullException.class);
        assertThat(b.waitingCount()).isZero();
    }

    @Test
    void aGrowingResizeWakesWaiters() throws Exception {
        Bulkhead b = fullBulkhead(Duration.ofHours(1));
        CompletableFuture<Boolean> first = acquireOnThread(b, null, null);
        CompletableFuture<Boolean> second = acquireOnThread(b, null, null);
        await().atMost(BOUND).until(() -> b.waitingCount() == 2);
        b.resize(3);
        assertThat(first.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(second.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void anInterruptedWaiterCountsAsARejection() throws Exception {
        Bulkhead b = fullBulkhead(Duration.ofHours(1));
        CompletableFuture<Boolean> outcome = acquireOnThread(b, null, new AtomicBoolean());
        await().atMost(BOUND).until(() -> b.waitingCount() == 1);
        Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("waiter") && t.isAlive()).findFirst().orElseThrow().interrupt();
        assertThatThrownBy(() -> outcome.get(BOUND.toSeconds(), TimeUnit.SECONDS))
                .cause().isInstanceOf(BulkheadFullException.class);
        assertThat(b.rejectedCount()).isEqualTo(1);
    }

    /**
     * On the system ticker a waiter parks for its whole remaining wait: only the signal that growing the
     * limit sends can wake it before its hour is up.
     */
    @Test
    void growingTheLimitWakesASynchronousWaiterAtOnce() throws Exception {
        Bulkhead b = Bulkhead.of("grow", BulkheadConfig.builder().maxConcurrentCalls(1).maxWait(Duration.ofHours(1)).build());
        assertThat(b.tryAcquire()).isTrue();
        CompletableFuture<Boolean> admitted = acquireOnThread(b, null, null);
        await().atMost(BOUND).until(() -> b.waitingCount() == 1);
        b.resize(2);
        assertThat(admitted.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(b.activeCount()).isEqualTo(1);
    }
}
