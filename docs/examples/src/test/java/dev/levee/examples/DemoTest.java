package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The demo and the docs' examples run in the build, so the README's run command keeps working. */
class DemoTest {

    @Test
    void demoRunsEverySection() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Demo.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String output = bytes.toString(StandardCharsets.UTF_8);

        assertThat(output).contains("=== Core", "=== Circuit breaker", "=== Retry", "=== Rate limiters",
                "=== Bulkheads", "=== Timeouts", "=== Health checks");
        // The headline pipeline story is deterministic (manual time, seeded randomness).
        assertThat(output).contains("request 12 [outage]: failed   inventory: 503 Service Unavailable");
        assertThat(output).contains("request 14 [outage]: rejected circuit_open by inventory");
        assertThat(output).contains("26 ok, 1 failed after retries, 13 refused by a policy");
        assertThat(output).contains("pipeline result: 42 items");
        assertThat(output).contains("worker sees a deadline: true");
        assertThat(output).contains("tenant a twice is one gate: true");
        assertThat(output).contains("GET /health/ready -> 503 {\"level\":\"readiness\",\"status\":\"unhealthy\"}");
    }
}
