package dev.levee.health;

import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves a {@link HealthChecker} over HTTP on the JDK's built-in {@code com.sun.net.httpserver}.
 *
 * <pre>{@code
 * HealthEndpoint endpoint = HealthEndpoint.start(checker, HealthEndpointConfig.builder()
 *         .bindAddress(InetAddress.getByName("0.0.0.0")).port(8081).build());
 * // GET /health/live, /health/ready, /health/started, /health/deep
 * }</pre>
 *
 * <p><b>Protocol.</b> {@code GET} (or {@code HEAD}) of {@code <basePath>/live}, {@code /ready},
 * {@code /started} or {@code /deep} runs that level and answers 200 when it is HEALTHY or DEGRADED,
 * 503 when UNHEALTHY, with a JSON body ({@link HealthReport#toJson}); checks, messages and details
 * appear only as {@link DetailsVisibility} allows. Another path under the base path is 404, another
 * method 405 (with {@code Allow}), a request whose headers exceed {@code maxRequestHeaderBytes} 431.
 * Responses carry {@code Cache-Control: no-store} and {@code X-Content-Type-Options: nosniff}.
 *
 * <p><b>Guarantees.</b> The listener thread only accepts connections; requests are handled on a
 * bounded pool of {@code workerThreads} with at most {@code maxQueuedRequests} waiting, and a request
 * beyond that is answered 503 at once without running a check. A handler waits for a level at most
 * its timeout (the checker's guarantee), so a hung check costs one worker for that long, never the
 * listener. A malformed request is answered and closed; the server keeps serving.
 *
 * <p>A refused request is answered on the server's dispatcher thread (the pool cannot take it); the
 * JDK server reads a request's headers on the thread that runs the exchange, so while the pool is
 * full a client that sends its headers slowly holds the dispatcher for up to the server's own read
 * timeout. Put a proxy or the orchestrator's network policy in front if untrusted clients can reach
 * the port; the default loopback binding keeps them out.
 *
 * <p><b>Mounting.</b> {@link #mount} adds the same handler to an application's own
 * {@code HttpServer} (its executor then runs the handler). {@link #close()} stops an owned server and
 * its workers, or removes a mounted context.
 *
 * <p><b>Cost.</b> One report per request; cache expensive checks ({@link HealthCheckConfig#cacheTtl()}).
 */
public final class HealthEndpoint implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HealthEndpoint.class);
    private static final String JSON = "application/json; charset=utf-8";
    /** Set on the dispatcher thread while it answers a request the full pool refused. */
    private static final ThreadLocal<Boolean> SHED = new ThreadLocal<>();

    private final HealthChecker checker;
    private final HealthEndpointConfig config;
    private final @Nullable HttpServer ownServer;
    private final @Nullable ThreadPoolExecutor workers;
    private final HttpContext context;
    private final HttpServer server;
    private final AtomicInteger shed;
    private volatile boolean closed;

    private HealthEndpoint(HealthChecker checker, HealthEndpointConfig config, HttpServer server,
            @Nullable ThreadPoolExecutor workers, boolean owned, AtomicInteger shed) {
        this.checker = checker;
        this.shed = shed;
        this.config = config;
        this.server = server;
        this.ownServer = owned ? server : null;
        this.workers = workers;
        this.context = server.createContext(config.basePath() + "/", new Handler());
    }

    /**
     * Starts an endpoint with the default config (loopback, port {@value HealthEndpointConfig#DEFAULT_PORT}).
     *
     * @param checker the checker to serve
     * @return the running endpoint
     * @throws UncheckedIOException if the port cannot be bound
     */
    public static HealthEndpoint start(HealthChecker checker) {
        return start(checker, HealthEndpointConfig.defaults());
    }

    /**
     * Starts an endpoint on its own server.
     *
     * @param checker the checker to serve
     * @param config the config
     * @return the running endpoint
     * @throws UncheckedIOException if the port cannot be bound
     */
    public static HealthEndpoint start(HealthChecker checker, HealthEndpointConfig config) {
        Objects.requireNonNull(checker, "checker");
        Objects.requireNonNull(config, "config");
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(config.bindAddress(), config.port()), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("HealthEndpoint: cannot bind " + config.bindAddress() + ":" + config.port(), e);
        }
        BlockingQueue<Runnable> queue = config.maxQueuedRequests() == 0
                ? new SynchronousQueue<>() : new ArrayBlockingQueue<>(config.maxQueuedRequests());
        AtomicInteger count = new AtomicInteger();
        ThreadPoolExecutor workers = new ThreadPoolExecutor(config.workerThreads(), config.workerThreads(), 30,
                TimeUnit.SECONDS, queue, r -> {
                    Thread t = new Thread(r, "levee-health-http-" + count.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        workers.allowCoreThreadTimeOut(true);
        AtomicInteger shed = new AtomicInteger();
        server.setExecutor(new Shedding(workers, shed));
        HealthEndpoint endpoint = new HealthEndpoint(checker, config, server, workers, true, shed);
        server.start();
        LOG.info("HealthEndpoint for '{}' listening on http://{}:{}{}/", checker.name(),
                server.getAddress().getHostString(), server.getAddress().getPort(), config.basePath());
        return endpoint;
    }

    /**
     * Mounts the endpoint on an application's server under {@code config.basePath()}; the server's own
     * executor runs the handler (give it one: the default runs handlers on the listener thread).
     *
     * @param server the application's server (started or not)
     * @param checker the checker to serve
     * @param config the config (its address, port and pool settings are not used)
     * @return the endpoint; closing it removes the context
     */
    public static HealthEndpoint mount(HttpServer server, HealthChecker checker, HealthEndpointConfig config) {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(checker, "checker");
        Objects.requireNonNull(config, "config");
        return new HealthEndpoint(checker, config, server, null, false, new AtomicInteger());
    }

    /**
     * The address the server listens on (the actual port when configured with 0).
     *
     * @return the address
     */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /**
     * The URI of a level, e.g. {@code http://127.0.0.1:8081/health/ready}.
     *
     * @param level the level
     * @return the URI
     */
    public URI uri(HealthLevel level) {
        InetSocketAddress a = address();
        String host = a.getAddress().getHostAddress();
        if (host.indexOf(':') >= 0) {
            host = "[" + host + "]";
        }
        return URI.create("http://" + host + ":" + a.getPort() + config.basePath() + "/" + level.path());
    }

    /**
     * The name of the checker this endpoint serves.
     *
     * @return the checker's name
     */
    public String checkerName() {
        return checker.name();
    }

    /**
     * Requests answered 503 at once because every worker was busy and the queue full.
     *
     * @return the count
     */
    public int shedRequests() {
        return shed.get();
    }

    /** Stops an owned server (and its workers) or removes a mounted context. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        HttpServer own = ownServer;
        ThreadPoolExecutor pool = workers;
        if (own != null) {
            own.stop(0);
        } else {
            server.removeContext(context);
        }
        if (pool != null) {
            pool.shutdownNow();
            try {
                pool.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return "HealthEndpoint[" + checker.name() + " on " + address() + config.basePath() + "]";
    }

    /** Hands exchanges to the bounded pool; when it refuses, answers 503 on the caller without checks. */
    private static final class Shedding implements Executor {
        private final ThreadPoolExecutor pool;
        private final AtomicInteger shed;

        Shedding(ThreadPoolExecutor pool, AtomicInteger shed) {
            this.pool = pool;
            this.shed = shed;
        }

        @Override
        public void execute(Runnable exchange) {
            try {
                pool.execute(exchange);
            } catch (RejectedExecutionException full) {
                shed.incrementAndGet();
                SHED.set(Boolean.TRUE);
                try {
                    exchange.run(); // the handler sees SHED and answers 503 without running a check
                } finally {
                    SHED.remove();
                }
            }
        }
    }

    private final class Handler implements HttpHandler {
        @Override
        public void handle(HttpExchange exchange) throws IOException {
            try {
                respond(exchange);
            } catch (RuntimeException e) {
                LOG.warn("HealthEndpoint for '{}': request failed", checker.name(), e);
                send(exchange, 500, "{\"error\":\"internal error\"}");
            } finally {
                exchange.close();
            }
        }

        private void respond(HttpExchange exchange) throws IOException {
            if (SHED.get() != null) {
                exchange.getResponseHeaders().set("Retry-After", "1");
                send(exchange, 503, "{\"error\":\"busy\"}");
                return;
            }
            if (headerBytes(exchange) > config.maxRequestHeaderBytes()) {
                send(exchange, 431, "{\"error\":\"request header fields too large\"}");
                return;
            }
            HealthLevel level = level(exchange.getRequestURI().getRawPath());
            if (level == null) {
                send(exchange, 404, "{\"error\":\"not found\"}");
                return;
            }
            String method = exchange.getRequestMethod();
            if (!"GET".equals(method) && !"HEAD".equals(method)) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                send(exchange, 405, "{\"error\":\"method not allowed\"}");
                return;
            }
            HealthReport report;
            try {
                report = checker.check(level);
            } catch (IllegalStateException closedChecker) {
                send(exchange, 503, "{\"error\":\"health checker closed\"}");
                return;
            }
            int code = report.status().isServing() ? 200 : 503;
            send(exchange, code, report.toJson(showDetails(exchange)));
        }

        private @Nullable HealthLevel level(@Nullable String path) {
            if (path == null || !path.startsWith(config.basePath() + "/")) {
                return null;
            }
            String rest = path.substring(config.basePath().length() + 1);
            for (HealthLevel l : HealthLevel.values()) {
                if (l.path().equals(rest)) {
                    return l;
                }
            }
            return null;
        }

        private boolean showDetails(HttpExchange exchange) {
            switch (config.detailsVisibility()) {
                case ALWAYS:
                    return true;
                case WHEN_AUTHORIZED:
                    Predicate<HttpExchange> authorizer = config.authorizer();
                    try {
                        return authorizer != null && authorizer.test(exchange);
                    } catch (RuntimeException e) {
                        LOG.warn("HealthEndpoint for '{}': authorizer threw; details hidden", checker.name(), e);
                        return false;
                    }
                default:
                    return false;
            }
        }

        private long headerBytes(HttpExchange exchange) {
            long total = 0;
            for (Map.Entry<String, List<String>> e : exchange.getRequestHeaders().entrySet()) {
                for (String v : e.getValue()) {
                    total += e.getKey().length() + 4L + (v == null ? 0 : v.length());
                }
            }
            return total;
        }

        private void send(HttpExchange exchange, int code, String body) throws IOException {
            var headers = exchange.getResponseHeaders();
            headers.set("Content-Type", JSON);
            headers.set("Cache-Control", "no-store");
            headers.set("X-Content-Type-Options", "nosniff");
            byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
            if ("HEAD".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(code, -1);
                return;
            }
            exchange.sendResponseHeaders(code, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }
}
