package dev.levee.examples;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.circuitbreaker.CircuitBreakerEvent;
import dev.levee.circuitbreaker.CircuitState;
import dev.levee.circuitbreaker.HalfOpenTimeoutAction;
import dev.levee.core.CircuitOpenException;
import dev.levee.core.Classifier;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.ManualTicker;
import dev.levee.core.PolicyRegistry;
import dev.levee.core.RejectedException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Duration;

/**
 * A circuit breaker in front of a simulated flaky dependency, on a manual ticker so every run prints the
 * same story: healthy, then failing (the breaker opens and callers are refused instantly), then healthy
 * again (probes close the breaker). The other methods are the examples of {@code docs/circuitbreaker.md}.
 */
public final class CircuitBreakerDemo {
    private CircuitBreakerDemo() {}

    /**
     * Runs the demo.
     *
     * @param out where to print one line per call and a summary
     */
    public static void run(PrintStream out) {
        ManualTicker ticker = new ManualTicker();
        CircuitBreaker breaker = CircuitBreaker.of("inventory", CircuitBreakerConfig.builder()
                .countWindow(10)
                .minimumNumberOfCalls(5)
                .failureRateThreshold(0.5)
                .slowCallDurationThreshold(Duration.ofMillis(300))
                .slowCallRateThreshold(0.8)
                .waitDurationInOpen(Duration.ofSeconds(5))
                .permittedCallsInHalfOpen(2)
                .ticker(ticker)
                .build());
        breaker.onStateTransition(t -> out.printf("        transition %s -> %s: %s%n", t.from(), t.to(), t.reason()));
        FlakyDependency inventory = new FlakyDependency(ticker);

        int ok = 0;
        int failed = 0;
        int refused = 0;
        for (int call = 1; call <= 30; call++) {
            ticker.advance(Duration.ofSeconds(1));
            inventory.healthy = call <= 8 || call >= 20;
            String t = String.format(java.util.Locale.ROOT, "call %02d t=%5.1fs %-9s", call, ticker.read() / 1e9, breaker.state());
            String what;
            try {
                int stock = breaker.execute(() -> inventory.stockOf("sku-42"));
                ok++;
                what = "ok: stock " + stock;
            } catch (CircuitOpenException e) {
                refused++;
                what = "refused instantly: " + e.getMessage() + ", retry after " + e.retryAfterSeconds() + " s";
            } catch (UncheckedIOException e) {
                failed++;
                what = "failed: " + e.getCause().getMessage();
            }
            out.println(t + "-> " + String.format("%-9s ", breaker.state()) + what);
        }
        out.printf("summary: %d ok, %d failed, %d refused without touching the dependency; the dependency saw %d calls;"
                        + " breaker %s, %d calls in its window%n",
                ok, failed, refused, inventory.calls, breaker.state(), breaker.metrics().calls());
    }

    /** A dependency that answers in 20 ms when healthy and fails after 200 ms when not. */
    static final class FlakyDependency {
        private final ManualTicker ticker;
        boolean healthy = true;
        int calls;

        FlakyDependency(ManualTicker ticker) {
            this.ticker = ticker;
        }

        int stockOf(String sku) {
            calls++;
            if (healthy) {
                ticker.advance(Duration.ofMillis(20));
                return 7;
            }
            ticker.advance(Duration.ofMillis(200));
            throw new UncheckedIOException(new IOException("inventory: 503 Service Unavailable for " + sku));
        }
    }

    /**
     * The defaults: a failure rate of 0.5 over the last 100 calls, at least 20 calls, slow over 2 s at
     * 0.8, open 30 s, 3 probes (the seeds' numbers where they give one).
     *
     * @return a breaker for one dependency
     */
    public static CircuitBreaker defaults() {
        return CircuitBreaker.ofDefaults("payments");
    }

    /**
     * Tuned for a dependency that serves about 50 calls a second with a p99 of 250 ms: a 10 s time
     * window sees ~500 calls, so a minimum of 50 calls is reached quickly but never by a burst of a few;
     * a call over 400 ms (above the p99) is slow, and half of the calls being slow trips the breaker.
     *
     * @return the breaker
     */
    public static CircuitBreaker tunedFromTraffic() {
        return CircuitBreaker.of("search", CircuitBreakerConfig.builder()
                .timeWindow(10, 10)
                .minimumNumberOfCalls(50)
                .failureRateThreshold(0.5)
                .slowCallDurationThreshold(Duration.ofMillis(400))
                .slowCallRateThreshold(0.5)
                .build());
    }

    /**
     * A flapping dependency is left alone longer each time: 10 s, 20 s, 40 s ... up to 5 min; a probe
     * that never answers is abandoned after 30 s and the breaker reopens.
     *
     * @return the breaker
     */
    public static CircuitBreaker withBackoffAndHungProbeGuard() {
        return CircuitBreaker.of("ledger", CircuitBreakerConfig.builder()
                .waitDurationInOpen(Duration.ofSeconds(10))
                .waitDurationBackoff(2.0, Duration.ofMinutes(5))
                .permittedCallsInHalfOpen(5)
                .successThresholdInHalfOpen(3)
                .maxWaitInHalfOpen(Duration.ofSeconds(30))
                .halfOpenTimeoutAction(HalfOpenTimeoutAction.REOPEN)
                .build());
    }

    /**
     * The simple model some teams prefer: open after 5 failures in a row, whatever the rates.
     *
     * @return the breaker
     */
    public static CircuitBreaker consecutiveFailures() {
        return CircuitBreaker.of("legacy-soap", CircuitBreakerConfig.builder()
                .consecutiveFailureThreshold(5)
                .build());
    }

    /**
     * Seeds 002/003's count mode and seed 002's decaying counter, for a low-traffic dependency: open on
     * 5 failures in the last 50 calls, or when failures outrun successes by 3; a 404 proves the
     * dependency answered, so it counts as a success; a breaker built during a known outage starts OPEN.
     *
     * @return the breaker
     */
    public static CircuitBreaker countingRules() {
        return CircuitBreaker.of("geo-lookup", CircuitBreakerConfig.builder()
                .countWindow(50)
                .failureCountThreshold(5)
                .decayingFailureThreshold(3)
                .recordAsSuccess(java.io.FileNotFoundException.class)
                .initialState(dev.levee.circuitbreaker.CircuitState.OPEN)
                .build());
    }

    /**
     * A maintenance window announced by the dependency: stay open until it ends, then probe.
     *
     * @param breaker the breaker
     * @param until when the maintenance ends
     */
    public static void maintenance(CircuitBreaker breaker, java.time.Instant until) {
        breaker.transitionToOpenUntil(until, java.time.Clock.systemUTC());
    }

    /**
     * Classification: keep the defaults (timeouts count, local rejections are ignored), also ignore
     * validation errors, and count HTTP 5xx answers as failures.
     *
     * @return the breaker
     */
    public static CircuitBreaker withClassifier() {
        Classifier classifier = CircuitBreakerConfig.defaultClassifier().toBuilder()
                .ignore(IllegalArgumentException.class)
                .failOnResult(result -> result instanceof Integer && (Integer) result >= 500)
                .build();
        return CircuitBreaker.of("orders", CircuitBreakerConfig.builder().classifier(classifier).build());
    }

    /**
     * One breaker per dependency from a registry, with a stricter named config for a critical one.
     *
     * @return the registry
     */
    public static PolicyRegistry<CircuitBreakerConfig, CircuitBreaker> registry() {
        PolicyRegistry<CircuitBreakerConfig, CircuitBreaker> breakers = CircuitBreaker.registry(CircuitBreakerConfig.defaults())
                .addConfig("critical", CircuitBreakerConfig.builder().failureRateThreshold(0.25).build());
        CircuitBreaker payments = breakers.get("payments", "critical");
        CircuitBreaker search = breakers.get("search");
        assert payments != search;
        return breakers;
    }

    /**
     * The permit protocol without lambdas, as a framework integration would use it.
     *
     * @param breaker the breaker
     * @param request what to send
     * @return the answer
     * @throws IOException if the call failed
     */
    public static String permitProtocol(CircuitBreaker breaker, String request) throws IOException {
        long start = breaker.ticker().read();
        if (!breaker.tryAcquire(start)) {
            throw breaker.rejection(start);
        }
        try {
            String response = send(request);
            breaker.onResult(breaker.ticker().read() - start, response);
            return response;
        } catch (IOException | RuntimeException e) {
            breaker.onFailure(breaker.ticker().read() - start, e);
            throw e;
        }
    }

    /**
     * Turning a refusal into an HTTP answer: 503 with {@code Retry-After} from the rejection.
     *
     * @param breaker the breaker
     * @return the status line a handler would send
     */
    public static String httpHandler(CircuitBreaker breaker) {
        try {
            return "200 " + breaker.execute(() -> send("GET /stock"));
        } catch (DeadlineExceededException e) {
            return "504";
        } catch (RejectedException e) {
            return "503 Retry-After: " + e.retryAfterSeconds();
        } catch (IOException e) {
            return "502";
        }
    }

    /**
     * Watching a breaker: every transition and refusal as an event; a WARN log line is written on every
     * opening anyway.
     *
     * @param breaker the breaker
     * @param out where to print
     */
    public static void listen(CircuitBreaker breaker, PrintStream out) {
        breaker.onEvent(event -> {
            if (event instanceof CircuitBreakerEvent.StateTransitioned) {
                CircuitBreakerEvent.StateTransitioned t = (CircuitBreakerEvent.StateTransitioned) event;
                out.println(t.policyName() + ": " + t.from() + " -> " + t.to() + " because " + t.reason());
            }
        });
        if (breaker.state() == CircuitState.FORCED_OPEN) {
            breaker.reset();
        }
    }

    private static String send(String request) throws IOException {
        if (request.isEmpty()) {
            throw new IOException("empty request");
        }
        return "ok";
    }

    /**
     * Runs the demo on standard output.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        run(System.out);
    }
}
