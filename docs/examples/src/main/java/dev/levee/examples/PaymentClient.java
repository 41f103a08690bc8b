package dev.levee.examples;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.core.ContextScope;
import dev.levee.core.IdempotencyKey;
import dev.levee.core.Pipeline;
import dev.levee.core.RandomSource;
import dev.levee.core.Sleeper;
import dev.levee.core.Throwing;
import dev.levee.core.Ticker;
import dev.levee.http.HttpStatuses;
import dev.levee.http.IdempotencyKeyHeader;
import dev.levee.retry.Backoff;
import dev.levee.retry.Idempotency;
import dev.levee.retry.IdempotencyKeyGenerator;
import dev.levee.retry.Jitter;
import dev.levee.retry.Retry;
import dev.levee.retry.RetryConfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;

/**
 * The client of seed 000's payment gateway: every payment carries one idempotency key — the order's own
 * id — from its first attempt to its last; the retry repeats it with exponential backoff and jitter
 * after a lost response or a transient answer, and a circuit breaker stops calling a gateway that keeps
 * failing. Order: retry → breaker → call (each attempt is one breaker call).
 */
@SuppressWarnings("try") // the key's scope is held only to make the key current
public final class PaymentClient {
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final URI base;
    private final Throwing<IOException, InterruptedException> http;
    private final Retry retry;
    private final CircuitBreaker breaker;

    /** What the client got back. */
    public record Receipt(int status, String body, boolean replayed) {}

    /**
     * Builds the client's policies.
     *
     * @param base the gateway's address
     * @param ticker the clock of the retry and the breaker
     * @param sleeper how the retry waits between attempts
     * @param random the jitter's randomness
     */
    public PaymentClient(URI base, Ticker ticker, Sleeper sleeper, RandomSource random) {
        this.base = base;
        this.retry = Retry.of("payments", RetryConfig.builder()
                .idempotency(Idempotency.KEYED)                             // a charge is repeated only under its key
                .keyGenerator(IdempotencyKeyGenerator.callerSupplied())     // the key is the order id, never a fresh one
                .maxAttempts(3)
                .backoff(Backoff.exponential(Duration.ofMillis(100), 2.0, Duration.ofSeconds(2)))
                .jitter(Jitter.full())
                .retryOn(IOException.class)                                 // a lost response: java.net.http's plain IOException
                .retryOnResult(HttpStatuses.TRANSIENT_RESPONSE)             // 503 from a processor outage, 429, ...
                .ticker(ticker).sleeper(sleeper).random(random)
                .build());
        this.breaker = CircuitBreaker.of("payments", CircuitBreakerConfig.builder()
                .classifier(HttpStatuses.breakerClassifier())              // transient statuses count as failures
                .ticker(ticker)
                .build());
        this.http = Pipeline.of(retry, breaker).throwing(IOException.class, InterruptedException.class);
    }

    /**
     * Pays for an order: one logical call, however many attempts it takes, under the key
     * {@code order-<orderId>}; a second call for the same order is answered from the gateway's record.
     *
     * @param merchant the merchant (the gateway keeps one key space per merchant)
     * @param orderId the order, unique per merchant
     * @param amountCents the amount
     * @return the gateway's answer
     * @throws IOException if every attempt's exchange failed
     * @throws InterruptedException if interrupted
     */
    public Receipt pay(String merchant, String orderId, long amountCents) throws IOException, InterruptedException {
        String body = "{\"order\":\"" + orderId + "\",\"amount\":" + amountCents + "}";
        try (ContextScope key = IdempotencyKey.of("order-" + orderId).attach()) {
            HttpResponse<String> response = http.execute(() -> client.send(
                    IdempotencyKeyHeader.withCurrentKey(HttpRequest.newBuilder(base.resolve("payments")))
                            .header("X-Merchant", merchant)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    BodyHandlers.ofString()));
            return new Receipt(response.statusCode(), response.body(), IdempotencyKeyHeader.isReplay(response));
        }
    }

    /**
     * The retry, for its metrics.
     *
     * @return the retry
     */
    public Retry retry() {
        return retry;
    }

    /**
     * The breaker, for its state.
     *
     * @return the breaker
     */
    public CircuitBreaker breaker() {
        return breaker;
    }
}
