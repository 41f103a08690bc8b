package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.levee.bulkhead.Bulkhead;
import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.core.ManualTicker;
import dev.levee.health.HealthChecker;
import dev.levee.health.HealthEndpoint;
import dev.levee.health.HealthLevel;
import dev.levee.health.HealthStatus;
import dev.levee.health.Heartbeat;
import dev.levee.health.Watchdog;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples of docs/health.md do what the page says. */
class HealthExamplesTest {
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void theDocumentedChecksWireUpAndReport() throws Exception {
        ManualTicker ticker = new ManualTicker();
        Heartbeat mainLoop = Heartbeat.of(ticker, Duration.ofSeconds(10));
        CircuitBreaker breaker = CircuitBreaker.ofDefaults("inventory");
        Bulkhead bulkhead = Bulkhead.of("inventory", 10);
        boolean[] warm = {false};
        try (HealthChecker checker = HealthChecker.ofDefaults("orders")) {
            HealthExamples.livenessChecks(checker, mainLoop);
            HealthExamples.readinessChecks(checker, breaker, bulkhead);
            HealthExamples.startupCheck(checker, () -> warm[0]);
            HealthExamples.deepCheck(checker, URI.create("http://127.0.0.1:1/health"));
            List<String> events = new ArrayList<>();
            HealthExamples.events(checker, events::add);

            assertThat(checker.liveness().checks()).extracting(c -> c.name())
                    .containsExactly("deadlocks", "heap", "main-loop");
            assertThat(checker.readiness().check("inventory").orElseThrow().status()).isEqualTo(HealthStatus.HEALTHY);
            breaker.transitionToOpen();
            assertThat(checker.readiness().status()).isEqualTo(HealthStatus.UNHEALTHY);
            assertThat(events).contains("readiness: HEALTHY -> UNHEALTHY");
            breaker.transitionToClosed();
            assertThat(checker.startup().status()).isEqualTo(HealthStatus.UNHEALTHY);
            warm[0] = true;
            assertThat(checker.startup().status()).isEqualTo(HealthStatus.HEALTHY);
            // the search engine is unreachable, but the deep check is non-critical: DEGRADED at worst
            assertThat(checker.deep().check("search").orElseThrow().critical()).isFalse();

            try (HealthEndpoint endpoint = HealthExamples.endpointForKubernetes(checker, 0, "t0ken")) {
                URI live = URI.create("http://127.0.0.1:" + endpoint.address().getPort() + "/health/live");
                HttpResponse<String> anonymous = client.send(HttpRequest.newBuilder(live).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(anonymous.statusCode()).isEqualTo(200);
                assertThat(anonymous.body()).doesNotContain("checks");
                HttpResponse<String> operator = client.send(HttpRequest.newBuilder(live)
                        .header("X-Health-Token", "t0ken").build(), HttpResponse.BodyHandlers.ofString());
                assertThat(operator.body()).contains("\"checks\"", "deadlocks");
            }

            Watchdog watchdog = HealthExamples.watchdog(checker, mainLoop);
            try {
                SimpleMeterRegistry registry = new SimpleMeterRegistry();
                HealthExamples.metrics(registry, checker, watchdog);
                assertThat(registry.find("levee.health.status").gauges()).isNotEmpty();
                assertThat(registry.find("levee.health.watchdog.samples").functionCounter()).isNotNull();
                assertThat(checker.checkNames(HealthLevel.READINESS)).contains("watchdog-orders");
            } finally {
                watchdog.close();
            }
            assertThat(HealthExamples.exitForSupervisor().maxActions()).isEqualTo(1);
        }
    }

    @Test
    void mountsOnAnExistingServer() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(2));
        server.start();
        try (HealthChecker checker = HealthChecker.ofDefaults("app");
                HealthEndpoint mounted = HealthExamples.mountOnExistingServer(server, checker)) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(mounted.uri(HealthLevel.READINESS)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("{\"level\":\"readiness\",\"status\":\"healthy\"}");
        } finally {
            server.stop(0);
            ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
        }
    }

    @Test
    void theDemoTellsTheSameStoryEveryRun() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        HealthDemo.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(out).contains(
                "4 of 4 calls failed:         readiness unhealthy HTTP 503  (inventory: circuit breaker open (unhealthy))",
                "10 s later, one probe:       readiness degraded  HTTP 200",
                "inventory  healthy   after     0 ms",
                "ledger     unhealthy after  5000 ms  timed out after PT5S",
                "1000 requests while it ran:   1 run",
                "1000 more within the TTL:     1 run",
                "1000 more after the TTL:      2 runs",
                "-> 200 {\"level\":\"readiness\",\"status\":\"healthy\"}",
                "-> 503 {\"level\":\"readiness\",\"status\":\"unhealthy\"}",
                "t= 25s heap 0.97 action 1 of 2, restart requested",
                "suppressed by the loop guard");
    }
}
