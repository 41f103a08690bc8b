package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class MetricsExamplesTest {

    @Test
    void everyPolicysMetersAppearAndTheTimersRecord() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        assertThat(MetricsExamples.bindEverything(meters, new ManualTicker())).isEqualTo("shipped");

        assertThat(meters.find("levee.circuitbreaker.state").tag("name", "orders").meters()).isNotEmpty();
        assertThat(meters.find("levee.retry.calls").tag("name", "orders").meters()).isNotEmpty();
        assertThat(meters.find("levee.ratelimiter.rejected").tag("name", "orders").meters()).isNotEmpty();
        assertThat(meters.find("levee.bulkhead.active").tag("name", "orders").meters()).isNotEmpty();
        assertThat(meters.find("levee.timeout.calls").tag("name", "orders").meters()).isNotEmpty();
        assertThat(meters.get("levee.circuitbreaker.latency").tags("name", "orders", "outcome", "success").timer().count())
                .isEqualTo(1);
        assertThat(meters.get("levee.bulkhead.latency").tags("name", "orders", "outcome", "success").timer().count())
                .isEqualTo(1);
    }
}
