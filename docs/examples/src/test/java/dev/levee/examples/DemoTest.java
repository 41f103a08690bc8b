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
        assertThat(output).contains("1000 requests made 1300 downstream calls", "status 404: 1 attempt(s)");
        assertThat(output).contains("=== Load shedding");
        assertThat(output).contains("=== Calls across replicas", "ejected b for 30 s (consecutive_failures)",
                "2 of 5 unhealthy: panic false", "3 of 5 unhealthy: panic true");
        assertThat(output).contains("limit 100 -50ms-> 101 -250ms-> 75 -150ms-> 75 -250ms-> 56");
        assertThat(output).contains("checkout arrives (first request refused: true), and as search completes: checkout 7, search 3");
        assertThat(output).containsPattern("without a limit: [0-9]+ answered in time, [0-9]+ answered too late");
        assertThat(output).contains("backend recovers: local refusals stop after");
        assertThat(output).contains("Gradient limit:  9999 answered in time, 0 answered too late");
        // load shedding, part II (deterministic: manual time)
        assertThat(output).contains("=== Load shedding");
        assertThat(output).contains("=== Calls across replicas", "ejected b for 30 s (consecutive_failures)",
                "2 of 5 unhealthy: panic false", "3 of 5 unhealthy: panic true");
        assertThat(output).contains("served in order: r0 r39 r38 r37");
        assertThat(output).contains("dropped by CoDel: r1 r2 r3 (3)");
        assertThat(output).contains("load 0.91 -> minimum weight  75, levels . . . . . . . 8 9 10");
        assertThat(output).contains("cpu 0.91: cpu_high:0.91");
        assertThat(output).contains("=== Chaos").containsPattern("injected [0-9]+ faults into 10000 calls; [0-9]+ succeeded .*: hypothesis holds");
        assertThat(output).contains("HTTP 503 {Retry-After=5, X-Shed-Reason=queue_full}");
        assertThat(output).contains("priority 5: low_priority_shed, priority 7: admitted");
        assertThat(output).contains("'5'                    -> ignored, remaining 30000 ms, admitted");
        // Graceful degradation: cached, then static, then fresh again after the outage.
        assertThat(output).contains("=== Graceful degradation");
        assertThat(output).contains("t=04s DOWN  error         -> fresh page v3   [degraded, tier cached]");
        assertThat(output).contains("t=09s DOWN  circuit_open  -> static page (catalogue temporarily unavailable)   [degraded, tier static]");
        assertThat(output).contains("t=19s up    ok            -> fresh page v19");
        assertThat(output).contains("answered: 1000 of 1000 with one database load; keys left in flight: 0");
        assertThat(output).contains("load 0.75: level 1 recs off reviews on");
        // Idempotency: deterministic (manual time, seeded tokens); the burst uses real threads, counts only.
        assertThat(output).contains("=== Idempotency",
                "retry, same key (response was lost) -> REPLAYED 201 {\"id\":\"ch_1\",\"request\":10} [Idempotent-Replayed: true]",
                "same key, another amount {99 EUR}   -> MISMATCH 422",
                "duplicate while k-2 runs (15 s in)  -> IN_PROGRESS 409", "[Retry-After: 45]",
                "60 s later, the lease has lapsed    -> EXECUTED 201 {\"id\":\"ch_5\",\"request\":30} (lease takeovers: 1)",
                "no key                              -> BAD_KEY 400 Idempotency-Key missing.",
                "store down, fail closed (default)   -> STORE_UNAVAILABLE 503",
                "charges made: 6 ",
                "100 concurrent duplicates (waiting mode): 1 charge, 1 distinct response");
        assertThat(output).contains("GET /health/ready -> 503 {\"level\":\"readiness\",\"status\":\"unhealthy\"}");
    }
}
