package dev.levee.examples;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpPrincipal;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * The failure an idempotency key exists for: the server executes the request, then the connection drops
 * before the client reads the answer. Wraps a server's handler: for the first {@code losses} requests it
 * runs the handler in full (the server does the work and, behind a guard, stores the answer), throws the
 * answer away and closes the connection without a response line, so the client's {@code send} fails with
 * an {@code IOException}. It also records the {@code Idempotency-Key} of every request it saw.
 */
final class LossyNetwork implements UnaryOperator<HttpHandler> {
    private final AtomicInteger toLose;
    final List<String> keysSeen = new CopyOnWriteArrayList<>();
    final AtomicInteger requests = new AtomicInteger();

    LossyNetwork(int losses) {
        this.toLose = new AtomicInteger(losses);
    }

    /** Loses the next {@code losses} responses. */
    void loseNext(int losses) {
        toLose.set(losses);
    }

    @Override
    public HttpHandler apply(HttpHandler server) {
        return exchange -> {
            requests.incrementAndGet();
            String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
            keysSeen.add(key == null ? "(none)" : key);
            if (toLose.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                server.handle(new Blackhole(exchange));
                exchange.close(); // no response line was sent: the JDK server drops the connection
            } else {
                server.handle(exchange);
            }
        };
    }

    /** The exchange the server writes its answer into, and nobody reads. */
    private static final class Blackhole extends HttpExchange {
        private final HttpExchange real;
        private final Headers responseHeaders = new Headers();
        private int status = -1;

        Blackhole(HttpExchange real) {
            this.real = real;
        }

        @Override
        public Headers getRequestHeaders() {
            return real.getRequestHeaders();
        }

        @Override
        public Headers getResponseHeaders() {
            return responseHeaders;
        }

        @Override
        public URI getRequestURI() {
            return real.getRequestURI();
        }

        @Override
        public String getRequestMethod() {
            return real.getRequestMethod();
        }

        @Override
        public HttpContext getHttpContext() {
            return real.getHttpContext();
        }

        @Override
        public void close() {
            // the network closes the real exchange
        }

        @Override
        public InputStream getRequestBody() {
            return real.getRequestBody();
        }

        @Override
        public OutputStream getResponseBody() {
            return OutputStream.nullOutputStream();
        }

        @Override
        public void sendResponseHeaders(int rCode, long responseLength) {
            status = rCode;
        }

        @Override
        public InetSocketAddress getRemoteAddress() {
            return real.getRemoteAddress();
        }

        @Override
        public int getResponseCode() {
            return status;
        }

        @Override
        public InetSocketAddress getLocalAddress() {
            return real.getLocalAddress();
        }

        @Override
        public String getProtocol() {
            return real.getProtocol();
        }

        @Override
        public Object getAttribute(String name) {
            return real.getAttribute(name);
        }

        @Override
        public void setAttribute(String name, Object value) {
            real.setAttribute(name, value);
        }

        @Override
        public void setStreams(InputStream i, OutputStream o) {
            // not used by the handlers under test
        }

        @Override
        public HttpPrincipal getPrincipal() {
            return real.getPrincipal();
        }
    }
}
