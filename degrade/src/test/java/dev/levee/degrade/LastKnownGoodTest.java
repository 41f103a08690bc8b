package dev.levee.degrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.core.Classifier;
import dev.levee.core.ManualTicker;
import dev.levee.degrade.testing.RecordingLogs;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

class LastKnownGoodTest {
    private static final Duration T = Duration.ofMinutes(2);

    private final ManualTicker ticker = new ManualTicker();
    private final FallbackConfig fallback = FallbackConfig.builder().ticker(ticker).build();

    private LastKnownGood<String, String> cache(String name) {
        return LastKnownGood.of(name, LastKnownGoodConfig.builder().maxStaleness(T).fallback(fallback).build());
    }

    private static String down() throws IOException {
        throw new IOException("pricing down");
    }

    @Test
    void aValueIsServedAtAgeTMinusOneNanosecondAndRefusedAtTPlusOne() throws IOException {
        LastKnownGood<String, String> prices = cache("lkg-bound");
        assertThat(prices.executeDegraded("sku-1", () -> "9.99")).isEqualTo(Degraded.fresh("9.99"));

        ticker.advance(T.toNanos() - 1);
        Degraded<String> served = prices.executeDegraded("sku-1", LastKnownGoodTest::down);
        assertThat(served.value()).isEqualTo("9.99");
        assertThat(served.degraded()).isTrue();
        assertThat(served.age()).isEqualTo(T.minusNanos(1));
        assertThat(served.tier()).isEqualTo(LastKnownGood.TIER);
        assertThat(served.reason()).isEqualTo(FallbackReason.ERROR);

        ticker.advance(2);
        IOException refusedCause = new IOException("pricing down");
        assertThatThrownBy(() -> prices.executeDegraded("sku-1", () -> {
            throw refusedCause;
        })).isSameAs(refusedCause);
        assertThat(refusedCause.getSuppressed()).singleElement()
                .isInstanceOfSatisfying(StaleValueException.class, e -> assertThat(e.age()).isEqualTo(T.plusNanos(1)));
        assertThat(prices.exhaustedCount(FallbackReason.ERROR)).isEqualTo(1);
    }

    @Test
    void aValueOfAgeExactlyTIsStillServed() throws IOException {
        LastKnownGood<String, String> prices = cache("lkg-exact");
        prices.execute("sku", () -> "1");
        ticker.advance(T);

        assertThat(prices.execute("sku", LastKnownGoodTest::down)).isEqualTo("1");
        assertThat(prices.peek("sku")).contains("1");
        ticker.advance(1);
        assertThat(prices.peek("sku")).isEmpty();
    }

    @Test
    void aSuccessReplacesTheRememberedValueAndRestartsItsAge() throws IOException {
        LastKnownGood<String, String> prices = cache("lkg-replace");
        prices.execute("sku", () -> "1");
        ticker.advance(Duration.ofMinutes(1));
        prices.execute("sku", () -> "2");
        ticker.advance(Duration.ofMinutes(1).plusSeconds(30));

        Degraded<String> served = prices.executeDegraded("sku", LastKnownGoodTest::down);

        assertThat(served.value()).isEqualTo("2");
        assertThat(served.age()).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void nothingRememberedGivesTheOriginalFailureBack() {
        LastKnownGood<String, String> prices = cache("lkg-empty");
        IllegalStateException original = new IllegalStateException("down");

        assertThatThrownBy(() -> prices.execute("never-seen", () -> {
            throw original;
        })).isSameAs(original);
        assertThat(original.getSuppressed()).singleElement()
                .isInstanceOfSatisfying(StaleValueException.class, e -> assertThat(e.age()).isNull());
        assertThat(RecordingLogs.lines(Level.ERROR, "'lkg-empty'")).hasSize(1);
    }

    @Test
    void aRejectionServesTheRememberedValueWithItsReason() {
        CircuitBreaker breaker = CircuitBreaker.of("cb", CircuitBreakerConfig.builder().ticker(ticker).build());
        LastKnownGood<String, String> profiles = cache("lkg-breaker");
        profiles.execute("user-7", () -> breaker.execute(() -> "Ada"));
        breaker.transitionToOpen();
        ticker.advance(Duration.ofSeconds(5));

        Degraded<String> served = profiles.executeDegraded("user-7", () -> breaker.execute(() -> "never"));

        assertThat(served.reason()).isEqualTo(FallbackReason.CIRCUIT_OPEN);
        assertThat(served.value()).isEqualTo("Ada");
        assertThat(served.age()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void anErrorPassesThroughAndIsNotServedOver() {
        LastKnownGood<String, String> prices = cache("lkg-error");
        prices.execute("sku", () -> "1");
        OutOfMemoryError oom = new OutOfMemoryError();

        assertThatThrownBy(() -> prices.execute("sku", () -> {
            throw oom;
        })).isSameAs(oom);
    }

    @Test
    void aBadResultIsNotRememberedAndServesTheLastGoodOne() {
        FallbackConfig classifying = fallback.toBuilder()
                .classifier(Classifier.builder().failOnResult(r -> "".equals(r)).build()).build();
        LastKnownGood<String, String> prices = LastKnownGood.of("lkg-result",
                LastKnownGoodConfig.builder().maxStaleness(T).fallback(classifying).build());
        prices.execute("sku", () -> "1");

        Degraded<String> served = prices.executeDegraded("sku", () -> "");
        LastKnownGood<String, String> empty = LastKnownGood.of("lkg-result-empty",
                LastKnownGoodConfig.builder().maxStaleness(T).fallback(classifying).build());

        assertThat(served.reason()).isEqualTo(FallbackReason.RESULT);
        assertThat(served.value()).isEqualTo("1");
        assertThat(empty.execute("sku", () -> "")).isEqualTo("");
    }

    @Test
    void theNumberOfKeysRememberedIsBounded() {
        LastKnownGood<Integer, String> cache = LastKnownGood.of("lkg-bounded",
                LastKnownGoodConfig.builder().maxEntries(10).fallback(fallback).build());

        for (int key = 0; key < 1_000; key++) {
            int k = key;
            cache.execute(k, () -> "v" + k);
            assertThat(cache.size()).isLessThanOrEqualTo(10);
        }
        assertThat(cache.peek(999)).contains("v999");
    }

    @Test
    void everyServedValueIsCountedLoggedAndPublished() throws IOException {
        List<FallbackEvent> events = new CopyOnWriteArrayList<>();
        LastKnownGood<String, String> prices = cache("lkg-loud");
        prices.onEvent(events::add);
        prices.remember("sku", "3");

        prices.execute("sku", LastKnownGoodTest::down);
        prices.execute("sku", LastKnownGoodTest::down);

        assertThat(prices.fallbackCount(FallbackReason.ERROR, 0)).isEqualTo(2);
        assertThat(prices.metrics().byTier()).containsEntry(LastKnownGood.TIER, 2L);
        assertThat(RecordingLogs.lines(Level.WARN, "'lkg-loud'")).hasSize(1);
        assertThat(events).hasSize(2).allSatisfy(e -> assertThat(e).isInstanceOf(FallbackEvent.FellBack.class));
        assertThat(prices.forget("sku")).isTrue();
        assertThat(prices.peek("sku")).isEmpty();
    }

    @Test
    void theAsynchronousFormRemembersAndServesTheSameWay() {
        LastKnownGood<String, String> prices = cache("lkg-async");
        assertThat(prices.executeDegradedAsync("sku", () -> java.util.concurrent.CompletableFuture.completedFuture("5")))
                .isCompletedWithValue(Degraded.fresh("5"));
        ticker.advance(T);
        IllegalStateException down = new IllegalStateException("down");

        Degraded<String> served = prices.executeDegradedAsync("sku",
                () -> java.util.concurrent.CompletableFuture.<String>failedFuture(down)).toCompletableFuture().join();
        ticker.advance(1);
        java.util.concurrent.CompletableFuture<Degraded<String>> refused = prices.executeDegradedAsync("sku",
                () -> java.util.concurrent.CompletableFuture.<String>failedFuture(down)).toCompletableFuture();

        assertThat(served.value()).isEqualTo("5");
        assertThat(served.age()).isEqualTo(T);
        assertThat(served.cause()).isSameAs(down);
        assertThat(refused).isCompletedExceptionally();
        java.util.concurrent.atomic.AtomicReference<Throwable> seen = new java.util.concurrent.atomic.AtomicReference<>();
        refused.whenComplete((v, e) -> seen.set(e));
        assertThat(seen.get()).isSameAs(down);
    }
}
