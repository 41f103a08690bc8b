package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.levee.core.ManualTicker;
import dev.levee.idempotency.IdempotencyGuard;
import dev.levee.idempotency.IdempotencyResult;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class IdempotencyExamplesTest {

    @Test
    void theGuardWithoutHttpChargesOnce() throws Exception {
        IdempotencyGuard guard = IdempotencyExamples.deterministic(new ManualTicker());
        IdempotencyExamples.Charges charges = new IdempotencyExamples.Charges();
        byte[] body = "10".getBytes(StandardCharsets.UTF_8);
        assertThat(IdempotencyExamples.chargeOnce(guard, charges, "shop", "k", body).kind()).isEqualTo(IdempotencyResult.Kind.EXECUTED);
        assertThat(IdempotencyExamples.chargeOnce(guard, charges, "shop", "k", body).kind()).isEqualTo(IdempotencyResult.Kind.REPLAYED);
        assertThat(charges.made()).isEqualTo(1);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        IdempotencyExamples.metrics(guard, registry);
        assertThat(registry.get("levee.idempotency.replays").functionCounter().count()).isEqualTo(1);
    }

    @Test
    void theConfiguredGuardBuilds() {
        assertThat(IdempotencyExamples.configured().config().maxWait()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void theHttpServerChargesOnceAndMarksTheReplay() throws Exception {
        IdempotencyExamples.Charges charges = new IdempotencyExamples.Charges();
        HttpServer server = IdempotencyExamples.httpServer(IdempotencyGuard.ofDefaults("charges"), charges);
        try {
            HttpClient client = HttpClient.newHttpClient();
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/charges"))
                    .header("Idempotency-Key", "order-7").header("X-Tenant", "shop")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"amount\":10}")).build();
            HttpResponse<String> first = client.send(request, HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> retry = client.send(request, HttpResponse.BodyHandlers.ofString());
            assertThat(first.statusCode()).isEqualTo(201);
            assertThat(retry.body()).isEqualTo(first.body());
            assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
            assertThat(charges.made()).isEqualTo(1);
        } finally {
            server.stop(0);
        }
    }
}
