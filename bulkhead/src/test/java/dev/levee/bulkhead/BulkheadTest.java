package dev.levee.bulkhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.BulkheadFullException;
import dev.levee.core.Gate;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.core.PolicyRegistry;
import dev.levee.core.RejectedException;
import dev.levee.core.Ticker;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

class BulkheadTest {
    private final ManualTicker ticker = new ManualTicker(1_000_000_000L);

    private Bulkhead bulkhead(int max) {
        return Bulkhead.of("db", BulkheadConfig.builder().maxConcurrentCalls(max).ticker(ticker).build());
    }

    @Test
    void admitsUpToTheLimitThenRefuses() {
        Bulkhead b = bulkhead(2);
        assertThat(b.tryAcquire()).isTrue();
        assertThat(b.tryAcquire()).isTrue();
        assertThat(b.tryAcquire()).isFalse();
        assertThat(b.activeCount()).isEqualTo(2);
        assertThat(b.availablePermits()).isZero();
        assertThat(b.rejectedCount()).isEqualTo(1);
        b.onSuccess(0);
        assertThat(b.availablePermits()).isEqualTo(1);
        assertThat(b.tryAcquire()).isTrue();
        b.onFailure(0, new IOException());
        b.onIgnored();
        assertThat(b.activeCount()).isZero();
        assertThat(b.availablePermits()).isEqualTo(2);
    }

    @Test
    void everyCompletionReturnsTheSlot() {
        Bulkhead b = bulkhead(1);
        for (int i = 0; i < 4; i++) {
            assertThat(b.tryAcquire(ticker.read())).isTrue();
            switch (i) {
                case 0: b.onSuccess(1); break;
                case 1: b.onFailure(1, new RuntimeException()); break;
                case 2: b.onIgnored(); break;
                default: b.onResult(1, "x");
            }
            assertThat(b.availablePermits()).isEqualTo(1);
        }
    }

    @Test
    void returningAPermitNeverTakenIsAnError() {
        Bulkhead b = bulkhead(1);
        assertThatThrownBy(() -> b.onSuccess(0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("never acquired");
        assertThat(b.activeCount()).isZero();
        assertThat(b.tryAcquire()).isTrue();
    }

    @Test
    void rejectionIsTheCoreBulkheadFullRejection() {
        Bulkhead b = bulkhead(1);
        b.tryAcquire();
        assertThatThrownBy(() -> b.execute(() -> "never"))
                .isInstanceOf(BulkheadFullException.class)
                .hasMessage("Bulkhead 'db' is full: 1 of 1 calls in flight")
                .satisfies(e -> {
                    RejectedException r = (RejectedException) e;
                    assertThat(r.policyName()).isEqualTo("db");
                    assertThat(r.kind()).isEqualTo("bulkhead_full");
                    assertThat(r.getStackTrace()).isEmpty();
                });
    }

    @Test
    void exceptionsComeOutUnchangedAndReleaseTheSlot() {
        Bulkhead b = bulkhead(1);
        IOException checked = new IOException("boom");
        assertThatThrownBy(() -> b.execute(() -> {
            throw checked;
        })).isSameAs(checked);
        OutOfMemoryError error = new OutOfMemoryError("test");
        assertThatThrownBy(() -> b.execute(() -> {
            throw error;
        })).isSameAs(error);
        assertThat(b.availablePermits()).isEqualTo(1);
        assertThat(b.execute(() -> 42)).isEqualTo(42);
        assertThat(b.availablePermits()).isEqualTo(1);
    }

    @Test
    void asyncCallsHoldTheSlotUntilTheStageCompletes() {
        Bulkhead b = bulkhead(1);
        CompletableFuture<String> pending = new CompletableFuture<>();
        CompletionStage<String> stage = b.executeAsync(() -> pending);
        assertThat(b.activeCount()).isEqualTo(1);
        CompletionStage<String> refused = b.executeAsync(() -> CompletableFuture.completedFuture("x"));
        assertThatThrownBy(() -> refused.toCompletableFuture().join()).hasCauseInstanceOf(BulkheadFullException.class);
        pending.complete("done");
        assertThat(stage.toCompletableFuture().join()).isEqualTo("done");
        assertThat(b.activeCount()).isZero();
    }

    @Test
    void fusesInAPipelineAndIsReleasedWhenALaterGateRefuses() {
        Bulkhead b = bulkhead(1);
        Bulkhead full = bulkhead(1);
        full.tryAcquire();
        Pipeline pipeline = Pipeline.of(b, full);
        assertThatThrownBy(() -> pipeline.execute(() -> "x")).isInstanceOf(BulkheadFullException.class);
        assertThat(b.activeCount()).isZero();
        full.onSuccess(0);
        assertThat(pipeline.execute(() -> "y")).isEqualTo("y");
        assertThat(b.activeCount()).isZero();
        assertThat(full.activeCount()).isZero();
    }

    @Test
    void resizeGrowsAndShrinksAtRunTime() {
        Bulkhead b = bulkhead(2);
        List<BulkheadEvent> events = new ArrayList<>();
        b.onEvent(events::add);
        b.tryAcquire();
        b.tryAcquire();
        b.resize(1);
        assertThat(b.maxConcurrentCalls()).isEqualTo(1);
        assertThat(b.availablePermits()).isZero();
        b.onSuccess(0);
        assertThat(b.tryAcquire()).as("still one inside, the new limit").isFalse();
        b.onSuccess(0);
        assertThat(b.tryAcquire()).isTrue();
        b.resize(3);
        assertThat(b.tryAcquire()).isTrue();
        assertThat(b.tryAcquire()).isTrue();
        assertThat(b.tryAcquire()).isFalse();
        assertThat(events).hasAtLeastOneElementOfType(BulkheadEvent.Resized.class);
        assertThatThrownBy(() -> b.resize(0)).isInstanceOf(InvalidConfigException.class)
                .hasMessage("Bulkhead 'db': maxConcurrentCalls must be in [1, 1000000] but was 0");
    }

    @Test
    void publishesRejectionEventsOnlyToListeners() {
        Bulkhead b = bulkhead(1);
        List<BulkheadEvent> events = new ArrayList<>();
        var subscription = b.onEvent(events::add);
        b.tryAcquire();
        b.tryAcquire();
        assertThat(events).singleElement().isInstanceOfSatisfying(BulkheadEvent.Rejected.class, e -> {
            assertThat(e.policyName()).isEqualTo("db");
            assertThat(e.tickerNanos()).isEqualTo(ticker.read());
            assertThat(e.active()).isEqualTo(1);
            assertThat(e.limit()).isEqualTo(1);
        });
        subscription.close();
        b.tryAcquire();
        assertThat(events).hasSize(1);
    }

    @Test
    void warnsOncePerEpisodeWhenSaturatedLongerThanConfigured() {
        Bulkhead b = Bulkhead.of("db", BulkheadConfig.builder().maxConcurrentCalls(1)
                .saturationWarning(Duration.ofSeconds(5)).ticker(ticker).build());
        List<BulkheadEvent> saturated = new ArrayList<>();
        b.onEvent(e -> {
            if (e instanceof BulkheadEvent.Saturated) {
                saturated.add(e);
            }
        });
        b.tryAcquire();
        b.tryAcquire(); // episode starts
        ticker.advance(Duration.ofSeconds(4));
        b.tryAcquire();
        assertThat(saturated).isEmpty();
        ticker.advance(Duration.ofSeconds(1));
        b.tryAcquire();
        b.tryAcquire();
        assertThat(saturated).hasSize(1);
        assertThat(b.isSaturationReported()).isTrue();
        // A call entering with a slot to spare ends the episode.
        b.resize(2);
        b.onSuccess(0);
        assertThat(b.tryAcquire()).isTrue();
        assertThat(b.isSaturationReported()).isFalse();
        b.tryAcquire();
        b.tryAcquire(); // new episode
        ticker.advance(Duration.ofSeconds(5));
        b.tryAcquire();
        assertThat(saturated).hasSize(2);
    }

    @Test
    void aWaiterIsAdmittedWhenTheSlotFreesInFairAndUnfairMode() throws Exception {
        Bulkhead b = Bulkhead.of("fair", BulkheadConfig.builder().maxConcurrentCalls(1).fair(true)
                .maxWait(Duration.ofMinutes(1)).build());
        Bulkhead unfair = Bulkhead.of("unfair", BulkheadConfig.builder().maxConcurrentCalls(1)
                .maxWait(Duration.ofMinutes(1)).build());
        for (Bulkhead x : List.of(b, unfair)) {
            assertThat(x.tryAcquire()).isTrue();
            Thread waiter = new Thread(() -> {
                x.acquire(x.ticker().read());
                x.onSuccess(0);
            });
            waiter.start();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> x.waitingCount() == 1);
            x.onSuccess(0);
            waiter.join(60_000);
            assertThat(waiter.isAlive()).isFalse();
        }
        assertThat(b.availablePermits()).isEqualTo(1);
        assertThat(unfair.availablePermits()).isEqualTo(1);
    }

    @Test
    void fairModeRefusesAFreeSlotToNewArrivalsWhileSomeoneWaits() throws Exception {
        Bulkhead fair = Bulkhead.of("fair", BulkheadConfig.builder().maxConcurrentCalls(2).fair(true)
                .ticker(ticker).build());
        Bulkhead unfair = bulkhead(2);
        // White-box: pretend a waiter is queued while a slot is free, the moment fairness is about.
        java.lang.reflect.Field waiters = Bulkhead.class.getDeclaredField("waiters");
        waiters.setAccessible(true);
        waiters.setInt(fair, 1);
        waiters.setInt(unfair, 1);
        assertThat(fair.tryAcquire()).isFalse();
        assertThat(unfair.tryAcquire()).isTrue();
        waiters.setInt(fair, 0);
        assertThat(fair.tryAcquire()).isTrue();
        fair.onSuccess(0);
        unfair.onSuccess(0);
    }

    @Test
    void eventsCarryTheConfiguredTickersTime() {
        Bulkhead b = bulkhead(1);
        List<BulkheadEvent> events = new ArrayList<>();
        b.onEvent(events::add);
        b.tryAcquire();
        ticker.advance(123);
        b.tryAcquire(ticker.read());
        assertThat(events).singleElement().extracting(BulkheadEvent::tickerNanos).isEqualTo(1_000_000_123L);
    }

    @Test
    void registryCreatesOneBulkheadPerName() {
        PolicyRegistry<BulkheadConfig, Bulkhead> registry =
                Bulkhead.registry(BulkheadConfig.builder().maxConcurrentCalls(7).build());
        Bulkhead a = registry.get("a");
        assertThat(a.name()).isEqualTo("a");
        assertThat(a.maxConcurrentCalls()).isEqualTo(7);
        assertThat(registry.get("a")).isSameAs(a);
        assertThat(Bulkhead.of("x", 3).ticker()).isSameAs(Ticker.system());
        assertThat((Gate) a).isInstanceOf(Gate.class);
    }
}
