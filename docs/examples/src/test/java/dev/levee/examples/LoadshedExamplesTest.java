package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.core.RandomSource;
import dev.levee.core.ShedException;
import dev.levee.loadshed.ConcurrencyLimiter;
import dev.levee.loadshed.ConcurrencyLimiterConfig;
import dev.levee.loadshed.limit.FixedLimit;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LoadshedExamplesTest {

    private static HttpResponse<String> get(HttpServer server) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/work"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void serverAnswersAndShedsWith503WhenAtItsLimit() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ConcurrencyLimiter limiter = ConcurrencyLimiter.of("http", ConcurrencyLimiterConfig.builder()
                .algorithm(() -> FixedLimit.of(1)).build());
        HttpServer server = LoadshedExamples.startServer(0, limiter, () -> {
            inside.countDown();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "done";
        });
        try {
            var first = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return get(server);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(inside.await(60, TimeUnit.SECONDS)).isTrue();
            HttpResponse<String> shed = get(server);
            assertThat(shed.statusCode()).isEqualTo(503);
            assertThat(shed.headers().firstValue("X-Shed-Reason")).hasValue("concurrency_limit");
            assertThat(shed.headers().firstValue("Retry-After")).hasValue("1");
            release.countDown();
            assertThat(first.get(60, TimeUnit.SECONDS).body()).isEqualTo("done");
            // The slot is returned just after the response is written.
            await().atMost(60, TimeUnit.SECONDS).until(() -> limiter.inflight() == 0);
        } finally {
            release.countDown();
            server.stop(0);
        }
    }

    @Test
    void defaultServerServes() throws Exception {
        HttpServer server = LoadshedExamples.startServer(0, () -> "ok");
        try {
            assertThat(get(server).body()).isEqualTo("ok");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void outboundPipelineThrottlesADownstreamThatRefuses() {
        ManualTicker ticker = new ManualTicker();
        Pipeline inventory = LoadshedExamples.outbound(ticker, RandomSource.seeded(5));
        ShedException remote = new ShedException("inventory-server", "concurrency_limit", "503", 0L, null);
        int local = 0;
        for (int i = 0; i < 200; i++) {
            try {
                inventory.execute(() -> {
                    throw remote;
                });
            } catch (ShedException e) {
                if (e != remote) {
                    local++;
                }
            }
        }
        assertThat(local).as("refused locally, never sent").isGreaterThan(100);
    }

    @Test
    void partitionedAndPerTenant() {
        var p = LoadshedExamples.partitioned();
        assertThat(p.guaranteed("checkout")).isEqualTo(70);
        assertThat(p.partition("search").execute(() -> "results")).isEqualTo("results");
        var tenants = LoadshedExamples.perTenant();
        assertThat(tenants.execute("acme", () -> 1)).isEqualTo(1);
        assertThat(tenants.forKey("acme").name()).isEqualTo("tenants[acme]");
        assertThatThrownBy(() -> p.partition("admin")).isInstanceOf(IllegalArgumentException.class);
    }
}
