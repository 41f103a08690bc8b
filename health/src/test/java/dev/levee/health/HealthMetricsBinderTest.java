package dev.levee.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class HealthMetricsBinderTest {

    @Test
    void statusGaugesPerLevelAndPerCheckAndCheckLatency() {
        ManualTicker ticker = new ManualTicker();
        try (HealthChecker checker = HealthChecker.of("orders",
                HealthCheckerConfig.builder().ticker(ticker).scheduler(new ManualScheduler(ticker)).build())) {
            HealthCheckerTest.AtomicReferenceStatus db =
                    new HealthCheckerTest.AtomicReferenceStatus(HealthStatus.HEALTHY);
            checker.register(HealthLevel.READINESS, "db", () -> {
                ticker.advance(3_000_000L);
                return CheckResult.of(db.get(), null);
            });
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            new HealthMetricsBinder(checker).bindTo(registry);
            checker.register(HealthLevel.LIVENESS, "late", CheckResult::healthy); // registered after binding

            checker.readiness();
            db.set(HealthStatus.UNHEALTHY);
            checker.readiness();
            checker.liveness();

            assertThat(registry.get("levee.health.status").tags("name", "orders", "level", "readiness",
                    "state", "unhealthy").gauge().value()).isEqualTo(1.0);
            assertThat(registry.get("levee.health.status").tags("level", "readiness", "state", "healthy").gauge()
                    .value()).isEqualTo(0.0);
            assertThat(registry.get("levee.health.status").tags("level", "liveness", "state", "healthy").gauge()
                    .value()).isEqualTo(1.0);
            assertThat(registry.get("levee.health.check.status").tags("check", "db", "state", "unhealthy").gauge()
                    .value()).isEqualTo(1.0);
            assertThat(registry.get("levee.health.check.status").tags("check", "late", "state", "healthy").gauge()
                    .value()).isEqualTo(1.0);
            var healthy = registry.get("levee.health.check.latency").tags("check", "db", "outcome", "healthy").timer();
            assertThat(healthy.count()).isEqualTo(1);
            assertThat(healthy.totalTime(java.util.concurrent.TimeUnit.MILLISECONDS)).isEqualTo(3.0);
            assertThat(registry.get("levee.health.check.latency").tags("check", "db", "outcome", "unhealthy").timer()
                    .count()).isEqualTo(1);
            assertThat(registry.get("levee.health.check.runs").functionCounter().count()).isEqualTo(3.0);
        }
    }
}
