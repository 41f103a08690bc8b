package dev.levee.lab;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Sends attempts with {@link HttpClient} to the loopback downstream, carrying the deadline, priority and
 * tenant headers. The HTTP request's own timeout is a safety net two seconds past the deadline (it
 * closes connections nobody waits on); the clients decide when they stop waiting.
 */
final class HttpTransport implements Transport {
    private static final long SAFETY_NANOS = 2_000 * LabSettings.MS;
    private final HttpClient client;
    private final URI uri;
    private final Executor executor;

    HttpTransport(HttpClient client, URI uri, Executor executor) {
        this.client = client;
        this.uri = uri;
        this.executor = executor;
    }

    @Override
    public CompletableFuture<Reply> send(Request request) {
        return CompletableFuture.supplyAsync(() -> HttpRequest.newBuilder(uri)
                        .GET()
                        .timeout(Duration.ofNanos(Math.max(0, request.remainingNanos()) + SAFETY_NANOS))
                        .header("X-Deadline-Ms", Long.toString(Math.max(0, request.remainingNanos() / LabSettings.MS)))
                        .header("X-Priority", Integer.toString(request.priority()))
                        .header("X-Tenant", request.tenant())
                        .header("X-Request-Id", Long.toString(request.id()))
                        .header("X-Attempt", Integer.toString(request.attempt()))
                        .build(), executor)
                .thenCompose(r -> client.sendAsync(r, HttpResponse.BodyHandlers.discarding()))
                .thenApply(response -> new Reply(response.statusCode(),
                        response.headers().firstValue("X-Shed-Reason").orElse("")));
    }
}
