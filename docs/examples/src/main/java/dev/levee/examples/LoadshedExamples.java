package dev.levee.examples;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.Pipeline;
import dev.levee.core.RandomSource;
import dev.levee.core.ShedException;
import dev.levee.core.Ticker;
import dev.levee.loadshed.ClientThrottle;
import dev.levee.loadshed.ClientThrottleConfig;
import dev.levee.loadshed.ConcurrencyLimiter;
import dev.levee.loadshed.ConcurrencyLimiterConfig;
import dev.levee.loadshed.KeyedConcurrencyLimiter;
import dev.levee.loadshed.PartitionedConcurrencyLimiter;
import dev.levee.loadshed.Partitions;
import dev.levee.loadshed.limit.GradientLimit;
import dev.levee.loadshed.limit.LatencyAimdLimit;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * The code examples of {@code docs/loadshed.md}, part I, compiled by the build and exercised by
 * {@code LoadshedExamplesTest}.
 */
public final class LoadshedExamples {
    private LoadshedExamples() {}

    /**
     * Server side: a concurrency limit around every request of a JDK {@link HttpServer}. A refused request
     * gets {@code 503} with {@code Retry-After} and {@code X-Shed-Reason} at once, without running the
     * handler; an admitted one is timed and its latency teaches the limit.
     *
     * @param limiter the limiter (one per server, or per route)
     * @param handler the application's handler
     * @return a handler that sheds
     */
    public static HttpHandler limited(ConcurrencyLimiter limiter, HttpHandler handler) {
        Ticker ticker = limiter.ticker();
        return exchange -> {
            long start = ticker.read();
            if (!limiter.tryAcquire(start)) {
                ShedException shed = (ShedException) limiter.rejection(start);
                exchange.getResponseHeaders().add("Retry-After", "1");
                exchange.getResponseHeaders().add("X-Shed-Reason", shed.reason());
                exchange.sendResponseHeaders(503, -1);
                exchange.close();
                return;
            }
            try {
                handler.handle(exchange);
                limiter.onSuccess(ticker.read() - start);
            } catch (IOException | RuntimeException | Error e) {
                limiter.onFailure(ticker.read() - start, e);
                throw e;
            }
        };
    }

    /**
     * Starts a server on {@code port} (0: any free port) whose one route, {@code /work}, is protected by a
     * Gradient limit and answers {@code work.get()}.
     *
     * @param port the port
     * @param work the application's work
     * @return the started server
     * @throws IOException if the port cannot be bound
     */
    public static HttpServer startServer(int port, Supplier<String> work) throws IOException {
        ConcurrencyLimiter limiter = ConcurrencyLimiter.of("http", ConcurrencyLimiterConfig.builder()
                .algorithm(() -> GradientLimit.builder().initialLimit(20).maxLimit(200).build())
                .build());
        return startServer(port, limiter, work);
    }

    /**
     * Starts a server on {@code port} protected by {@code limiter}.
     *
     * @param port the port (0: any free port)
     * @param limiter the limiter
     * @param work the application's work
     * @return the started server
     * @throws IOException if the port cannot be bound
     */
    public static HttpServer startServer(int port, ConcurrencyLimiter limiter, Supplier<String> work)
            throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.createContext("/work", limited(limiter, exchange -> respond(exchange, 200, work.get())));
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
        return server;
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /**
     * Client side: calls to one downstream go through a client throttle (stop sending what the
     * downstream is refusing anyway) and a concurrency limit (do not pile more calls on it than it
     * answers quickly). One pipeline per downstream, built once.
     *
     * @param ticker the time source
     * @return the pipeline
     */
    public static Pipeline outbound(Ticker ticker) {
        return outbound(ticker, RandomSource.threadLocal());
    }

    /**
     * {@link #outbound(Ticker)} with the throttle's coin injected (seeded in tests).
     *
     * @param ticker the time source
     * @param random the throttle's randomness
     * @return the pipeline
     */
    public static Pipeline outbound(Ticker ticker, RandomSource random) {
        ClientThrottle throttle = ClientThrottle.of("inventory", ClientThrottleConfig.builder()
                .rejectedWhen(e -> e instanceof ShedException || e instanceof DeadlineExceededException)
                .random(random).ticker(ticker).build());
        ConcurrencyLimiter limiter = ConcurrencyLimiter.of("inventory", ConcurrencyLimiterConfig.builder()
                .algorithm(() -> LatencyAimdLimit.builder().target(Duration.ofMillis(50)).minLimit(1).build())
                .ticker(ticker).build());
        return Pipeline.of(throttle, limiter);
    }

    /**
     * Priority: checkout keeps 70 % of the limit however hard search pushes.
     *
     * @return the partitioned limiter
     */
    public static PartitionedConcurrencyLimiter partitioned() {
        return PartitionedConcurrencyLimiter.of("api", ConcurrencyLimiterConfig.defaults(),
                Partitions.builder().add("checkout", 0.7).add("search", 0.3).build());
    }

    /**
     * Per tenant: one adaptive limit per tenant id, at most 10,000 tenants tracked.
     *
     * @return the keyed limiter
     */
    public static KeyedConcurrencyLimiter<String> perTenant() {
        return KeyedConcurrencyLimiter.of("tenants", ConcurrencyLimiterConfig.builder()
                .algorithm(() -> GradientLimit.builder().maxLimit(50).build()).build(), 10_000);
    }
}
