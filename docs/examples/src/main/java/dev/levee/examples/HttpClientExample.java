package dev.levee.examples;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.bulkhead.Bulkhead;
import dev.levee.core.Deadline;
import dev.levee.core.Pipeline;
import dev.levee.core.Sleeper;
import dev.levee.core.Ticker;
import dev.levee.core.Throwing;
import dev.levee.http.HttpRetryHints;
import dev.levee.http.HttpStatuses;
import dev.levee.http.IdempotencyKeyHeader;
import dev.levee.ratelimiter.RateLimiter;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.retry.Retry;
import dev.levee.retry.RetryBudget;
import dev.levee.retry.RetryBudgetConfig;
import dev.levee.retry.RetryConfig;
import dev.levee.timeout.DeadlinePropagation;
import dev.levee.timeout.Timeout;
import dev.levee.timeout.TimeoutConfig;
import dev.levee.timeout.TimeoutMode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * The complete HTTP client of {@code docs/http.md}: {@code java.net.http.HttpClient} behind
 * retry (with a budget, honouring 429/503 hints) → circuit breaker → rate limiter → bulkhead →
 * timeout, sending what remains of its deadline in a header. Time is injected so the test runs the
 * waits on manual time; production code passes {@code Ticker.system()} and {@code Sleeper.system()}.
 */
public final class HttpClientExample {
    private final HttpClient client;
    private final URI base;
    private final Ticker ticker;
    private final Pipeline pipeline;
    private final Throwing<IOException, InterruptedException> http;
    private final DeadlinePropagation deadlines;
    private final CircuitBreaker breaker;

    /**
     * Builds the client's policies.
     *
     * @param client the JDK client
     * @param base the server's base address
     * @param ticker the clock the policies read
     * @param sleeper how the retry waits between attempts
     */
    public HttpClientExample(HttpClient client, URI base, Ticker ticker, Sleeper sleeper) {
        this.client = client;
        this.base = base;
        this.ticker = ticker;
        Retry retry = Retry.of("orders", RetryConfig.builder()
                .maxAttempts(3)
                .retryOnResult(HttpStatuses.TRANSIENT_RESPONSE)          // 408, 425, 429, 5xx-transient answers
                .retryAfterExtractor(HttpRetryHints.defaults()::retryAfter) // Retry-After, else RateLimit r=0;t=
                .maxRetryAfter(Duration.ofSeconds(5))                     // a longer hint: give up at once
                .budget(RetryBudget.of("orders", RetryBudgetConfig.builder().ticker(ticker).build()))
                .ticker(ticker)
                .sleeper(sleeper)
                .build());
        this.breaker = CircuitBreaker.of("orders", CircuitBreakerConfig.builder()
                .classifier(HttpStatuses.breakerClassifier())             // transient statuses count as failures
                .ticker(ticker)
                .build());
        RateLimiter limiter = RateLimiter.of("orders", RateLimiterConfig.builder()
                .rate(100, Duration.ofSeconds(1))
                .ticker(ticker)
                .build());
        Bulkhead bulkhead = Bulkhead.of("orders", 20);
        Timeout timeout = Timeout.of("orders", TimeoutConfig.builder()
                .timeout(Duration.ofSeconds(2))
                .mode(TimeoutMode.COOPERATIVE)     // the client's own request timeout enforces it (below)
                .ticker(ticker)
                .build());
        this.pipeline = Pipeline.of(retry, breaker, limiter, bulkhead, timeout);
        this.http = pipeline.throwing(IOException.class, InterruptedException.class);
        this.deadlines = DeadlinePropagation.builder().ticker(ticker).build();
    }

    /**
     * GET {@code path} through the pipeline. {@code HttpClient.send} throws {@code IOException} and
     * {@code InterruptedException}; both come out of this method unchanged.
     *
     * @param path the path, e.g. {@code /orders}
     * @param tenant the tenant the request is for
     * @return the last response (a 2xx, a permanent error, or a transient one when the retry gave up)
     * @throws IOException if the exchange failed
     * @throws InterruptedException if the thread was interrupted
     */
    public HttpResponse<String> get(String path, String tenant) throws IOException, InterruptedException {
        return http.execute(() -> client.send(request(path, tenant), BodyHandlers.ofString()));
    }

    /**
     * The same request, asynchronously with {@code sendAsync}: the stage completes with the response,
     * the exchange's failure, or a Levee rejection; nothing blocks the caller.
     *
     * @param path the path
     * @param tenant the tenant
     * @return the response stage
     */
    public CompletionStage<HttpResponse<String>> getAsync(String path, String tenant) {
        return pipeline.executeAsync(() -> client.sendAsync(request(path, tenant), BodyHandlers.ofString()));
    }

    /**
     * The breaker, for the example's assertions.
     *
     * @return the breaker
     */
    public CircuitBreaker breaker() {
        return breaker;
    }

    /** Built per attempt: each attempt sends what remains of the deadline at that moment. */
    private HttpRequest request(String path, String tenant) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).header("X-Tenant", tenant).GET();
        IdempotencyKeyHeader.withCurrentKey(request);     // the caller's key, if one is current (issue 23)
        Deadline deadline = Deadline.currentOrNull();     // the timeout's, or a tighter one of the caller's
        if (deadline != null) {
            String remaining = deadlines.encode(deadline);
            request.header(deadlines.headerName(), remaining);
            // the client gives up when the deadline passes (at least 1 ms: HttpRequest refuses zero)
            request.timeout(Duration.ofNanos(Math.max(1_000_000L, deadline.remainingNanos())));
        }
        return request.build();
    }

    /**
     * The clock the policies read.
     *
     * @return the ticker
     */
    public Ticker ticker() {
        return ticker;
    }
}
