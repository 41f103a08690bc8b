package dev.levee.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The adapter on a real JDK HttpServer on loopback. */
class IdempotencyHttpHandlerTest {
    private final AtomicInteger charges = new AtomicInteger();
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private HttpServer server;
    private IdempotencyGuard guard;
    private URI base;

    /** A charge endpoint: 201 with the body echoed, a secret header, and a 500 when the body says so. */
    private final HttpHandler charge = exchange -> {
        byte[] in = exchange.getRequestBody().readAllBytes();
        int n = charges.incrementAndGet();
        String text = new String(in, StandardCharsets.UTF_8);
        int status = text.contains("fail") ? 500 : 201;
        byte[] out = ("charge " + n + " of " + text).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "text/plain");
        exchange.getResponseHeaders().add("Location", "/charges/" + n);
        exchange.getResponseHeaders().add("Set-Cookie", "session=abc");
        exchange.sendResponseHeaders(status, out.length);
        try (OutputStream os = exchange.getResponseBody()) {
            os.write(out);
        }
    };

    @BeforeEach
    void start() throws IOException {
        guard = IdempotencyGuard.ofDefaults("http");
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/charges", IdempotencyHttpHandler.builder(guard, charge)
                .scope(exchange -> exchange.getRequestHeaders().getFirst("X-Tenant"))
                .maxBodyBytes(1000)
                .build());
        server.createContext("/optional", IdempotencyHttpHandler.builder(guard, charge)
                .keyRequired(exchange -> false)
                .guardedMethods(Set.of("post", "PUT"))
                .build());
        server.start();
        base = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private HttpResponse<String> post(String path, String body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aRetriedPostIsChargedOnceAndTheReplayIsMarked() throws Exception {
        HttpResponse<String> first = post("/charges", "10 EUR", "Idempotency-Key", "k-1", "X-Tenant", "acme");
        assertThat(first.statusCode()).isEqualTo(201);
        assertThat(first.body()).isEqualTo("charge 1 of 10 EUR");
        assertThat(first.headers().firstValue("Set-Cookie")).hasValue("session=abc");
        assertThat(first.headers().firstValue(IdempotencyGuard.REPLAYED_HEADER)).isEmpty();

        HttpResponse<String> retry = post("/charges", "10 EUR", "Idempotency-Key", "k-1", "X-Tenant", "acme");
        assertThat(retry.statusCode()).isEqualTo(201);
        assertThat(retry.body()).isEqualTo("charge 1 of 10 EUR");
        assertThat(retry.headers().firstValue(IdempotencyGuard.REPLAYED_HEADER)).hasValue("true");
        assertThat(retry.headers().firstValue("Location")).hasValue("/charges/1");
        assertThat(retry.headers().firstValue("Set-Cookie")).as("not a stored header").isEmpty();
        assertThat(charges).hasValue(1);
    }

    @Test
    void theKeyMayComeAsAQuotedStructuredFieldString() throws Exception {
        post("/charges", "x", "Idempotency-Key", "\"k-q\"");
        assertThat(post("/charges", "x", "Idempotency-Key", "k-q").headers().firstValue(IdempotencyGuard.REPLAYED_HEADER)).hasValue("true");
        assertThat(charges).hasValue(1);
    }

    @Test
    void tenantsAreScopes() throws Exception {
        post("/charges", "x", "Idempotency-Key", "k", "X-Tenant", "a");
        post("/charges", "x", "Idempotency-Key", "k", "X-Tenant", "b");
        assertThat(charges).hasValue(2);
    }

    @Test
    void aReusedKeyWithAnotherBodyOrQueryGets422() throws Exception {
        post("/charges", "10 EUR", "Idempotency-Key", "k-2");
        HttpResponse<String> other = post("/charges", "99 EUR", "Idempotency-Key", "k-2");
        assertThat(other.statusCode()).isEqualTo(422);
        assertThat(other.body()).doesNotContain("charge");
        assertThat(post("/charges?capture=false", "10 EUR", "Idempotency-Key", "k-2").statusCode()).isEqualTo(422);
        assertThat(charges).hasValue(1);
    }

    @Test
    void aServerErrorReleasesTheKeySoTheRetryRuns() throws Exception {
        assertThat(post("/charges", "fail", "Idempotency-Key", "k-3").statusCode()).isEqualTo(500);
        assertThat(post("/charges", "fail", "Idempotency-Key", "k-3").statusCode()).isEqualTo(500);
        assertThat(charges).hasValue(2);
    }

    @Test
    void missingRepeatedOrMalformedKeysGet400() throws Exception {
        HttpResponse<String> missing = post("/charges", "x");
        assertThat(missing.statusCode()).isEqualTo(400);
        assertThat(missing.body()).isEqualTo("Idempotency-Key missing.");
        assertThat(post("/charges", "x", "Idempotency-Key", "a", "Idempotency-Key", "b").statusCode()).isEqualTo(400);
        assertThat(post("/charges", "x", "Idempotency-Key", "k".repeat(256)).statusCode()).isEqualTo(400);
        assertThat(post("/charges", "x", "Idempotency-Key", "\"\"").statusCode()).isEqualTo(400);
        assertThat(charges).hasValue(0);
    }

    @Test
    void otherMethodsAndOptionalRoutesPassThrough() throws Exception {
        HttpResponse<String> get = client.send(HttpRequest.newBuilder(base.resolve("/charges")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(get.statusCode()).isEqualTo(201);
        assertThat(post("/optional", "x").statusCode()).isEqualTo(201);
        assertThat(post("/optional", "x").statusCode()).isEqualTo(201);
        assertThat(charges).hasValue(3);
        post("/optional", "x", "Idempotency-Key", "opt");
        assertThat(post("/optional", "x", "Idempotency-Key", "opt").headers().firstValue(IdempotencyGuard.REPLAYED_HEADER)).hasValue("true");
        assertThat(charges).hasValue(4);
    }

    @Test
    void anOversizedBodyGets413() throws Exception {
        assertThat(post("/charges", "x".repeat(1001), "Idempotency-Key", "big").statusCode()).isEqualTo(413);
        assertThat(charges).hasValue(0);
    }

    @Test
    void hostileRawHeadersNeverBreakTheServer() throws Exception {
        String[] keys = {"\u0001\u0002", "a\tb", "\u00ff\u00fe", " ", "k".repeat(5000), "\"", "\"unterminated"};
        StringBuilder seen = new StringBuilder();
        for (String key : keys) {
            String status = raw("POST /charges HTTP/1.1\r\nHost: x\r\nIdempotency-Key: " + key
                    + "\r\nContent-Length: 1\r\nConnection: close\r\n\r\nx");
            assertThat(status).as(key).matches("HTTP/1.1 (400|201) .*");
            seen.append(key.length() > 20 ? "long" : key).append('=').append(status.substring(9, 12)).append(' ');
        }
        // The JDK server hands a tab inside a field value on as whitespace, which is printable: a valid key.
        assertThat(seen.toString()).isEqualTo("\u0001\u0002=400 a\tb=201 \u00ff\u00fe=400  =400 long=400 \"=201 \"unterminated=201 ");
        assertThat(charges).hasValue(3);
        assertThat(post("/charges", "ok", "Idempotency-Key", "after").statusCode()).isEqualTo(201);
    }

    private String raw(String request) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.getAddress().getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            int c;
            while ((c = in.read()) != -1 && c != '\r') {
                line.append((char) c);
            }
            return line.toString();
        }
    }
}
