package dev.levee.examples;

import dev.levee.chaos.Chaos;
import dev.levee.chaos.ChaosConfig;
import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.core.RandomSource;
import dev.levee.retry.Retry;
import dev.levee.retry.RetryConfig;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Every code example of {@code docs/chaos.md}, compiled by the build and run by {@code ChaosExamplesTest}.
 */
public final class ChaosExamples {
    private ChaosExamples() {}

    /** The dependency under test: a price lookup that can fail with an {@link IOException}. */
    public interface PriceService {
        /**
         * @param sku the product
         * @return the price in cents
         * @throws IOException if the service cannot be reached
         */
        long price(String sku) throws IOException;
    }

    /**
     * The three kinds of fault, each a policy of its own.
     *
     * @return the policies: latency, fault, substitute result
     */
    static Chaos[] kinds() {
        Chaos slow = Chaos.of("prices-slow", ChaosConfig.builder()
                .latency(Duration.ofMillis(800))   // every 20th call waits 800 ms, then runs
                .injectionRate(0.05)
                .build());
        Chaos down = Chaos.of("prices-down", ChaosConfig.builder()
                .fault(() -> new ConnectException("chaos: prices unreachable"))
                .injectionRate(0.3)
                .build());
        Chaos stale = Chaos.of("prices-stale", ChaosConfig.builder()
                .result(() -> -1L)                 // the "price unknown" answer the real service gives
                .injectionRate(0.01)
                .build());
        return new Chaos[] {slow, down, stale};
    }

    /**
     * Switched at run time, and only for the calls a selector picks (here a flag standing in for "the
     * request carries the test tenant's header").
     *
     * @param testTenant true while the current request belongs to the test tenant
     * @return the policy, switched off until a game day starts
     */
    static Chaos switchable(BooleanSupplier testTenant) {
        Chaos chaos = Chaos.of("prices-game-day", ChaosConfig.builder()
                .fault(() -> new ConnectException("chaos: game day"))
                .injectionRate(0.5)
                .injectWhen(testTenant)
                .enabled(false)
                .build());
        chaos.enable();   // e.g. from an admin endpoint; chaos.disable() ends it
        return chaos;
    }

    /** What {@link #chaosTestOfAPipeline} measured. */
    public record Experiment(int calls, int injected, int succeeded, double successRate) {}

    /**
     * A chaos test of a pipeline. Hypothesis: with the price service failing 30% of the time, retry
     * (3 attempts) keeps at least 97% of the calls successful ({@code 1 - 0.3^3 = 0.973}). Injection: a
     * seeded fault policy innermost, playing the service. Measurement: the success rate over 10,000 calls,
     * on manual time, so the backoff costs no real time and the run replays exactly from its seed.
     *
     * @param service the real (or fake) service behind the chaos
     * @return the measurement
     */
    static Experiment chaosTestOfAPipeline(PriceService service) {
        ManualTicker time = new ManualTicker();
        Chaos outage = Chaos.of("prices-outage", ChaosConfig.builder()
                .fault(() -> new ConnectException("chaos: prices unreachable"))
                .injectionRate(0.3)
                .randomSource(RandomSource.seeded(42))
                .build());
        Retry retry = Retry.of("prices", RetryConfig.builder()
                .maxAttempts(3)
                .retryOn(IOException.class)
                .random(RandomSource.seeded(7))
                .ticker(time)
                .sleeper(time)
                .build());
        Pipeline pipeline = Pipeline.of(retry, outage);

        int calls = 10_000;
        int succeeded = 0;
        for (int i = 0; i < calls; i++) {
            try {
                pipeline.execute(() -> service.price("sku-1"));
                succeeded++;
            } catch (IOException e) {
                // the hypothesis allows 2.7% of these
            }
        }
        return new Experiment(calls, (int) outage.injections(), succeeded, succeeded / (double) calls);
    }
}
