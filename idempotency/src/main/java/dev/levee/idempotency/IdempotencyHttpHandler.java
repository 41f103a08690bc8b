package dev.levee.idempotency;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpPrincipal;
import dev.levee.core.internal.Validate;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * An {@link IdempotencyGuard} in front of a JDK {@code com.sun.net.httpserver} handler.
 *
 * <pre>{@code
 * HttpServer server = HttpServer.create(new InetSocketAddress(8080), 0);
 * server.createContext("/charges", IdempotencyHttpHandler.builder(guard, chargeHandler)
 *         .scope(exchange -> exchange.getRequestHeaders().getFirst("X-Tenant"))
 *         .build());
 * }</pre>
 *
 * <h2>Model</h2>
 * For a request whose method is guarded (default {@code POST} and {@code PATCH}, the methods RFC 9110
 * does not make idempotent): reads {@code Idempotency-Key} (a structured-field string, quotes optional),
 * reads the body, fingerprints method, target ({@code path?query}) and body, and asks the guard. If the
 * request runs, the inner handler writes into a captured exchange (the body it reads is the buffered
 * one); the captured status, headers and body go to the client and, if final, the status, the kept
 * headers and the body to the store. Otherwise the guard's answer is written: the replay (with
 * {@code Idempotent-Replayed: true}), 409, 422, 400 or 503. Other methods pass straight through.
 * A guarded request without a key gets 400 where {@code keyRequired} says so (default: every guarded
 * request) and passes through unguarded elsewhere; two {@code Idempotency-Key} fields get 400.
 *
 * <h2>Knobs</h2>
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>setting</th><th>default</th></tr>
 *   <tr><td>{@code scope}</td><td>the empty scope for every request (one tenant)</td></tr>
 *   <tr><td>{@code guardedMethods}</td><td>{@code POST}, {@code PATCH}</td></tr>
 *   <tr><td>{@code keyRequired}</td><td>every guarded request</td></tr>
 *   <tr><td>{@code maxBodyBytes}</td><td>{@value #DEFAULT_MAX_BODY_BYTES} (a larger request gets 413)</td></tr>
 * </table>
 *
 * <h2>Cost</h2>
 * The request and response bodies are buffered in memory (the fingerprint and the record need them), so
 * use it for write endpoints with bounded bodies, not for streaming.
 */
public final class IdempotencyHttpHandler implements HttpHandler {
    /** The request header carrying the key (IETF draft "The Idempotency-Key HTTP Header Field"). */
    public static final String KEY_HEADER = "Idempotency-Key";
    /** Default bound on a guarded request's body: 1 MiB. */
    public static final int DEFAULT_MAX_BODY_BYTES = 1 << 20;
    private static final String POLICY = "IdempotencyHttpHandler";

    private final IdempotencyGuard guard;
    private final HttpHandler inner;
    private final Function<HttpExchange, @Nullable String> scope;
    private final Set<String> guardedMethods;
    private final Predicate<HttpExchange> keyRequired;
    private final int maxBodyBytes;

    private IdempotencyHttpHandler(Builder b, Set<String> methods) {
        this.guard = b.guard;
        this.inner = b.inner;
        this.scope = b.scope;
        this.guardedMethods = methods;
        this.keyRequired = b.keyRequired;
        this.maxBodyBytes = b.maxBodyBytes;
    }

    /**
     * Wraps {@code inner} with the defaults.
     *
     * @param guard the guard
     * @param inner the handler that does the work
     * @return the wrapping handler
     */
    public static IdempotencyHttpHandler wrap(IdempotencyGuard guard, HttpHandler inner) {
        return builder(guard, inner).build();
    }

    /**
     * Starts a wrapper of {@code inner}.
     *
     * @param guard the guard
     * @param inner the handler that does the work
     * @return a builder with the defaults
     */
    public static Builder builder(IdempotencyGuard guard, HttpHandler inner) {
        return new Builder(guard, inner);
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod();
        if (method == null || !guardedMethods.contains(method.toUpperCase(Locale.ROOT))) {
            inner.handle(exchange);
            return;
        }
        List<String> keys = exchange.getRequestHeaders().get(KEY_HEADER);
        if ((keys == null || keys.isEmpty()) && !keyRequired.test(exchange)) {
            inner.handle(exchange);
            return;
        }
        try (exchange) {
            IdempotencyResult result;
            byte[] body = readBody(exchange);
            if (body == null) {
                write(exchange, StoredResponse.of(413, Map.of("content-type", List.of("text/plain; charset=utf-8")),
                        ("Request body over " + maxBodyBytes + " bytes.").getBytes(java.nio.charset.StandardCharsets.UTF_8)));
                return;
            }
            Capture capture = new Capture(exchange, body);
            if (keys != null && keys.size() > 1) {
                result = guard.badKey("appears more than once");
            } else {
                String key = keys == null || keys.isEmpty() ? null : unquote(keys.get(0));
                String s = scope.apply(exchange);
                URI uri = exchange.getRequestURI();
                String target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
                result = guard.handle(s == null ? "" : s, key, new IdempotencyRequest(method, target, body), () -> {
                    inner.handle(capture);
                    return capture.response();
                });
            }
            write(exchange, result.response());
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            // HttpHandler.handle throws only IOException and unchecked exceptions; so does the capture.
            throw new IOException(e);
        }
    }

    private byte @Nullable [] readBody(HttpExchange exchange) throws IOException {
        InputStream in = exchange.getRequestBody();
        byte[] body = in.readNBytes(maxBodyBytes + 1);
        return body.length > maxBodyBytes ? null : body;
    }

    /** A structured-field string may come quoted ({@code "abc"}); the key is what is inside. */
    private static String unquote(String raw) {
        String v = raw.strip();
        if (v.length() >= 2 && v.charAt(0) == '"' && v.charAt(v.length() - 1) == '"') {
            return v.substring(1, v.length() - 1);
        }
        return v;
    }

    private static void write(HttpExchange exchange, StoredResponse response) throws IOException {
        Headers headers = exchange.getResponseHeaders();
        response.headers().forEach((name, values) -> headers.put(name, new ArrayList<>(values)));
        int length = response.bodyLength();
        exchange.sendResponseHeaders(response.status(), length == 0 ? -1 : length);
        if (length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(response.body());
            }
        }
    }

    /**
     * The exchange the inner handler sees: the request as received (body buffered), the response
     * captured in memory until the guard decides.
     */
    private static final class Capture extends HttpExchange {
        private final HttpExchange real;
        private final ByteArrayInputStream requestBody;
        private final Headers responseHeaders = new Headers();
        private final ByteArrayOutputStream responseBody = new ByteArrayOutputStream();
        private int status = -1;

        Capture(HttpExchange real, byte[] body) {
            this.real = real;
            this.requestBody = new ByteArrayInputStream(body);
        }

        /** The captured response; a handler that sent no status answered 500. */
        StoredResponse response() {
            Map<String, List<String>> headers = new LinkedHashMap<>();
            responseHeaders.forEach((name, values) -> {
                if (name != null && values != null) {
                    headers.put(name, values);
                }
            });
            return StoredResponse.of(status < 100 || status > 999 ? 500 : status, headers, responseBody.toByteArray());
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
            // The adapter closes the real exchange after writing the answer.
        }

        @Override
        public InputStream getRequestBody() {
            return requestBody;
        }

        @Override
        public OutputStream getResponseBody() {
            return responseBody;
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
        public @Nullable Object getAttribute(String name) {
            return real.getAttribute(name);
        }

        @Override
        public void setAttribute(String name, @Nullable Object value) {
            real.setAttribute(name, value);
        }

        @Override
        public void setStreams(@Nullable InputStream i, @Nullable OutputStream o) {
            throw new UnsupportedOperationException("IdempotencyHttpHandler captures the streams itself");
        }

        @Override
        public @Nullable HttpPrincipal getPrincipal() {
            return real.getPrincipal();
        }
    }

    /** Settings of an {@link IdempotencyHttpHandler}; validated in {@link #build()}. */
    public static final class Builder {
        private final IdempotencyGuard guard;
        private final HttpHandler inner;
        private Function<HttpExchange, @Nullable String> scope = exchange -> "";
        private Set<String> guardedMethods = Set.of("POST", "PATCH");
        private Predicate<HttpExchange> keyRequired = exchange -> true;
        private int maxBodyBytes = DEFAULT_MAX_BODY_BYTES;

        private Builder(IdempotencyGuard guard, HttpHandler inner) {
            this.guard = Validate.notNull(POLICY, "guard", guard);
            this.inner = Validate.notNull(POLICY, "inner", inner);
        }

        /**
         * Whose keys a request's key belongs to, e.g. the tenant from an authenticated header (default:
         * one scope for all). Keys of different scopes never collide. Null means the empty scope.
         *
         * @param scope reads the scope from the exchange
         * @return this builder
         */
        public Builder scope(Function<HttpExchange, @Nullable String> scope) {
            this.scope = scope;
            return this;
        }

        /**
         * The methods the guard applies to (default {@code POST}, {@code PATCH}); others pass through.
         *
         * @param methods method names, case-insensitive
         * @return this builder
         */
        public Builder guardedMethods(Set<String> methods) {
            this.guardedMethods = methods;
            return this;
        }

        /**
         * Which guarded requests must carry a key (400 without one); the others run unguarded when they
         * carry none (default: all must).
         *
         * @param keyRequired true for requests whose route requires a key
         * @return this builder
         */
        public Builder keyRequired(Predicate<HttpExchange> keyRequired) {
            this.keyRequired = keyRequired;
            return this;
        }

        /**
         * The largest guarded request body read (default 1 MiB); a larger one gets 413.
         *
         * @param maxBodyBytes positive
         * @return this builder
         */
        public Builder maxBodyBytes(int maxBodyBytes) {
            this.maxBodyBytes = maxBodyBytes;
            return this;
        }

        /**
         * Validates the settings and builds the handler.
         *
         * @return the handler
         * @throws dev.levee.core.InvalidConfigException naming the field and the value, if a setting is out of bounds
         */
        public IdempotencyHttpHandler build() {
            Validate.notNull(POLICY, "scope", scope);
            Validate.notNull(POLICY, "keyRequired", keyRequired);
            Validate.inRange(POLICY, "maxBodyBytes", maxBodyBytes, 1, Integer.MAX_VALUE - 1);
            Set<String> methods = new TreeSet<>();
            for (String m : Validate.notNull(POLICY, "guardedMethods", guardedMethods)) {
                Validate.check(m != null && !m.isBlank(), POLICY, "guardedMethods", "no null or blank method", guardedMethods);
                methods.add(m.strip().toUpperCase(Locale.ROOT));
            }
            return new IdempotencyHttpHandler(this, Set.copyOf(methods));
        }
    }
}
