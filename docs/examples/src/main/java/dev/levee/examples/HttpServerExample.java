package dev.levee.examples;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.ShedException;
import dev.levee.core.Ticker;
import dev.levee.loadshed.ConcurrencyLimiter;
import dev.levee.loadshed.ConcurrencyLimiterConfig;
import dev.levee.loadshed.ShedResponse;
import dev.levee.loadshed.limit.FixedLimit;
import dev.levee.ratelimiter.KeyedRateLimiter;
import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimitHeaders;
import dev.levee.ratelimiter.RateLimiter;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.timeout.DeadlinePropagation;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The complete server side of {@code docs/http.md}, on the JDK's own {@code HttpServer}: each request
 * runs under the deadline its caller sent, each tenant has its own rate limit (429 with the IETF
 * {@code RateLimit} fields and {@code Retry-After}), and a concurrency limiter sheds what the server
 * cannot take (503 with {@code Retry-After}).
 */
public final class HttpServerExample implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService executor;
    private final DeadlinePropagation deadlines;
    private final KeyedRateLimiter<String> tenants;
    private final ConcurrencyLimiter shedder;
    private final List<Long> deadlinesSeen = new CopyOnWriteArrayList<>();

    private HttpServerExample(Ticker ticker, int requestsPerTwoSeconds, int maxConcurrent) throws IOException {
        this.deadlines = DeadlinePropagation.builder().ticker(ticker).build();
        this.tenants = KeyedRateLimiter.<String>builder("tenants")
                .defaultConfig(RateLimiterConfig.builder().rate(requestsPerTwoSeconds, Duration.ofSeconds(2)).ticker(ticker).build())
                .maxEntries(10_000)                                   // an attacker minting tenants cannot exhaust memory
                .build();
        this.shedder = ConcurrencyLimiter.of("orders", ConcurrencyLimiterConfig.builder()
                .algorithm(() -> FixedLimit.of(maxConcurrent))
                .ticker(ticker)
                .build());
        this.executor = Executors.newFixedThreadPool(4);
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/orders", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    /**
     * Starts the server on a free loopback port.
     *
     * @param ticker the clock the limiters and the deadline read
     * @param requestsPerTwoSeconds each tenant's limit
     * @param maxConcurrent requests served at once; more are shed
     * @return the running server
     * @throws IOException if the port cannot be bound
     */
    public static HttpServerExample start(Ticker ticker, int requestsPerTwoSeconds, int maxConcurrent) throws IOException {
        return new HttpServerExample(ticker, requestsPerTwoSeconds, maxConcurrent);
    }

    private void handle(HttpExchange exchange) throws IOException {
        Headers in = exchange.getRequestHeaders();
        // 1. Run under the caller's deadline (never longer than the local maximum; garbage is ignored).
        try (ContextScope scope = deadlines.attachIncoming(in.getFirst(deadlines.headerName()))) {
            Deadline deadline = Deadline.currentOrNull();
            if (deadline != null && in.getFirst(deadlines.headerName()) != null) {
                deadlinesSeen.add(deadline.remainingNanos());
            }
            // 2. Per-tenant limit: 429 with RateLimit-Policy, RateLimit and Retry-After.
            String tenant = in.getFirst("X-Tenant") == null ? "anonymous" : in.getFirst("X-Tenant");
            RateLimiter limiter = tenants.forKey(tenant);
            RateLimitDecision decision = limiter.decide(1);
            RateLimitHeaders.write(limiter, decision, exchange.getResponseHeaders()::set);
            if (!decision.allowed()) {
                respond(exchange, 429, "slow down");
                return;
            }
            // 3. Shed what the server cannot take: 503 with Retry-After (at least a second).
            try {
                shedder.execute(() -> respond(exchange, 200, "orders for " + tenant));
            } catch (ShedException shed) {
                ShedResponse response = ShedResponse.of(shed);
                exchange.getResponseHeaders().set(ShedResponse.RETRY_AFTER, Long.toString(Math.max(1, response.retryAfterSeconds())));
                exchange.getResponseHeaders().set(ShedResponse.SHED_REASON, response.reason());
                respond(exchange, response.status(), "overloaded");
            }
        }
    }

    private static Void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
        return null;
    }

    /**
     * The server's base address, e.g. {@code http://127.0.0.1:41234/}.
     *
     * @return the address
     */
    public URI base() {
        return URI.create("http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort() + "/");
    }

    /**
     * The concurrency limiter that sheds, so a test can hold its slots.
     *
     * @return the shedder
     */
    public ConcurrencyLimiter shedder() {
        return shedder;
    }

    /**
     * The remaining time, in nanoseconds on the server's clock, of every incoming deadline.
     *
     * @return the deadlines seen, in arrival order
     */
    public List<Long> deadlinesSeen() {
        return deadlinesSeen;
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
