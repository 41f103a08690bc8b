package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ManualTicker;
import dev.levee.http.HttpRetryHints;
import dev.levee.http.RateLimitFields;
import dev.levee.http.RateLimitStatus;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP client of {@code docs/http.md} against its server, over real loopback HTTP. Waits run on
 * manual time: the retry's sleeper advances the shared {@link ManualTicker}, so the test asserts the
 * exact waits the server asked for.
 */
class HttpExamplesTest {
    private static final long SECOND = 1_000_000_000L;

    private final ManualTicker ticker = new ManualTicker();
    private final List<Long> sleeps = new CopyOnWriteArrayList<>();
    private final AtomicBoolean heldSlot = new AtomicBoolean();
    private HttpServerExample server;
    private HttpClient client;
    private HttpClientExample example;

    @BeforeEach
    void start() throws IOException {
        start(1);
    }

    /** Starts the server with a tenant limit of {@code perTwoSeconds}, one request at a time, and the client. */
    private void start(int perTwoSeconds) throws IOException {
        if (server != null) {
            server.close();
        }
        server = HttpServerExample.start(ticker, perTwoSeconds, 1);
        client = HttpClient.newHttpClient();
        example = new HttpClientExample(client, server.base(), ticker, nanos -> {
            sleeps.add(nanos);
            if (heldSlot.compareAndSet(true, false)) {
                server.shedder().onIgnored();                 // the load the server was shedding goes away
            }
            ticker.advance(nanos);
        });
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void a503WithRetryAfterOneIsRetriedAfterOneSecond() throws IOException, InterruptedException {
        start(10);                                                          // the tenant limit stays out of the way
        assertThat(server.shedder().tryAcquire(ticker.read())).isTrue();   // the server is full
        heldSlot.set(true);

        HttpResponse<String> response = example.get("/orders", "a");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("orders for a");
        assertThat(sleeps).hasSize(1);
        assertThat(sleeps.get(0)).isGreaterThanOrEqualTo(SECOND);          // Retry-After: 1 honoured
    }

    @Test
    void a429WithRateLimitFieldsIsRetriedWhenTheQuotaResets() throws IOException, InterruptedException {
        assertThat(example.get("/orders", "b").statusCode()).isEqualTo(200);   // the tenant's one request per 2 s

        HttpResponse<String> response = example.get("/orders", "b");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(sleeps).hasSize(1);
        assertThat(sleeps.get(0)).isGreaterThanOrEqualTo(2 * SECOND);      // RateLimit: r=0;t=2 honoured
    }

    @Test
    void the429CarriesTheIetfFieldsAndBothHintsAgree() throws IOException, InterruptedException {
        HttpClient raw = HttpClient.newHttpClient();
        java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(server.base().resolve("/orders"))
                .header("X-Tenant", "c").build();
        assertThat(raw.send(request, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        HttpResponse<String> refused = raw.send(request, HttpResponse.BodyHandlers.ofString());

        assertThat(refused.statusCode()).isEqualTo(429);
        List<RateLimitStatus> statuses = RateLimitFields.parseRateLimit(refused.headers().firstValue("RateLimit").orElseThrow());
        assertThat(statuses).containsExactly(new RateLimitStatus("tenants", 0, 2));
        assertThat(RateLimitFields.parsePolicy(refused.headers().firstValue("RateLimit-Policy").orElseThrow()))
                .singleElement().satisfies(q -> assertThat(q.quota()).isEqualTo(1));
        assertThat(HttpRetryHints.defaults().retryAfter(refused)).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void theDeadlineArrivesInTheServer() throws IOException, InterruptedException {
        example.get("/orders", "d");

        // the client's 2 s timeout, less the reserve it keeps (max of 100 ms and 10 %): 1.8 s
        assertThat(server.deadlinesSeen()).containsExactly(1_800_000_000L);
    }

    @Test
    void ioExceptionComesOutUnchanged() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        HttpClientExample nowhere = new HttpClientExample(client, URI.create("http://127.0.0.1:" + closedPort + "/"), ticker,
                nanos -> ticker.advance(nanos));
        assertThatThrownBy(() -> nowhere.get("/orders", "e")).isInstanceOf(java.net.ConnectException.class);
    }

    @Test
    void aHintLongerThanMaxRetryAfterReturnsTheResponseAtOnce() throws IOException, InterruptedException {
        com.sun.net.httpserver.HttpServer maintenance = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        maintenance.createContext("/", exchange -> {
            exchange.getResponseHeaders().set("Retry-After", "3600");       // an hour: beyond maxRetryAfter (5 s)
            exchange.sendResponseHeaders(503, -1);
            exchange.close();
        });
        maintenance.start();
        try {
            URI base = URI.create("http://127.0.0.1:" + maintenance.getAddress().getPort() + "/");
            HttpClientExample down = new HttpClientExample(client, base, ticker, nanos -> {
                sleeps.add(nanos);
                ticker.advance(nanos);
            });
            assertThat(down.get("/orders", "g").statusCode()).isEqualTo(503);
            assertThat(sleeps).isEmpty();                                        // gave up without waiting
        } finally {
            maintenance.stop(0);
        }
    }

    @Test
    void asyncWithSendAsync() throws Exception {
        HttpResponse<String> response = example.getAsync("/orders", "f").toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertThat(response.statusCode()).isEqualTo(200);
    }
}
