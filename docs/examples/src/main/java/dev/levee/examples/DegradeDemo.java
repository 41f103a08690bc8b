package dev.levee.examples;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.core.ManualTicker;
import dev.levee.degrade.Coalescer;
import dev.levee.degrade.CoalescerConfig;
import dev.levee.degrade.Degraded;
import dev.levee.degrade.DegradationLevel;
import dev.levee.degrade.DegradationLevelConfig;
import dev.levee.degrade.Fallback;
import dev.levee.degrade.FallbackConfig;
import dev.levee.degrade.FallbackMetrics;
import dev.levee.degrade.FallbackTier;
import dev.levee.degrade.LastKnownGood;
import dev.levee.degrade.LastKnownGoodConfig;
import dev.levee.degrade.StaleValueException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * Graceful degradation through an outage, on manual time: a fallback chain serving cached and then
 * static data while a catalogue service is down, request coalescing on a hot key, and feature toggles
 * following load. Deterministic.
 */
public final class DegradeDemo {
    private DegradeDemo() {}

    /**
     * Runs the demo.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        run(System.out);
    }

    /**
     * Runs every section.
     *
     * @param out where to print
     */
    public static void run(PrintStream out) {
        fallbackChainThroughAnOutage(out);
        coalescingAHotKey(out);
        featuresFollowLoad(out);
    }

    /**
     * One request a second for the home page; the catalogue is down from second 4 to second 17. A
     * breaker stops calling it; the chain serves the last good page for up to 5 s, then a static page,
     * and the fresh page again once the breaker's probe succeeds.
     */
    static void fallbackChainThroughAnOutage(PrintStream out) {
        out.println("-- fallback chain: catalogue down from t=4s to t=17s; cached page kept up to 5 s, then static");
        ManualTicker ticker = new ManualTicker();
        CircuitBreaker breaker = CircuitBreaker.of("catalogue", CircuitBreakerConfig.builder()
                .countWindow(4).minimumNumberOfCalls(2).failureRateThreshold(0.5)
                .waitDurationInOpen(Duration.ofSeconds(5)).ticker(ticker).build());
        LastKnownGood<String, String> lastGood = LastKnownGood.of("catalogue-cache", LastKnownGoodConfig.builder()
                .maxStaleness(Duration.ofSeconds(5)).fallback(FallbackConfig.builder().ticker(ticker).build()).build());
        Fallback<String> homePage = Fallback.of("home-page", FallbackConfig.builder().ticker(ticker).build(), List.of(
                FallbackTier.of("cached", cause -> lastGood.peek("home")
                        .orElseThrow(() -> new StaleValueException("no cached page younger than 5 s", null))),
                FallbackTier.ofValue("static", "static page (catalogue temporarily unavailable)")));

        for (int second = 0; second < 24; second++) {
            boolean down = second >= 4 && second < 17;
            int version = second;
            Degraded<String> page = homePage.executeDegraded(breaker, () -> {
                if (down) {
                    throw new IllegalStateException("catalogue: 503");
                }
                String fresh = "fresh page v" + version;
                lastGood.remember("home", fresh);
                return fresh;
            });
            out.printf("t=%02ds %-5s %-13s -> %s%n", second, down ? "DOWN" : "up",
                    page.degraded() ? page.reason().tag() : "ok", page.value()
                            + (page.degraded() ? "   [degraded, tier " + page.tier() + "]" : ""));
            ticker.advance(Duration.ofSeconds(1));
        }
        FallbackMetrics metrics = homePage.metrics();
        out.println("fallbacks by tier: " + metrics.byTier() + "; by reason: error=" + metrics.byReason().get(
                dev.levee.degrade.FallbackReason.ERROR) + ", circuit_open="
                + metrics.byReason().get(dev.levee.degrade.FallbackReason.CIRCUIT_OPEN));
    }

    /** A thousand requests for one product arrive while its load is in flight: one load serves them all. */
    static void coalescingAHotKey(PrintStream out) {
        out.println("-- request coalescing: 1,000 concurrent requests for one product");
        Coalescer<String, String> products = Coalescer.of("products", CoalescerConfig.defaults());
        AtomicInteger databaseLoads = new AtomicInteger();
        CompletableFuture<String> databaseAnswer = new CompletableFuture<>();
        List<CompletableFuture<String>> requests = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            requests.add(products.executeAsync("sku-42", () -> {
                databaseLoads.incrementAndGet();
                return databaseAnswer;
            }).toCompletableFuture());
        }
        out.println("in flight: " + products.size() + " key, database loads started: " + databaseLoads.get());
        databaseAnswer.complete("product 42");
        long served = requests.stream().filter(r -> "product 42".equals(r.getNow(null))).count();
        out.println("answered: " + served + " of 1000 with one database load; keys left in flight: " + products.size());
    }

    /** Optional features switch off as load rises and back on after it falls below the hysteresis band. */
    static void featuresFollowLoad(PrintStream out) {
        out.println("-- feature toggles: recommendations off from 0.8 load, reviews off from 0.95, hysteresis 0.1");
        ManualTicker ticker = new ManualTicker();
        AtomicReference<Double> load = new AtomicReference<>(0.0);
        DegradationLevel degradation = DegradationLevel.of("storefront", DegradationLevelConfig.builder()
                .thresholds(0.8, 0.95).hysteresis(0.1).recoveryDelay(Duration.ZERO).ticker(ticker).build(), load::get);
        BooleanSupplier recommendations = degradation.toggle(1);
        BooleanSupplier reviews = degradation.toggle(2);
        StringBuilder line = new StringBuilder();
        for (double reading : new double[] {0.5, 0.85, 0.75, 0.97, 0.88, 0.84, 0.65}) {
            load.set(reading);
            ticker.advance(Duration.ofSeconds(1));
            line.append(String.format("load %.2f: level %d recs %s reviews %s%n", reading, degradation.level(),
                    recommendations.getAsBoolean() ? "on " : "off", reviews.getAsBoolean() ? "on" : "off"));
        }
        out.print(line);
    }
}
