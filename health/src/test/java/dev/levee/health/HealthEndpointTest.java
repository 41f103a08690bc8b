package dev.levee.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Real HTTP: the JDK's HttpClient against the endpoint on a free loopback port. */
class HealthEndpointTest {
    private static final ObjectMapper JACKSON = new ObjectMapper();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private HealthChecker checker;
    private final HealthCheckerTest.AtomicReferenceStatus ready =
            new HealthCheckerTest.AtomicReferenceStatus(HealthStatus.HEALTHY);

    @BeforeEach
    void setUp() {
        checker = HealthChecker.of("web", HealthCheckerConfig.builder().readinessTimeout(Duration.ofSeconds(2)).build());
        toClose.add(checker);
        checker.register(HealthLevel.LIVENESS, "loop", CheckResult::healthy);
        checker.register(HealthLevel.READINESS, "db",
                () -> CheckResult.of(ready.get(), "db at 10.0.0.5 says \"" + ready.get() + "\"\n\u00e9"));
        checker.register(HealthLevel.STARTUP, "warm", CheckResult::healthy);
        checker.register(HealthLevel.DEEP, "write", () -> CheckResult.degraded("slow writes"));
    }

    @AfterEach
    void tearDown() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private HealthEndpoint start(HealthEndpointConfig.Builder config) {
        HealthEndpoint e = HealthEndpoint.start(checker, config.port(0).build());
        toClose.add(e);
        return e;
    }

    private HttpResponse<String> get(URI uri) throws Exception {
        return send(HttpRequest.newBuilder(uri).GET());
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return client.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void eachLevelAnswers200WhenServingAnd503WhenUnhealthyWithDetailsHidden() throws Exception {
        HealthEndpoint endpoint = start(HealthEndpointConfig.builder());
        assertThat(endpoint.address().getAddress().isLoopbackAddress()).isTrue();

        HttpResponse<String> live = get(endpoint.uri(HealthLevel.LIVENESS));
        assertThat(live.statusCode()).isEqualTo(200);
        assertThat(live.headers().firstValue("Content-Type")).hasValue("application/json; charset=utf-8");
        assertThat(live.headers().firstValue("Cache-Control")).hasValue("no-store");
        JsonNode body = JACKSON.readTree(live.body());
        assertThat(body.get("level").asText()).isEqualTo("liveness");
        assertThat(body.get("status").asText()).isEqualTo("healthy");
        assertThat(body.has("checks")).isFalse();

        assertThat(get(endpoint.uri(HealthLevel.READINESS)).statusCode()).isEqualTo(200);
        assertThat(get(endpoint.uri(HealthLevel.STARTUP)).statusCode()).isEqualTo(200);
        HttpResponse<String> deep = get(endpoint.uri(HealthLevel.DEEP));
        assertThat(deep.statusCode()).isEqualTo(200);
        assertThat(JACKSON.readTree(deep.body()).get("status").asText()).isEqualTo("degraded");

        ready.set(HealthStatus.UNHEALTHY);
        HttpResponse<String> notReady = get(endpoint.uri(HealthLevel.READINESS));
        assertThat(notReady.statusCode()).isEqualTo(503);
        assertThat(JACKSON.readTree(notReady.body()).get("status").asText()).isEqualTo("unhealthy");
        assertThat(notReady.body()).doesNotContain("10.0.0.5");
        assertThat(get(endpoint.uri(HealthLevel.DEEP)).statusCode()).isEqualTo(503);
        assertThat(get(endpoint.uri(HealthLevel.LIVENESS)).statusCode()).isEqualTo(200);

        ready.set(HealthStatus.DEGRADED);
        assertThat(get(endpoint.uri(HealthLevel.READINESS)).statusCode()).isEqualTo(200);
    }

    @Test
    void detailsAreShownWhenConfiguredAndParseBack() throws Exception {
        HealthEndpoint endpoint = start(HealthEndpointConfig.builder().detailsVisibility(DetailsVisibility.ALWAYS));
        ready.set(HealthStatus.UNHEALTHY);
        HttpResponse<String> r = get(endpoint.uri(HealthLevel.READINESS));
        assertThat(r.statusCode()).isEqualTo(503);
        JsonNode check = JACKSON.readTree(r.body()).get("checks").get(0);
        assertThat(check.get("name").asText()).isEqualTo("db");
        assertThat(check.get("message").asText()).isEqualTo("db at 10.0.0.5 says \"UNHEALTHY\"\n\u00e9");
        assertThat(check.get("latency_ms").isNumber()).isTrue();
    }

    @Test
    void detailsAreShownOnlyToAnAuthorisedCaller() throws Exception {
        HealthEndpoint endpoint = start(HealthEndpointConfig.builder()
                .detailsVisibility(DetailsVisibility.WHEN_AUTHORIZED)
                .authorizer(exchange -> "s3cret".equals(exchange.getRequestHeaders().getFirst("X-Health-Token"))));
        URI uri = endpoint.uri(HealthLevel.READINESS);
        assertThat(JACKSON.readTree(get(uri).body()).has("checks")).isFalse();
        HttpResponse<String> wrong = send(HttpRequest.newBuilder(uri).header("X-Health-Token", "guess").GET());
        assertThat(JACKSON.readTree(wrong.body()).has("checks")).isFalse();
        HttpResponse<String> right = send(HttpRequest.newBuilder(uri).header("X-Health-Token", "s3cret").GET());
        assertThat(JACKSON.readTree(right.body()).get("checks").get(0).get("name").asText()).isEqualTo("db");
    }

    @Test
    void malformedRequestsGet4xxAndTheServerKeepsServing() throws Exception {
        HealthEndpoint endpoint = start(HealthEndpointConfig.builder());
        URI live = endpoint.uri(HealthLevel.LIVENESS);

        HttpResponse<String> post = send(HttpRequest.newBuilder(live).POST(HttpRequest.BodyPublishers.ofString("x")));
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
        assertThat(send(HttpRequest.newBuilder(live).DELETE()).statusCode()).isEqualTo(405);

        HttpResponse<String> head = send(HttpRequest.newBuilder(live).method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();

        URI base = URI.create("http://" + endpoint.address().getHostString() + ":" + endpoint.address().getPort());
        assertThat(get(base.resolve("/health/nope")).statusCode()).isEqualTo(404);
        assertThat(get(base.resolve("/health/live/extra")).statusCode()).isEqualTo(404);
        assertThat(get(base.resolve("/health/")).statusCode()).isEqualTo(404);
        assertThat(get(base.resolve("/elsewhere")).statusCode()).isEqualTo(404);
        assertThat(get(base.resolve("/health/live?verbose=true")).statusCode()).isEqualTo(200);

        HttpResponse<String> huge = send(HttpRequest.newBuilder(live).header("X-Padding", "a".repeat(64 * 1024)).GET());
        assertThat(huge.statusCode()).isBetween(400, 499);
        List<HttpRequest.Builder> many = new ArrayList<>();
        HttpRequest.Builder manyHeaders = HttpRequest.newBuilder(live).GET();
        for (int i = 0; i < 150; i++) {
            manyHeaders.header("X-H" + i, "v".repeat(100));
        }
        many.add(manyHeaders);
        assertThat(send(many.get(0)).statusCode()).isEqualTo(431); // 15 KB of headers: our own limit (8 KiB)

        assertThat(raw(endpoint, "GARBAGE\r\n\r\n")).startsWith("HTTP/1.1 4");
        assertThat(raw(endpoint, "GET /health/live HTTP/1.1\r\nNo-Colon-Header\r\n\r\n")).startsWith("HTTP/1.1 4");

        // Still serving.
        assertThat(get(live).statusCode()).isEqualTo(200);
    }

    /** Sends raw bytes, returns the status line (or what came back before the server closed). */
    private static String raw(HealthEndpoint endpoint, String request) throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(endpoint.address(), 10_000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] buf = in.readNBytes(12);
            return new String(buf, StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void aSlowCheckDoesNotBlockTheListenerAndAFullPoolAnswers503AtOnce() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch deepStarted = new CountDownLatch(1);
        CountDownLatch startupStarted = new CountDownLatch(1);
        checker.register(HealthLevel.DEEP, "slow", () -> {
            deepStarted.countDown();
            release.await();
            return CheckResult.healthy();
        });
        checker.register(HealthLevel.STARTUP, "slow-start", () -> {
            startupStarted.countDown();
            release.await();
            return CheckResult.healthy();
        });
        HealthEndpoint endpoint = start(HealthEndpointConfig.builder().workerThreads(2).maxQueuedRequests(0));
        ExecutorService callers = Executors.newFixedThreadPool(2);
        try {
            CompletableFuture<HttpResponse<String>> deep = holdAWorker(callers, endpoint, HealthLevel.DEEP, deepStarted);
            // One worker holds the slow deep request; liveness is served by the other.
            assertThat(get(endpoint.uri(HealthLevel.LIVENESS)).statusCode()).isEqualTo(200);

            CompletableFuture<HttpResponse<String>> started =
                    holdAWorker(callers, endpoint, HealthLevel.STARTUP, startupStarted);
            // Both workers are held by checks that cannot finish, and nothing may queue: refused at once.
            HttpResponse<String> busy = get(endpoint.uri(HealthLevel.LIVENESS));
            assertThat(busy.statusCode()).isEqualTo(503);
            assertThat(busy.body()).isEqualTo("{\"error\":\"busy\"}");
            assertThat(busy.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(endpoint.shedRequests()).isPositive();
            var registry = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
            new HealthEndpointMetricsBinder(endpoint).bindTo(registry);
            assertThat(registry.get("levee.health.rejected").tags("name", "web", "kind", "busy").functionCounter()
                    .count()).isEqualTo(endpoint.shedRequests());

            release.countDown();
            assertThat(deep.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            assertThat(started.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            // A worker that has sent its response is not yet waiting for the next request; with no queue,
            // a request arriving before either worker is back would be refused busy. Ask once one waits.
            awaitAnIdleWorker();
            assertThat(get(endpoint.uri(HealthLevel.LIVENESS)).statusCode()).isEqualTo(200);
        } finally {
            release.countDown();
            callers.shutdownNow();
        }
    }

    /**
     * Waits until a worker of a queue-less endpoint is parked waiting for work (in its pool's
     * {@code SynchronousQueue}): only then is the next request handed to it rather than refused busy.
     */
    private static void awaitAnIdleWorker() {
        await().atMost(Duration.ofSeconds(30)).until(() -> Thread.getAllStackTraces().entrySet().stream()
                .anyMatch(e -> e.getKey().getName().startsWith("levee-health-http-")
                        && (e.getKey().getState() == Thread.State.WAITING
                                || e.getKey().getState() == Thread.State.TIMED_WAITING)
                        && java.util.Arrays.stream(e.getValue())
                                .anyMatch(f -> f.getClassName().equals("java.util.concurrent.SynchronousQueue"))));
    }

    /**
     * Sends a request whose check blocks, until a worker has taken it (the check started). A request that
     * arrives while the other worker is still finishing a previous response may be refused busy: send again.
     */
    private CompletableFuture<HttpResponse<String>> holdAWorker(ExecutorService callers, HealthEndpoint endpoint,
            HealthLevel level, CountDownLatch checkStarted) throws Exception {
        for (int attempt = 0; attempt < 100; attempt++) {
            CompletableFuture<HttpResponse<String>> response = CompletableFuture.supplyAsync(() -> {
                try {
                    return get(endpoint.uri(level));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, callers);
            await().atMost(Duration.ofSeconds(30)).until(() -> checkStarted.getCount() == 0 || response.isDone());
            if (checkStarted.getCount() == 0) {
                return response;
            }
            assertThat(response.get().statusCode()).isEqualTo(503); // refused busy; try again
        }
        throw new AssertionError("no worker took the " + level + " request");
    }

    @Test
    void aHungReadinessCheckIsAnswered503AtTheTimeout() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        checker.register(HealthLevel.READINESS, "hung", () -> {
            never.await();
            return CheckResult.healthy();
        });
        HealthEndpoint endpoint = start(HealthEndpointConfig.builder().detailsVisibility(DetailsVisibility.ALWAYS));
        HttpResponse<String> r = get(endpoint.uri(HealthLevel.READINESS));
        assertThat(r.statusCode()).isEqualTo(503);
        JsonNode hung = JACKSON.readTree(r.body()).get("checks").get(1);
        assertThat(hung.get("message").asText()).isEqualTo("timed out after PT2S");
    }

    @Test
    void mountsOnTheApplicationsOwnServer() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        ExecutorService executor = Executors.newFixedThreadPool(2);
        server.setExecutor(executor);
        server.createContext("/api", exchange -> {
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.start();
        try {
            HealthEndpoint mounted = HealthEndpoint.mount(server, checker,
                    HealthEndpointConfig.builder().basePath("/management/health").build());
            URI ready = mounted.uri(HealthLevel.READINESS);
            assertThat(ready.getPath()).isEqualTo("/management/health/ready");
            assertThat(get(ready).statusCode()).isEqualTo(200);
            assertThat(get(ready.resolve("/api")).statusCode()).isEqualTo(204);
            mounted.close();
            assertThat(get(ready).statusCode()).isEqualTo(404);
            assertThat(get(ready.resolve("/api")).statusCode()).isEqualTo(204);
        } finally {
            server.stop(0);
            executor.shutdownNow();
        }
    }

    @Test
    void closeStopsTheServerAndItsWorkers() throws Exception {
        HealthEndpoint endpoint = start(HealthEndpointConfig.builder());
        assertThat(get(endpoint.uri(HealthLevel.LIVENESS)).statusCode()).isEqualTo(200);
        endpoint.close();
        await().atMost(Duration.ofSeconds(30)).until(() -> HealthCheckerTest.threads("levee-health-http-") == 0);
        endpoint.close();
    }

    @Test
    void aClosedCheckerIsAnswered503() throws Exception {
        HealthEndpoint endpoint = start(HealthEndpointConfig.builder());
        checker.close();
        assertThat(get(endpoint.uri(HealthLevel.LIVENESS)).statusCode()).isEqualTo(503);
    }
}
