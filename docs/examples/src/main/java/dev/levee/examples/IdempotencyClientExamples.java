package dev.levee.examples;

import dev.levee.core.RandomSource;
import dev.levee.core.Sleeper;
import dev.levee.core.Throwing;
import dev.levee.core.Ticker;
import dev.levee.http.HttpMethods;
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
 * The client side of {@code docs/idempotency.md}: a {@code java.net.http} client with two retries — one
 * for idempotent requests (RFC 9110: GET, HEAD, OPTIONS, TRACE, PUT, DELETE), one {@code KEYED} for
 * writes — picked by the request's method. A keyed write makes one key per logical call and every
 * attempt sends it as {@code Idempotency-Key}; a write that must use the caller's own key and has none
 * is not repeated.
 */
public final class IdempotencyClientExamples {
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final URI base;
    private final Retry reads;
    private final Retry writes;
    private final Retry callerKeyedWrites;

    /**
     * Builds the retries.
     *
     * @param base the server's address
     * @param ticker the retries' clock
     * @param sleeper how they wait between attempts
     * @param random the jitter's and the keys' randomness ({@code RandomSource.seeded(n)} in tests)
     */
    public IdempotencyClientExamples(URI base, Ticker ticker, Sleeper sleeper, RandomSource random) {
        this.base = base;
        RetryConfig common = RetryConfig.builder()
                .maxAttempts(3)
                .backoff(Backoff.exponential(Duration.ofMillis(100), 2.0, Duration.ofSeconds(2)))
                .jitter(Jitter.full())
                .retryOn(IOException.class)                        // a lost response is a plain IOException
                .retryOnResult(HttpStatuses.TRANSIENT_RESPONSE)
                .ticker(ticker).sleeper(sleeper).random(random)
                .build();
        this.reads = Retry.of("reads", common);                    // IDEMPOTENT, the default
        this.writes = Retry.of("writes", common.toBuilder()
                .idempotency(Idempotency.KEYED)                    // one key per logical call ...
                .keyGenerator(IdempotencyKeyGenerator.randomUuid(random)) // ... a random UUID
                .build());
        this.callerKeyedWrites = Retry.of("caller-keyed-writes", common.toBuilder()
                .idempotency(Idempotency.KEYED)
                .keyGenerator(IdempotencyKeyGenerator.callerSupplied()) // the caller's own key, or no repeat
                .build());
    }

    /**
     * Sends a request through the retry its method calls for: an idempotent method through
     * {@code reads}, anything else through the keyed {@code writes}.
     *
     * @param method the HTTP method
     * @param path the path
     * @param body the body (ignored for GET, HEAD, OPTIONS, TRACE, DELETE)
     * @return the response
     * @throws IOException if every attempt's exchange failed
     * @throws InterruptedException if interrupted
     */
    public HttpResponse<String> send(String method, String path, String body) throws IOException, InterruptedException {
        Retry retry = HttpMethods.isIdempotent(method) ? reads : writes;
        return sendThrough(retry, method, path, body);
    }

    /**
     * Sends a write under the key the caller attached ({@code IdempotencyKey.of(orderId).attach()}); a
     * write sent without one is tried once: a lost response is not repeated.
     *
     * @param method the HTTP method
     * @param path the path
     * @param body the body
     * @return the response
     * @throws IOException if the exchange failed (with a {@code MissingIdempotencyKeyException} suppressed
     *                     when a repeat was refused for want of a key)
     * @throws InterruptedException if interrupted
     */
    public HttpResponse<String> sendWithCallersKey(String method, String path, String body)
            throws IOException, InterruptedException {
        return sendThrough(callerKeyedWrites, method, path, body);
    }

    private HttpResponse<String> sendThrough(Retry retry, String method, String path, String body)
            throws IOException, InterruptedException {
        Throwing<IOException, InterruptedException> http = retry.throwing(IOException.class, InterruptedException.class);
        return http.execute(() -> client.send(request(method, path, body), BodyHandlers.ofString()));
    }

    /** Built inside the retry, per attempt: every attempt reads the call's one current key. */
    private HttpRequest request(String method, String path, String body) {
        HttpRequest.BodyPublisher publisher = HttpMethods.isSafe(method) || "DELETE".equals(method)
                ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body);
        return IdempotencyKeyHeader.withCurrentKey(HttpRequest.newBuilder(base.resolve(path)))
                .method(method, publisher)
                .build();
    }

    /** @return the retry of keyed writes, for its metrics */
    public Retry writes() {
        return writes;
    }

    /** @return the retry of writes that need the caller's key, for its metrics */
    public Retry callerKeyedWrites() {
        return callerKeyedWrites;
    }

    /** @return the retry of idempotent requests */
    public Retry reads() {
        return reads;
    }
}
