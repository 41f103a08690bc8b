package dev.levee.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IdempotencyGuardMetricsBinderTest {

    @Test
    void theMetersReadTheGuardsCounters() throws Exception {
        IdempotencyGuard guard = IdempotencyGuard.ofDefaults("charges");
        IdempotencyRequest post = new IdempotencyRequest("POST", "/charges", new byte[] {1});
        GuardedHandler ok = () -> StoredResponse.of(201, Map.of(), new byte[0]);
        guard.handle("t", "k", post, ok);
        guard.handle("t", "k", post, ok);
        guard.handle("t", "k", new IdempotencyRequest("POST", "/charges", new byte[] {2}), ok);
        guard.handle("t", "", post, ok);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new IdempotencyGuardMetricsBinder(List.of(guard)).bindTo(registry);
        assertThat(registry.get("levee.idempotency.claims").tag("name", "charges").functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("levee.idempotency.stored").functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("levee.idempotency.replays").functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("levee.idempotency.rejected").tag("kind", "mismatch").functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("levee.idempotency.rejected").tag("kind", "bad_key").functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("levee.idempotency.rejected").tag("kind", "in_progress").functionCounter().count()).isZero();
        assertThat(registry.get("levee.idempotency.store.available").gauge().value()).isEqualTo(1);
        assertThat(registry.get("levee.idempotency.expiries").functionCounter().count()).isZero();
        assertThat(registry.get("levee.idempotency.store.errors").functionCounter().count()).isZero();
        assertThat(registry.getMeters()).hasSize(12);
    }

    @Test
    void theVarargsConstructorBindsEachGuard() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new IdempotencyGuardMetricsBinder(IdempotencyGuard.ofDefaults("a"), IdempotencyGuard.ofDefaults("b")).bindTo(registry);
        assertThat(registry.find("levee.idempotency.claims").functionCounters()).hasSize(2);
    }
}
