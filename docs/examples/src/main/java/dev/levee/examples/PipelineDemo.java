package dev.levee.examples;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.bulkhead.Bulkhead;
import dev.levee.bulkhead.BulkheadConfig;
import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.core.RandomSource;
import dev.levee.core.RejectedException;
import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimiter;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.retry.Backoff;
import dev.levee.retry.Jitter;
import dev.levee.retry.Retry;
import dev.levee.retry.RetryConfig;
import dev.levee.timeout.Timeout;
import dev.levee.timeout.TimeoutConfig;
import dev.levee.timeout.TimeoutMode;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;

/**
 * The demo's headline: one flaky dependency behind the recommended pipeline — retry, circuit
 * breaker, rate limiter, bulkhead, timeout — on manual time and seeded randomness, so every run prints
 * the same story: transient failures retried, slow calls cut by the timeout, an outage that opens the
 * breaker (and requests that then fail fast instead of waiting), a burst refused by the limiter, and
 * the recovery through half-open probes.
 */
public final class PipelineDemo {
    private static final long MS = 1_000_000L;

    private PipelineDemo() {}

    /** A simulated inventory service: sometimes fails, sometimes slow, down for a while. */
    static final class FlakyInventory {
        private final ManualTicker ticker;
        private final RandomSource random;
        int attempts;
        boolean down;

        FlakyInventory(ManualTicker ticker, RandomSource random) {
            this.ticker = ticker;
            this.random = random;
        }

        String stock(String sku) throws IOException {
            attempts++;
            double roll = random.nextDouble();
            long latencyMs = roll < 0.15 ? 400 : 20 + (long) (roll * 40);
            // The call does its work in 10 ms steps and checks its deadline between them, as code
            // under a cooperative timeout does.
            for (long spent = 0; spent < latencyMs; spent += 10) {
                ticker.advance(10 * MS);
                Timeout.checkpoint();
            }
            if (down || roll > 0.8) {
                throw new IOException("inventory: 503 Service Unavailable");
            }
            return sku + ": " + (int) (roll * 100) + " in stock";
        }
    }

    /** The recommended order, outermost first. Every policy runs on the given manual time. */
    static Pipeline inventoryPipeline(ManualTicker ticker, RandomSource random) {
        Retry retry = Retry.of("inventory", RetryConfig.builder()
                .maxAttempts(3)
                .backoff(Backoff.exponential(Duration.ofMillis(50), 2.0, Duration.ofSeconds(1)))
                .jitter(Jitter.full())
                .retryOn(IOException.class)    // this downstream's IOExceptions are 503s: transient
                .ticker(ticker).sleeper(ticker).random(random)
                .build());
        CircuitBreaker breaker = CircuitBreaker.of("inventory", CircuitBreakerConfig.builder()
                .countWindow(10)
                .minimumNumberOfCalls(6)
                .failureRateThreshold(0.5)
                .waitDurationInOpen(Duration.ofSeconds(2))
                .permittedCallsInHalfOpen(2)
                .ticker(ticker)
                .build());
        RateLimiter limiter = RateLimiter.of("inventory", RateLimiterConfig.builder()
                .algorithm(RateLimitAlgorithm.GCRA)
                .rate(8, Duration.ofSeconds(1))
                .burst(3)
                .ticker(ticker).sleeper(ticker)
                .build());
        Bulkhead bulkhead = Bulkhead.of("inventory", BulkheadConfig.builder()
                .maxConcurrentCalls(10)
                .ticker(ticker)
                .build());
        Timeout timeout = Timeout.of("inventory", TimeoutConfig.builder()
                .timeout(Duration.ofMillis(200))
                .mode(TimeoutMode.COOPERATIVE)
                .ticker(ticker)
                .build());
        return Pipeline.of(retry, breaker, limiter, bulkhead, timeout);
    }

    /**
     * Sends 40 requests, each with a 1 s deadline, and prints what happened to each.
     *
     * @param out where to print
     */
    @SuppressWarnings("try") // the scope is held only for its close()
    public static void run(PrintStream out) {
        ManualTicker ticker = new ManualTicker();
        RandomSource random = RandomSource.seeded(2026);
        FlakyInventory inventory = new FlakyInventory(ticker, random);
        Pipeline pipeline = inventoryPipeline(ticker, random);
        int ok = 0;
        int failed = 0;
        int rejected = 0;

        for (int request = 1; request <= 40; request++) {
            inventory.down = request >= 12 && request <= 22;
            if (request == 30) {
                out.println("   (a burst: the next requests arrive all at once)");
            }
            boolean burst = request >= 30 && request <= 37;
            inventory.attempts = 0;
            long start = ticker.read();
            String what;
            try (ContextScope requestDeadline = Deadline.after(Duration.ofSeconds(1), ticker).attach()) {
                String answer = pipeline.execute(() -> inventory.stock("sku-42"));
                ok++;
                what = "ok       " + answer;
            } catch (RejectedException e) {
                rejected++;
                what = String.format("rejected %s by %s%s", e.kind(), e.policyName(),
                        e.retryAfterNanos() > 0 ? " (retry after " + e.retryAfter().toMillis() + " ms)" : "");
            } catch (IOException e) {
                failed++;
                what = "failed   " + e.getMessage();
            }
            out.printf("request %2d%s: %-62s attempts=%d, %4d ms%n", request, inventory.down ? " [outage]" : "         ",
                    what, inventory.attempts, (ticker.read() - start) / MS);
            if (!burst) {
                ticker.advance(250 * MS);
            }
        }
        out.printf("%d ok, %d failed after retries, %d refused by a policy (fast, or within the request's deadline)%n",
                ok, failed, rejected);
    }
}
