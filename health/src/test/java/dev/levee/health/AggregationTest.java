package dev.levee.health;

import static dev.levee.health.HealthStatus.DEGRADED;
import static dev.levee.health.HealthStatus.HEALTHY;
import static dev.levee.health.HealthStatus.UNHEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AggregationTest {

    private static CheckResult r(HealthStatus s, boolean critical) {
        return new CheckResult("c", s, null, 0, Map.of(), critical);
    }

    @Test
    void noChecksIsHealthy() {
        assertThat(HealthReport.aggregate(List.of())).isEqualTo(HEALTHY);
    }

    @Test
    void anyUnhealthyIsUnhealthyElseAnyDegradedIsDegraded() {
        assertThat(HealthReport.aggregate(List.of(r(HEALTHY, true), r(HEALTHY, true)))).isEqualTo(HEALTHY);
        assertThat(HealthReport.aggregate(List.of(r(HEALTHY, true), r(DEGRADED, true)))).isEqualTo(DEGRADED);
        assertThat(HealthReport.aggregate(List.of(r(DEGRADED, true), r(UNHEALTHY, true), r(HEALTHY, true))))
                .isEqualTo(UNHEALTHY);
        assertThat(HealthReport.aggregate(List.of(r(UNHEALTHY, true), r(DEGRADED, true)))).isEqualTo(UNHEALTHY);
    }

    @Test
    void aNonCriticalUnhealthyCountsAsDegraded() {
        assertThat(HealthReport.aggregate(List.of(r(HEALTHY, true), r(UNHEALTHY, false)))).isEqualTo(DEGRADED);
        assertThat(HealthReport.aggregate(List.of(r(UNHEALTHY, false), r(UNHEALTHY, true)))).isEqualTo(UNHEALTHY);
        assertThat(r(UNHEALTHY, false).effectiveStatus()).isEqualTo(DEGRADED);
        assertThat(r(DEGRADED, false).effectiveStatus()).isEqualTo(DEGRADED);
        assertThat(r(UNHEALTHY, true).effectiveStatus()).isEqualTo(UNHEALTHY);
    }

    @Test
    void servingStatusesAreHealthyAndDegraded() {
        assertThat(HEALTHY.isServing()).isTrue();
        assertThat(DEGRADED.isServing()).isTrue();
        assertThat(UNHEALTHY.isServing()).isFalse();
        assertThat(HealthStatus.worst(DEGRADED, HEALTHY)).isEqualTo(DEGRADED);
        assertThat(HealthStatus.worst(DEGRADED, UNHEALTHY)).isEqualTo(UNHEALTHY);
    }

    @Test
    void resultBuildersKeepDetailsInOrderAndUnmodifiable() {
        CheckResult r = CheckResult.degraded("slow").withDetail("b", 1).withDetail("a", "x").withName("db");
        assertThat(r.details().keySet()).containsExactly("b", "a");
        assertThat(r.name()).isEqualTo("db");
        assertThat(r.status()).isEqualTo(DEGRADED);
        assertThat(r.message()).isEqualTo("slow");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> r.details().put("c", 2))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aReportFindsItsChecksByName() {
        HealthReport report = new HealthReport(HealthLevel.READINESS, HEALTHY, java.time.Instant.EPOCH,
                List.of(CheckResult.healthy().withName("a")));
        assertThat(report.check("a")).isPresent();
        assertThat(report.check("b")).isEmpty();
    }
}
