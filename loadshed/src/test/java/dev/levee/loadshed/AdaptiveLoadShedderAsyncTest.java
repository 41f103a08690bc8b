package dev.levee.loadshed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.Gate;
import dev.levee.core.LoadSignal;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.ShedException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/**
 * {@link AdaptiveLoadShedder#acquireAsync}: a queued asynchronous caller waits for a slot without a
 * thread, bounded by {@code maxQueueDepth}, {@code maxQueueTime} and the current deadline.
 */
class AdaptiveLoadShedderAsyncTest {
    private final ManualTicker ticker = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);

    private AdaptiveLoadShedder shedder(int limit, int maxQueueDepth, Duration maxQueueTime) {
        return AdaptiveLoadShedder.of("async", AdaptiveLoadShedderConfig.builder().maxConcurrent(limit)
                .maxQueueDepth(maxQueueDepth).maxQueueTime(maxQueueTime).cpu(LoadSignal.constant(0.0))
                .memory(LoadSignal.constant(0.0)).priorityThreshold(1.0).ticker(ticker).scheduler(scheduler)
                .asyncExecutor(Runnable::run).build());
    }

    private static String refusalReason(CompletionStage<Void> stage) {
        CompletableFuture<Void> f = stage.toCompletableFuture();
        assertThat(f).isCompletedExceptionally();
        return f.handle((v, e) -> ((ShedException) e).reason()).join();
    }

    @Test
    void aQueuedCallerIsGrantedTheSlotACompletionFrees() {
        AdaptiveLoadShedder s = shedder(1, 5, Duration.ofSeconds(1));
        assertThat((Object) s.acquireAsync(ticker.read())).isSameAs(Gate.granted());
        CompletableFuture<Void> w = s.acquireAsync(ticker.read()).toCompletableFuture();
        assertThat(w).isNotDone();
        assertThat(s.waitingCount()).isEqualTo(1);
        s.onSuccess(1);
        assertThat(w).isCompleted();
        assertThat(s.inFlight()).isEqualTo(1);
        assertThat(s.waitingCount()).isZero();
        assertThat(scheduler.pending()).isZero();
    }

    @Test
    void theWaitEndsWithQueueTimeout() {
        AdaptiveLoadShedder s = shedder(1, 5, Duration.ofMillis(100));
        s.acquireAsync(ticker.read());
        CompletionStage<Void> w = s.acquireAsync(ticker.read());
        scheduler.advance(Duration.ofMillis(100));
        assertThat(refusalReason(w)).isEqualTo("queue_timeout");
        assertThat(s.waitingCount()).isZero();
        assertThat(s.shedCount(ShedDecision.QUEUE_TIMEOUT)).isEqualTo(1);
        s.onSuccess(1);
        assertThat(s.inFlight()).isZero();
    }

    @Test
    void aNearerDeadlineEndsTheWaitWithDeadline() {
        AdaptiveLoadShedder s = shedder(1, 5, Duration.ofSeconds(5));
        s.acquireAsync(ticker.read());
        CompletionStage<Void> w;
        try (ContextScope scope = Deadline.afterNanos(10_000_000L, ticker).attach()) {
            w = s.acquireAsync(ticker.read());
        }
        scheduler.advance(Duration.ofMillis(10));
        assertThat(refusalReason(w)).isEqualTo("deadline");
    }

    @Test
    void atMostMaxQueueDepthWaitAndTheNextIsRefusedAtOnce() {
        AdaptiveLoadShedder s = shedder(1, 1, Duration.ofSeconds(1));
        s.acquireAsync(ticker.read());
        CompletionStage<Void> waiting = s.acquireAsync(ticker.read());
        assertThat(refusalReason(s.acquireAsync(ticker.read()))).isEqualTo("queue_full");
        s.onIgnored();
        assertThat(waiting.toCompletableFuture()).isCompleted();
    }

    @Test
    void withoutQueueTimeAQueuedCallerIsRefusedAtOnce() {
        AdaptiveLoadShedder s = shedder(1, 5, Duration.ZERO);
        s.acquireAsync(ticker.read());
        assertThat(refusalReason(s.acquireAsync(ticker.read()))).isEqualTo("queue_timeout");
        assertThat(s.waitingCount()).isZero();
    }

    @Test
    void executeAsyncWaitsInsteadOfBeingRefused() {
        AdaptiveLoadShedder s = shedder(1, 5, Duration.ofSeconds(1));
        CompletableFuture<String> first = new CompletableFuture<>();
        CompletionStage<String> a = s.executeAsync(() -> first);
        CompletionStage<String> b = s.executeAsync(() -> CompletableFuture.completedFuture("b"));
        assertThat(b.toCompletableFuture()).isNotDone();
        first.complete("a");
        assertThat(a.toCompletableFuture()).isCompletedWithValue("a");
        assertThat(b.toCompletableFuture()).isCompletedWithValue("b");
        assertThat(s.inFlight()).isZero();
    }
}
