package dev.levee.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.bulkhead.Bulkhead;
import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.circuitbreaker.CircuitState;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The dependency check driven by a real CircuitBreaker and a real Bulkhead. */
class DependencyCheckTest {
    private final ManualTicker ticker = new ManualTicker(5_000_000_000L);
    private final HealthChecker checker = HealthChecker.of("deps",
            HealthCheckerConfig.builder().ticker(ticker).scheduler(new ManualScheduler(ticker)).build());

    @AfterEach
    void close() {
        checker.close();
    }

    private HealthReport ready() {
        return checker.readiness();
    }

    @Test
    void followsARealCircuitBreakerThroughItsStates() {
        CircuitBreaker breaker = CircuitBreaker.of("inventory", CircuitBreakerConfig.builder()
                .countWindow(4).minimumNumberOfCalls(4).failureRateThreshold(0.5)
                .waitDurationInOpen(Duration.ofSeconds(10)).permittedCallsInHalfOpen(1).ticker(ticker).build());
        checker.register(HealthLevel.READINESS, "inventory",
                DependencyCheck.builder("inventory").circuitBreaker(breaker::state).build());

        assertThat(ready().status()).isEqualTo(HealthStatus.HEALTHY);

        for (int i = 0; i < 4; i++) {
            assertThat(breaker.tryAcquire(ticker.read())).isTrue();
            breaker.onFailure(1_000_000L, new IOException("503"));
        }
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        HealthReport open = ready();
        assertThat(open.status()).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(open.checks().get(0).message()).isEqualTo("inventory: circuit breaker open (unhealthy)");
        assertThat(open.checks().get(0).details()).containsEntry("circuit_breaker", "open");

        ticker.advance(Duration.ofSeconds(10));
        assertThat(breaker.tryAcquire(ticker.read())).isTrue(); // the probe: HALF_OPEN
        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
        assertThat(ready().status()).isEqualTo(HealthStatus.DEGRADED);

        breaker.onSuccess(1_000_000L);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(ready().status()).isEqualTo(HealthStatus.HEALTHY);

        breaker.transitionToForcedOpen();
        assertThat(ready().status()).isEqualTo(HealthStatus.UNHEALTHY);
        breaker.transitionToDisabled();
        assertThat(ready().status()).isEqualTo(HealthStatus.HEALTHY);
    }

    @Test
    void followsARealBulkheadsSaturation() {
        Bulkhead bulkhead = Bulkhead.of("inventory", 5);
        checker.register(HealthLevel.READINESS, "inventory-pool", DependencyCheck.builder("inventory")
                .saturation(() -> bulkhead.activeCount() / (double) bulkhead.maxConcurrentCalls()).build());

        for (int i = 0; i < 3; i++) {
            assertThat(bulkhead.tryAcquire(ticker.read())).isTrue();
        }
        assertThat(ready().status()).isEqualTo(HealthStatus.HEALTHY); // 0.6
        assertThat(bulkhead.tryAcquire(ticker.read())).isTrue();
        HealthReport busy = ready(); // 0.8
        assertThat(busy.status()).isEqualTo(HealthStatus.DEGRADED);
        assertThat(busy.checks().get(0).details()).containsEntry("saturation", 0.8);
        assertThat(bulkhead.tryAcquire(ticker.read())).isTrue();
        assertThat(ready().status()).isEqualTo(HealthStatus.UNHEALTHY); // full
        assertThat(bulkhead.tryAcquire(ticker.read())).isFalse();

        bulkhead.onSuccess(1L);
        bulkhead.onSuccess(1L);
        assertThat(ready().status()).isEqualTo(HealthStatus.HEALTHY); // 0.6 again
    }

    @Test
    void breakerAndBulkheadTogetherReportTheWorse() {
        CircuitBreaker breaker = CircuitBreaker.of("payments", CircuitBreakerConfig.builder().ticker(ticker).build());
        Bulkhead bulkhead = Bulkhead.of("payments", 2);
        checker.register(HealthLevel.READINESS, "payments", DependencyCheck.builder("payments")
                .circuitBreaker(breaker::state)
                .saturation(() -> bulkhead.activeCount() / (double) bulkhead.maxConcurrentCalls())
                .build());
        assertThat(bulkhead.tryAcquire(ticker.read())).isTrue();
        assertThat(bulkhead.tryAcquire(ticker.read())).isTrue();
        breaker.transitionToHalfOpen();
        CheckResult r = ready().checks().get(0);
        assertThat(r.status()).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(r.message()).isEqualTo(
                "payments: circuit breaker half_open (degraded), saturation 1.000 (unhealthy)");
    }

    @Test
    void rejectionRateErrorRateAndLatencyAgainstThresholds() {
        double[] rejection = {0.0};
        double[] errors = {0.0};
        AtomicLong p99 = new AtomicLong(Duration.ofMillis(50).toNanos());
        DependencyCheck check = DependencyCheck.builder("search")
                .rejectionRate(() -> rejection[0])
                .errorRate(() -> errors[0], Thresholds.above(0.05, 0.2))
                .latency(p99::get, Duration.ofMillis(200), Duration.ofSeconds(1))
                .build();
        assertThat(check.check().status()).isEqualTo(HealthStatus.HEALTHY);
        rejection[0] = 0.1;
        assertThat(check.check().status()).isEqualTo(HealthStatus.DEGRADED);
        rejection[0] = 0.5;
        assertThat(check.check().status()).isEqualTo(HealthStatus.UNHEALTHY);
        rejection[0] = 0.0;
        errors[0] = 0.05;
        assertThat(check.check().status()).isEqualTo(HealthStatus.DEGRADED);
        errors[0] = 0.2;
        assertThat(check.check().status()).isEqualTo(HealthStatus.UNHEALTHY);
        errors[0] = 0.0;
        p99.set(Duration.ofMillis(200).toNanos());
        assertThat(check.check().status()).isEqualTo(HealthStatus.DEGRADED);
        p99.set(Duration.ofSeconds(1).toNanos());
        CheckResult slow = check.check();
        assertThat(slow.status()).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(slow.details()).containsEntry("latency_ms", 1000.0);
    }

    @Test
    void theStateMappingIsOneSmallFunction() {
        for (CircuitState s : CircuitState.values()) {
            HealthStatus expected = s == CircuitState.OPEN || s == CircuitState.FORCED_OPEN ? HealthStatus.UNHEALTHY
                    : s == CircuitState.HALF_OPEN ? HealthStatus.DEGRADED : HealthStatus.HEALTHY;
            assertThat(DependencyCheck.breakerStatus(s.name())).as(s.name()).isEqualTo(expected);
        }
        assertThat(DependencyCheck.breakerStatus("something_new")).isEqualTo(HealthStatus.DEGRADED);
        assertThat(DependencyCheck.breakerStatus("open")).isEqualTo(HealthStatus.UNHEALTHY);
    }
}
