package dev.levee.examples;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.core.Classifier;
import dev.levee.core.LoadSignal;
import dev.levee.core.Pipeline;
import dev.levee.core.Policy;
import dev.levee.degrade.Coalescer;
import dev.levee.degrade.CoalescerConfig;
import dev.levee.degrade.CoalescerMetricsBinder;
import dev.levee.degrade.Degraded;
import dev.levee.degrade.DegradationLevel;
import dev.levee.degrade.DegradationLevelConfig;
import dev.levee.degrade.Fallback;
import dev.levee.degrade.FallbackConfig;
import dev.levee.degrade.FallbackMetricsBinder;
import dev.levee.degrade.FallbackReason;
import dev.levee.degrade.FallbackTier;
import dev.levee.degrade.LastKnownGood;
import dev.levee.degrade.LastKnownGoodConfig;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;

/**
 * Every code example of {@code docs/degrade.md}, compiled by the build and run by
 * {@code DegradeExamplesTest}. The "services" are small interfaces so the examples read like
 * application code.
 */
public final class DegradeExamples {
    private DegradeExamples() {}

    /** A personalised recommender: the primary call of the first examples. */
    public interface Recommender {
        /**
         * @param user the user
         * @return recommended items
         */
        List<String> forUser(String user);
    }

    /** A fraud service: the fail-closed example. */
    public interface FraudService {
        /**
         * @param paymentId the payment
         * @return the verdict
         */
        Verdict check(String paymentId);
    }

    /** A fraud verdict. */
    public enum Verdict {
        /** Approve the payment. */
        APPROVE,
        /** Hold it for manual review. */
        REVIEW,
        /** Decline it. */
        DECLINE
    }

    /** The list served when personalised recommendations cannot be had. */
    public static final List<String> POPULAR = List.of("bestseller-1", "bestseller-2");

    // ---------------------------------------------------------------- a fallback in a pipeline

    /**
     * A fallback outermost in the recommended pipeline, answering with popular items.
     *
     * @param breaker the breaker (and whatever else) inside the fallback
     * @return the pipeline
     */
    public static Pipeline recommendationsPipeline(CircuitBreaker breaker) {
        Fallback<List<String>> popular = Fallback.of("recommendations", FallbackConfig.defaults(),
                FallbackTier.of("popular", cause -> POPULAR));
        return Pipeline.of(popular, breaker);
    }

    /**
     * The {@link Degraded} form: tell the client the answer is degraded.
     *
     * @param recommender the primary
     * @param inner the policies inside the fallback
     * @param user the user
     * @return a response body
     */
    public static Map<String, Object> recommendationsResponse(Recommender recommender, Policy inner, String user) {
        Fallback<List<String>> recommendations = Fallback.of("recommendations", FallbackConfig.defaults(),
                FallbackTier.of("popular", cause -> POPULAR));
        Degraded<List<String>> answer = recommendations.executeDegraded(inner, () -> recommender.forUser(user));
        return Map.of(
                "items", answer.value(),
                "degraded", answer.degraded(),
                "servedBy", answer.tier());
    }

    // ---------------------------------------------------------------- chains

    /**
     * Seed 000's degradation levels as a chain: cached results, popular results, a static page, and
     * maintenance mode — each tried only if the one before failed.
     *
     * @param cachedSearch an asynchronous cache lookup
     * @param popular the current popular results
     * @return the fallback
     */
    public static Fallback<String> searchChain(java.util.function.Function<Throwable, CompletionStage<String>> cachedSearch,
            java.util.function.Supplier<String> popular) {
        return Fallback.of("search", FallbackConfig.defaults(), List.of(
                FallbackTier.ofAsync("cached", cachedSearch::apply).withTimeout(Duration.ofMillis(50)),
                FallbackTier.of("popular", cause -> popular.get()).withTimeout(Duration.ofMillis(20)),
                FallbackTier.ofValue("static", "static results"),
                FallbackTier.ofValue("maintenance", "search is temporarily unavailable")));
    }

    /**
     * Which failures trigger a fallback: only an open breaker or a timeout; a 5xx result counts too.
     *
     * @return the config
     */
    public static FallbackConfig onlyWhenUnavailable() {
        return FallbackConfig.builder()
                .reasons(FallbackReason.CIRCUIT_OPEN, FallbackReason.TIMEOUT, FallbackReason.RESULT)
                .classifier(Classifier.builder()
                        .failOnResult(status -> status instanceof Integer && (Integer) status >= 500)
                        .build())
                .warnInterval(Duration.ofSeconds(30))
                .build();
    }

    // ---------------------------------------------------------------- fail-open and fail-closed

    /**
     * A fraud check fails closed: when it cannot be asked, hold the payment for review rather than
     * approve what nobody verified.
     *
     * @param fraud the fraud service
     * @param paymentId the payment
     * @return the verdict, REVIEW while the service is down
     */
    public static Verdict fraudVerdict(FraudService fraud, String paymentId) {
        Fallback<Verdict> failClosed = Fallback.of("fraud-check", FallbackConfig.defaults(),
                FallbackTier.failClosed(Verdict.REVIEW));
        return failClosed.get(() -> fraud.check(paymentId));
    }

    /**
     * A recommendations filter fails open: when the blocklist cannot be read, show the item.
     *
     * @param blocklist whether an item is blocked
     * @param item the item
     * @return whether to show it
     */
    public static boolean showItem(java.util.function.Predicate<String> blocklist, String item) {
        Fallback<Boolean> failOpen = Fallback.of("blocklist", FallbackConfig.defaults(), FallbackTier.failOpen(true));
        return failOpen.get(() -> !blocklist.test(item));
    }

    // ---------------------------------------------------------------- last known good

    /**
     * Prices served up to two minutes stale while the pricing service is down; never older.
     *
     * @return the cache
     */
    public static LastKnownGood<String, Double> prices() {
        return LastKnownGood.of("prices", LastKnownGoodConfig.builder()
                .maxStaleness(Duration.ofMinutes(2))
                .maxEntries(50_000)
                .build());
    }

    /**
     * A price with its age, for a response header.
     *
     * @param prices the cache
     * @param pricing the pricing call
     * @param sku the product
     * @return a header value: the price, and its age when degraded
     */
    public static String priceHeader(LastKnownGood<String, Double> prices,
            java.util.function.Function<String, Double> pricing, String sku) {
        Degraded<Double> price = prices.executeDegraded(sku, () -> pricing.apply(sku));
        return price.degraded() ? price.value() + "; stale=" + price.age().toSeconds() + "s" : String.valueOf(price.value());
    }

    // ---------------------------------------------------------------- coalescing

    /**
     * Concurrent requests for one product share one database load.
     *
     * @param products the coalescer
     * @param database the load
     * @param sku the product
     * @return the product
     */
    public static String product(Coalescer<String, String> products, java.util.function.Function<String, String> database,
            String sku) {
        return products.execute(sku, () -> database.apply(sku));
    }

    /**
     * A coalescer whose values keep answering for 200 ms after each load, refreshed early by XFetch.
     *
     * @return the coalescer
     */
    public static Coalescer<String, String> heldProducts() {
        return Coalescer.of("products", CoalescerConfig.builder()
                .holdWindow(Duration.ofMillis(200))
                .earlyRefreshBeta(1.0)
                .maxEntries(10_000)
                .build());
    }

    /**
     * The asynchronous form.
     *
     * @param products the coalescer
     * @param client the asynchronous load
     * @param sku the product
     * @return a stage of the product
     */
    public static CompletionStage<String> productAsync(Coalescer<String, String> products,
            java.util.function.Function<String, CompletableFuture<String>> client, String sku) {
        return products.executeAsync(sku, () -> client.apply(sku));
    }

    // ---------------------------------------------------------------- feature toggles

    /**
     * Recommendations switch off from a load of 0.8 and come back below 0.7.
     *
     * @param load the load, e.g. a concurrency limiter's in-flight share
     * @return the toggle
     */
    public static BooleanSupplier recommendationsToggle(LoadSignal load) {
        DegradationLevel storefront = DegradationLevel.of("storefront", DegradationLevelConfig.builder()
                .thresholds(0.8, 0.95)
                .hysteresis(0.1)
                .recoveryDelay(Duration.ofSeconds(10))
                .build(), load);
        return storefront.toggle(1);
    }

    // ---------------------------------------------------------------- metrics

    /**
     * Binds the fallback and coalescer meters.
     *
     * @param registry the meter registry
     * @param fallback a fallback
     * @param prices a last-known-good cache
     * @param products a coalescer
     */
    public static void bindMetrics(MeterRegistry registry, Fallback<?> fallback, LastKnownGood<?, ?> prices,
            Coalescer<?, ?> products) {
        new FallbackMetricsBinder(fallback, prices).bindTo(registry);
        new CoalescerMetricsBinder(products).bindTo(registry);
    }
}
