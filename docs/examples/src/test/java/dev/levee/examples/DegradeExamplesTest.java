package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.core.LoadSignal;
import dev.levee.core.Pipeline;
import dev.levee.degrade.Coalescer;
import dev.levee.degrade.Fallback;
import dev.levee.degrade.LastKnownGood;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The examples of docs/degrade.md do what the page says. */
class DegradeExamplesTest {

    @Test
    void theRecommendationsFallBackToPopularItemsWhenTheBreakerIsOpen() {
        CircuitBreaker breaker = CircuitBreaker.ofDefaults("recommender");
        Pipeline pipeline = DegradeExamples.recommendationsPipeline(breaker);
        assertThat(pipeline.execute(() -> List.of("for-you"))).isEqualTo(List.of("for-you"));
        breaker.transitionToOpen();
        assertThat(pipeline.execute(() -> List.of("for-you"))).isEqualTo(DegradeExamples.POPULAR);

        Map<String, Object> body = DegradeExamples.recommendationsResponse(user -> List.of("for-" + user), breaker, "ada");
        assertThat(body).containsEntry("degraded", true).containsEntry("servedBy", "popular")
                .containsEntry("items", DegradeExamples.POPULAR);
    }

    @Test
    void theSearchChainFallsThroughToStaticResults() {
        Fallback<String> search = DegradeExamples.searchChain(
                cause -> CompletableFuture.failedFuture(new IllegalStateException("cache down")),
                () -> {
                    throw new IllegalStateException("no popular list");
                });
        assertThat(search.executeDegraded(() -> {
            throw new IllegalStateException("search down");
        }).tier()).isEqualTo("static");
        assertThat(DegradeExamples.onlyWhenUnavailable().reasons()).hasSize(3);
    }

    @Test
    void theFraudCheckFailsClosedAndTheBlocklistFailsOpen() {
        assertThat(DegradeExamples.fraudVerdict(id -> {
            throw new IllegalStateException("fraud service down");
        }, "p-1")).isEqualTo(DegradeExamples.Verdict.REVIEW);
        assertThat(DegradeExamples.fraudVerdict(id -> DegradeExamples.Verdict.APPROVE, "p-2"))
                .isEqualTo(DegradeExamples.Verdict.APPROVE);
        assertThat(DegradeExamples.showItem(item -> {
            throw new IllegalStateException("blocklist down");
        }, "item")).isTrue();
    }

    @Test
    void pricesAreServedStaleWithTheirAge() {
        LastKnownGood<String, Double> prices = DegradeExamples.prices();
        assertThat(DegradeExamples.priceHeader(prices, sku -> 9.99, "sku")).isEqualTo("9.99");
        assertThat(DegradeExamples.priceHeader(prices, sku -> {
            throw new IllegalStateException("pricing down");
        }, "sku")).startsWith("9.99; stale=");
    }

    @Test
    void coalescersAndTogglesAndMetricsWork() {
        Coalescer<String, String> products = DegradeExamples.heldProducts();
        assertThat(DegradeExamples.product(products, sku -> "product " + sku, "42")).isEqualTo("product 42");
        assertThat(DegradeExamples.productAsync(products, sku -> CompletableFuture.completedFuture("other"), "43")
                .toCompletableFuture().join()).isEqualTo("other");
        assertThat(DegradeExamples.recommendationsToggle(LoadSignal.constant(0.9)).getAsBoolean()).isFalse();
        assertThat(DegradeExamples.recommendationsToggle(LoadSignal.constant(0.1)).getAsBoolean()).isTrue();

        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        DegradeExamples.bindMetrics(registry, Fallback.ofDefaults("f", cause -> "x"), DegradeExamples.prices(), products);
        assertThat(registry.find("levee.degrade.fallbacks").tag("name", "prices").functionCounters()).isNotEmpty();
        assertThat(registry.find("levee.degrade.coalescer.entries").gauge()).isNotNull();
    }
}
