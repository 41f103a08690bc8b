package dev.levee.loadshed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.core.ShedException;
import dev.levee.loadshed.limit.FixedLimit;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetricsBinderTest {

    @Test
    void limiterMetersReadTheLimiter() {
        ManualTicker ticker = new ManualTicker();
        ConcurrencyLimiter l = ConcurrencyLimiter.of("api", ConcurrencyLimiterConfig.builder()
                .algorithm(() -> FixedLimit.of(2)).ticker(ticker).build());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new ConcurrencyLimiterMetricsBinder(List.of(l)).bindTo(registry);
        assertThat(l.tryAcquire(0)).isTrue();
        assertThat(l.tryAcquire(0)).isTrue();
        assertThat(l.tryAcquire(0)).isFalse();
        l.onFailure(1, new IllegalStateException());
        assertThat(registry.get("levee.loadshed.limit").tag("name", "api").gauge().value()).isEqualTo(2.0);
        assertThat(registry.get("levee.loadshed.inflight").tag("name", "api").gauge().value()).isEqualTo(1.0);
        assertThat(registry.get("levee.loadshed.waiting").tag("name", "api").gauge().value()).isZero();
        assertThat(registry.get("levee.loadshed.rejected").tags("name", "api", "kind", "shed", "reason",
                "concurrency_limit").functionCounter().count()).isEqualTo(1.0);
        assertThat(registry.get("levee.loadshed.drops").tag("name", "api").functionCounter().count()).isEqualTo(1.0);
    }

    @Test
    void throttleMetersReadTheThrottle() {
        ManualTicker ticker = new ManualTicker();
        double[] coin = {0.999_999};
        ClientThrottle t = ClientThrottle.of("inventory", ClientThrottleConfig.builder().random(() -> coin[0])
                .ticker(ticker).build());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new ClientThrottleMetricsBinder(t).bindTo(registry);
        for (int i = 0; i < 3; i++) {
            assertThat(t.tryAcquire(ticker.read())).isTrue();
            t.onFailure(1, new ShedException("backend", "concurrency_limit", "503", 0L, null));
        }
        coin[0] = 0;
        assertThat(t.tryAcquire(ticker.read())).isFalse();
        assertThat(registry.get("levee.loadshed.rejected").tags("name", "inventory", "reason", "client_throttle")
                .functionCounter().count()).isEqualTo(1.0);
        assertThat(registry.get("levee.loadshed.throttle.probability").gauge().value()).isEqualTo(0.75);
        assertThat(registry.get("levee.loadshed.throttle.requests").gauge().value()).isEqualTo(3.0);
        assertThat(registry.get("levee.loadshed.throttle.accepts").gauge().value()).isZero();
    }
}
