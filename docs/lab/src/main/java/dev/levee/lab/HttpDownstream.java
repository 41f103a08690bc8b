package dev.levee.lab;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.Executor;

/**
 * The downstream on a real socket: a JDK {@link HttpServer} on a free loopback port. A request's
 * headers become a {@link Request} for {@link Downstream}; its reply is written later, from
 * {@code executor}, when a worker finishes (the exchange stays open meanwhile, as a real server's
 * connection does while the request waits in its queue).
 *
 * <p>Headers in: {@code X-Deadline-Ms} (milliseconds the caller will still wait), {@code X-Priority}
 * (1-10), {@code X-Tenant}, {@code X-Request-Id}, {@code X-Attempt}. Out: the status and, on a 503,
 * {@code X-Shed-Reason} and {@code Retry-After}. Malformed headers fall back to defaults; nothing a
 * client sends can make the server throw.
 */
final class HttpDownstream implements AutoCloseable {
    static final long MAX_DEADLINE_MILLIS = 30_000;
    private final HttpServer server;

    HttpDownstream(Downstream downstream, Executor executor) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        server.createContext("/work", exchange -> {
            Request request = new Request(
                    parse(exchange.getRequestHeaders().getFirst("X-Request-Id"), 0, Long.MAX_VALUE, 0),
                    (int) parse(exchange.getRequestHeaders().getFirst("X-Priority"), 1, 10, 5),
                    tenant(exchange.getRequestHeaders().getFirst("X-Tenant")),
                    parse(exchange.getRequestHeaders().getFirst("X-Deadline-Ms"), 0, MAX_DEADLINE_MILLIS, MAX_DEADLINE_MILLIS)
                            * LabSettings.MS,
                    (int) parse(exchange.getRequestHeaders().getFirst("X-Attempt"), 1, 100, 1));
            downstream.handle(request, reply -> executor.execute(() -> respond(exchange, reply)));
        });
        server.setExecutor(executor);
        server.start();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/work");
    }

    private static void respond(HttpExchange exchange, Reply reply) {
        try {
            if (reply.status() == 503) {
                exchange.getResponseHeaders().add("X-Shed-Reason", reply.reason());
                exchange.getResponseHeaders().add("Retry-After", "1");
            }
            exchange.sendResponseHeaders(reply.status(), -1);
        } catch (IOException e) {
            // The client gave up and closed the connection: the work was wasted, nothing to tell it.
        } finally {
            exchange.close();
        }
    }

    static long parse(String value, long min, long max, long fallback) {
        if (value == null || value.isEmpty() || value.length() > 18) {
            return fallback;
        }
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) < '0' || value.charAt(i) > '9') {
                return fallback;
            }
        }
        long v = Long.parseLong(value);
        return v < min || v > max ? fallback : v;
    }

    static String tenant(String value) {
        return value != null && value.matches("[a-z0-9-]{1,32}") ? value : "unknown";
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
