package dev.levee.examples;

import dev.levee.core.CircuitOpenException;
import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import dev.levee.retry.Backoff;
import dev.levee.retry.Hedge;
import dev.levee.retry.HedgeConfig;
import dev.levee.retry.Jitter;
import dev.levee.retry.Retry;
import dev.levee.retry.RetryBudget;
import dev.levee.retry.RetryBudgetConfig;
import dev.levee.retry.RetryConfig;
import dev.levee.retry.RetryEvent;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Retry, retry budgets and hedging in front of a simulated flaky downstream. Deterministic: manual time
 * and seeded randomness, so every run prints the same lines. The methods are the examples of
 * {@code docs/retry.md}.
 */
public final class RetryDemo {
    private RetryDemo() {}

    /** The recommended setup: exponential backoff with full jitter, client errors not retried. */
    static Retry paymentsRetry(ManualTicker ticker, RandomSource random) {
        return Retry.of("payments", RetryConfig.builder()
                .maxAttempts(3)
                .backoff(Backoff.exponential(Duration.ofMillis(100), 2.0, Duration.ofSeconds(2)))
                .jitter(Jitter.full())
                .abortOn(IllegalArgumentException.class)          // a validation error will not heal
                .ticker(ticker).sleeper(ticker).random(random)    // tests and demos: manual time
                .build());
    }

    /** An HTTP-like response: only its status matters here. */
    record Response(int status) {}

    /** Retries transient failures (the default) and transient statuses; a 404 or 422 is answered at once. */
    static Retry catalogRetry(ManualTicker ticker) {
        return Retry.of("catalog", RetryConfig.builder()
                .retryOnStatus(Response.class, Response::status)  // 408, 425, 429, 500, 502, 503, 504
                .backoff(Backoff.constant(Duration.ofMillis(20))).jitter(Jitter.none())
                .ticker(ticker).sleeper(ticker)
                .build());
    }

    /** One budget per downstream, shared by every layer that retries calls to it. */
    static RetryBudget inventoryBudget(ManualTicker ticker) {
        return RetryBudget.of("inventory", RetryBudgetConfig.builder()
                .retryRatio(0.2)                      // retries <= 20% of requests ...
                .minRetriesPerSecond(10)              // ... plus 10 per second
                .ttl(Duration.ofSeconds(10))          // over the last 10 s
                .ticker(ticker)
                .build());
    }

    static Retry layer(String name, RetryBudget budget, ManualTicker ticker) {
        return Retry.of(name, RetryConfig.builder().budget(budget)
                .backoff(Backoff.constant(Duration.ofMillis(10))).jitter(Jitter.none())
                .ticker(ticker).sleeper(ticker).build());
    }

    /** A hedge that sends a second request when the first is slower than its recent 95th percentile. */
    static Hedge searchHedge(ManualTicker ticker, ManualScheduler scheduler, RetryBudget budget) {
        return Hedge.of("search", HedgeConfig.builder()
                .percentileDelay(0.95, Duration.ofMillis(50))
                .maxHedges(1)
                .budget(budget)
                .ticker(ticker).scheduler(scheduler)     // demos: manual time ...
                .asyncExecutor(Runnable::run)            // ... and hedges started on the advancing thread
                .build());
    }

    /**
     * Runs the demo: one line per call, then a summary per section.
     *
     * @param out where to print
     */
    @SuppressWarnings("try") // the scope is held only for its close()
    public static void run(PrintStream out) {
        ManualTicker ticker = new ManualTicker();
        RandomSource random = RandomSource.seeded(7);

        out.println("-- retry: a downstream that fails 40% of the time --");
        Retry retry = paymentsRetry(ticker, random);
        AtomicInteger attempts = new AtomicInteger();
        retry.onEvent(e -> {
            if (e instanceof RetryEvent.Retried r) {
                Throwable failure = r.failure(); // null when a returned result was the failure
                String cause = failure != null ? failure.getMessage() : "result " + r.result();
                out.printf("   attempt %d failed (%s), waiting %d ms%n", r.attempt(), cause, r.delayNanos() / 1_000_000);
            }
        });
        for (int call = 1; call <= 6; call++) {
            attempts.set(0);
            long start = ticker.read();
            try {
                String answer = retry.execute(() -> {
                    attempts.incrementAndGet();
                    if (random.nextDouble() < 0.4) {
                        throw new SocketException("connection reset"); // transient: retried
                    }
                    return "charged";
                });
                out.printf("call %d: %s after %d attempt(s), %d ms%n", call, answer, attempts.get(), (ticker.read() - start) / 1_000_000);
            } catch (IOException e) {
                out.printf("call %d: failed after %d attempts: %s%n", call, attempts.get(), e.getMessage());
            }
        }
        out.println("metrics: " + retry.metrics());

        out.println("-- only transient failures and statuses are retried --");
        Retry catalog = catalogRetry(ticker);
        for (int status : new int[] {503, 404, 422}) {
            AtomicInteger sent = new AtomicInteger();
            Response response = catalog.execute(() -> {
                sent.incrementAndGet();
                return new Response(status);
            });
            out.printf("status %d: %d attempt(s)%n", response.status(), sent.get());
        }
        AtomicInteger validation = new AtomicInteger();
        try {
            catalog.execute(() -> {
                validation.incrementAndGet();
                throw new IllegalArgumentException("sku must not be blank");
            });
        } catch (IllegalArgumentException e) {
            out.printf("IllegalArgumentException: %d attempt(s)%n", validation.get());
        }

        out.println("-- retry-after and the deadline --");
        AtomicInteger tries = new AtomicInteger();
        try (ContextScope scope = Deadline.after(Duration.ofMillis(500), ticker).attach()) {
            retry.execute(() -> {
                tries.incrementAndGet();
                throw new CircuitOpenException("inventory-breaker", "open", Duration.ofSeconds(2).toNanos());
            });
        } catch (CircuitOpenException e) {
            out.printf("breaker open for %d s but only 500 ms left: gave up at once after %d attempt%n",
                    e.retryAfterSeconds(), tries.get());
        }

        out.println("-- three retry layers against a dead downstream --");
        RetryBudget budget = inventoryBudget(ticker);
        Retry outer = layer("gateway", budget, ticker);
        Retry middle = layer("service", budget, ticker);
        Retry inner = layer("client", budget, ticker);
        AtomicInteger downstreamCalls = new AtomicInteger();
        int requests = 1_000;
        for (int i = 0; i < requests; i++) {
            try {
                outer.execute(() -> middle.execute(() -> inner.execute(() -> {
                    downstreamCalls.incrementAndGet();
                    throw new UncheckedIOException(new ConnectException("down"));
                })));
            } catch (UncheckedIOException expected) {
                // every request fails: the downstream is dead
            }
        }
        out.printf("%d requests made %d downstream calls (without a budget: %d); budget refusals: %d%n",
                requests, downstreamCalls.get(), requests * 27, budget.refusals());

        out.println("-- hedging a slow call --");
        ManualScheduler scheduler = new ManualScheduler(ticker);
        Hedge hedge = searchHedge(ticker, scheduler, RetryBudget.of("search", RetryBudgetConfig.builder().ticker(ticker).build()));
        CompletableFuture<String> slowFirst = new CompletableFuture<>();
        AtomicInteger hedgeAttempts = new AtomicInteger();
        CompletionStage<String> answer = hedge.executeAsync(() -> hedgeAttempts.incrementAndGet() == 1
                ? slowFirst : CompletableFuture.completedFuture("results from replica 2"));
        scheduler.advance(Duration.ofMillis(50));
        out.printf("hedged after 50 ms: %s; first attempt cancelled: %s%n",
                answer.toCompletableFuture().getNow("(none)"), slowFirst.isCancelled());
        out.println("hedge metrics: " + hedge.metrics());
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
