package dev.levee.bulkhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ManualTicker;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The keyed bulkhead's clean-up, its config accessors, and which rejections it retries. */
class KeyedBulkheadPathsTest {
    private final ManualTicker ticker = new ManualTicker();
    private final BulkheadConfig perKey = BulkheadConfig.builder().maxConcurrentCalls(2).ticker(ticker).build();

    @Test
    void cleanUpDropsDrainedBulkheadsAndKeepsTheirRejectionsInTheTotal() {
        KeyedBulkhead<String> keyed = KeyedBulkhead.of("k", KeyedBulkheadConfig.builder().perKey(perKey).maxEntries(1).build());
        Bulkhead a = keyed.forKey("a");
        a.tryAcquire();
        a.tryAcquire();
        assertThat(a.tryAcquire()).isFalse();          // one rejection
        keyed.forKey("b");                             // evicts "a" with two calls inside: set aside
        assertThat(keyed.drainingCount()).isEqualTo(1);
        keyed.cleanUp();
        assertThat(keyed.drainingCount()).as("still busy: kept").isEqualTo(1);
        assertThat(keyed.retiredRejectedCount()).isZero();
        a.onSuccess(0);
        keyed.cleanUp();
        assertThat(keyed.drainingCount()).as("one call still inside").isEqualTo(1);
        a.onSuccess(0);
        keyed.cleanUp();
        assertThat(keyed.drainingCount()).isZero();
        assertThat(keyed.retiredRejectedCount()).isEqualTo(1);
        assertThat(a.isRetired()).isTrue();
    }

    @Test
    void aRetiredRejectionFromANestedKeyedBulkheadIsNotRetried() {
        KeyedBulkhead<String> keyed = KeyedBulkhead.of("outer", KeyedBulkheadConfig.builder().perKey(perKey).build());
        Bulkhead other = Bulkhead.of("inner", perKey);
        Bulkhead.RetiredException nested = new Bulkhead.RetiredException(other);
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> keyed.execute("k", () -> {
            calls.incrementAndGet();
            throw nested;
        })).isSameAs(nested);
        assertThat(calls).hasValue(1);
        assertThat(keyed.forKey("k").activeCount()).isZero();

        Throwable async = keyed.executeAsync("k", () -> {
            calls.incrementAndGet();
            return CompletableFuture.<String>failedFuture(nested);
        }).toCompletableFuture().handle((r, e) -> e).join();
        assertThat(async).isSameAs(nested);
        assertThat(calls).hasValue(2);
    }

    @Test
    void executeAsyncRelaysTheValueAndTheUnwrappedFailure() {
        KeyedBulkhead<String> keyed = KeyedBulkhead.of("k", KeyedBulkheadConfig.builder().perKey(perKey).build());
        assertThat(keyed.executeAsync("k", () -> CompletableFuture.completedFuture("v")).toCompletableFuture().join())
                .isEqualTo("v");
        IllegalStateException boom = new IllegalStateException("boom");
        Throwable failure = keyed.executeAsync("k", () -> CompletableFuture.<String>failedFuture(
                new java.util.concurrent.CompletionException(boom))).toCompletableFuture().handle((r, e) -> e).join();
        assertThat(failure).isSameAs(boom);
        assertThat(keyed.forKey("k").activeCount()).isZero();
    }

    @Test
    void configAccessorsAndDefaults() {
        KeyedBulkheadConfig config = KeyedBulkheadConfig.builder().perKey(perKey).maxEntries(5)
                .idleTimeout(Duration.ofSeconds(30)).build();
        KeyedBulkhead<String> keyed = KeyedBulkhead.of("k", config);
        assertThat(keyed.config()).isSameAs(config);
        assertThat(keyed.name()).isEqualTo("k");
        KeyedBulkheadConfig copy = config.toBuilder().build();
        assertThat(copy.perKey()).isSameAs(perKey);
        assertThat(copy.maxEntries()).isEqualTo(5);
        assertThat(copy.idleTimeout()).isEqualTo(Duration.ofSeconds(30));

        KeyedBulkheadConfig defaults = KeyedBulkheadConfig.defaults();
        assertThat(defaults.maxEntries()).isEqualTo(KeyedBulkheadConfig.DEFAULT_MAX_ENTRIES);
        assertThat(defaults.idleTimeout()).isEqualTo(KeyedBulkheadConfig.DEFAULT_IDLE_TIMEOUT);
        assertThat(defaults.perKey().maxConcurrentCalls()).isEqualTo(BulkheadConfig.defaults().maxConcurrentCalls());
        KeyedBulkhead<String> byDefault = KeyedBulkhead.ofDefaults("d");
        assertThat(byDefault.config()).isSameAs(defaults);
        assertThat(byDefault.forKey("x").maxConcurrentCalls()).isEqualTo(BulkheadConfig.defaults().maxConcurrentCalls());
    }
}
