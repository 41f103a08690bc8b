package dev.levee.bulkhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.BulkheadFullException;
import dev.levee.core.Gate;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.core.Ticker;
import dev.levee.core.TimeNeed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A semaphore bulkhead needs no clock: no reading on the way in or out, one only when it refuses. */
class BulkheadTimeNeedTest {
    private final ManualTicker time = new ManualTicker(1_000);
    private final AtomicInteger reads = new AtomicInteger();
    private final Ticker counting = () -> {
        reads.incrementAndGet();
        return time.read();
    };

    private Bulkhead bulkhead(int limit) {
        return Bulkhead.of("b", BulkheadConfig.builder().maxConcurrentCalls(limit).ticker(counting).build());
    }

    @Test
    void needsNoTimeAndReadsNoneWhenASlotIsFree() throws Exception {
        Bulkhead b = bulkhead(2);
        assertThat(b.timeNeed()).isEqualTo(TimeNeed.NONE);
        assertThat(b.tryAcquire()).isTrue();
        b.onSuccess(b.latencySince(b.readStart()));
        assertThat(b.tryAcquire(Gate.NO_READING)).isTrue();
        b.onFailure(Gate.NO_READING, new RuntimeException());
        assertThat(b.execute(() -> "ok")).isEqualTo("ok");
        assertThat(b.executeAsync(() -> CompletableFuture.completedFuture("ok")).toCompletableFuture().join())
                .isEqualTo("ok");
        assertThat(Pipeline.of(b, bulkhead(1)).execute(() -> "ok")).isEqualTo("ok");
        assertThat(reads.get()).isZero();
        assertThat(b.activeCount()).isZero();
    }

    @Test
    void aRefusalHandedNoReadingReadsTheTickerForItsEvent() {
        Bulkhead b = bulkhead(1);
        List<BulkheadEvent> events = new ArrayList<>();
        b.onEvent(events::add);
        assertThat(b.tryAcquire()).isTrue();
        assertThat(b.tryAcquire(Gate.NO_READING)).isFalse();
        assertThat(b.tryAcquire()).isFalse();
        assertThatThrownBy(() -> b.acquire(Gate.NO_READING)).isInstanceOf(BulkheadFullException.class);
        assertThat(b.acquireAsync(Gate.NO_READING).toCompletableFuture()).isCompletedExceptionally();
        assertThat(events).hasSize(4).allSatisfy(e -> assertThat(e.tickerNanos()).isEqualTo(1_000L));
        assertThat(reads.get()).isEqualTo(4);
    }

    @Test
    void aWaitHandedNoReadingMeasuresItsWaitFromTheTicker() {
        Bulkhead b = Bulkhead.of("w", BulkheadConfig.builder().maxConcurrentCalls(1).maxWait(Duration.ofMillis(5))
                .ticker(time).scheduler(new ManualScheduler(time)).asyncExecutor(Runnable::run).build());
        assertThat(b.tryAcquire()).isTrue();
        var pending = b.acquireAsync(Gate.NO_READING).toCompletableFuture();
        assertThat(pending).isNotDone(); // waiting: the wait end was computed from a real reading
        b.onIgnored();
        assertThat(pending).isCompleted();
        b.onSuccess(Gate.NO_READING);
        assertThat(b.activeCount()).isZero();
    }
}
