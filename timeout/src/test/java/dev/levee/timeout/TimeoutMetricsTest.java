package dev.levee.timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ManualTicker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The Micrometer binder on a SimpleMeterRegistry. */
@SuppressWarnings("try") // scopes are opened for their effect on the current deadline
class TimeoutMetricsTest {

    @Test
    void bindsCallsTimeoutsEffectiveTimeoutAndHeaders() throws Exception {
        ManualTicker ticker = new ManualTicker();
        Timeout timeout = Timeout.of("payments", TimeoutConfig.builder().timeout(Duration.ofMillis(250))
                .mode(TimeoutMode.COOPERATIVE).ticker(ticker).build());
        DeadlinePropagation propagation = DeadlinePropagation.builder().ticker(ticker).build();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new TimeoutMetricsBinder(timeout).withPropagation("inbound", propagation).bindTo(registry);

        timeout.execute(() -> "ok");
        timeout.execute(() -> "ok");
        assertThatThrownBy(() -> timeout.execute(() -> {
            throw new IllegalStateException();
        }));
        assertThatThrownBy(() -> timeout.execute(() -> {
            ticker.advance(300_000_000L);
            Timeout.checkpoint();
            return "late";
        }));
        propagation.decodeNanos("100m");
        propagation.decodeNanos("-1m");
        propagation.decodeNanos("junk");
        propagation.decodeNanos(null);
        propagation.decodeNanos("2H"); // accepted, and clamped to the 30 s local maximum
        assertThatThrownBy(() -> propagation.acceptIncoming("50m")) // under the 100 ms minimum: refused
                .isInstanceOf(dev.levee.core.DeadlineExceededException.class);

        assertThat(registry.get("levee.timeout.calls").tags("name", "payments", "outcome", "success")
                .functionCounter().count()).isEqualTo(2.0);
        assertThat(registry.get("levee.timeout.calls").tags("outcome", "failure").functionCounter().count())
                .isEqualTo(1.0);
        assertThat(registry.get("levee.timeout.calls").tags("outcome", "timeout").functionCounter().count())
                .isEqualTo(1.0);
        assertThat(registry.get("levee.timeout.calls").tags("outcome", "rejected").functionCounter().count())
                .isZero();
        assertThat(registry.get("levee.timeout.timeouts").tags("name", "payments").functionCounter().count())
                .isEqualTo(1.0);
        assertThat(registry.get("levee.timeout.effective").gauge().value()).isEqualTo(0.25);
        assertThat(registry.get("levee.timeout.effective").gauge().getId().getBaseUnit()).isEqualTo("seconds");
        assertThat(registry.get("levee.timeout.headers").tags("name", "inbound", "outcome", "accepted")
                .functionCounter().count()).isEqualTo(3.0);
        assertThat(registry.get("levee.timeout.headers").tags("outcome", "clamped").functionCounter().count())
                .isEqualTo(1.0);
        assertThat(registry.get("levee.timeout.headers").tags("outcome", "refused").functionCounter().count())
                .isEqualTo(1.0);
        assertThat(registry.get("levee.timeout.headers").tags("outcome", "missing").functionCounter().count())
                .isEqualTo(1.0);
        assertThat(registry.get("levee.timeout.headers.ignored").tags("kind", "negative").functionCounter().count())
                .isEqualTo(1.0);
        assertThat(registry.get("levee.timeout.headers.ignored").tags("kind", "malformed").functionCounter().count())
                .isEqualTo(1.0);
        assertThat(registry.get("levee.timeout.headers.ignored").tags("kind", "absurd").functionCounter().count())
                .isZero();
    }

    @Test
    void withoutAPropagationNoHeaderMetersAreRegistered() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new TimeoutMetricsBinder(Timeout.of("timeout", Duration.ofSeconds(1))).bindTo(registry);
        assertThat(registry.find("levee.timeout.headers").meters()).isEmpty();
        assertThat(registry.find("levee.timeout.calls").meters()).hasSize(5);
    }

    @SuppressWarnings("CheckReturnValue") // calls made only to move the counters; their outcome is read from the meters
    @Test
    void refusalsAreCountedInTheSharedRejectionMeterByKindAndInTheSnapshot() {
        dev.levee.core.ManualTicker ticker = new dev.levee.core.ManualTicker();
        Timeout timeout = Timeout.of("db", TimeoutConfig.builder().timeout(Duration.ofSeconds(1))
                .mode(TimeoutMode.COOPERATIVE).ticker(ticker).build());
        Timeout full = Timeout.of("full", TimeoutConfig.builder().timeout(Duration.ofSeconds(1))
                .executor(task -> {
                    throw new java.util.concurrent.RejectedExecutionException("no");
                }).ticker(ticker).scheduler(new dev.levee.core.ManualScheduler(ticker)).build());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new TimeoutMetricsBinder(java.util.List.of(timeout, full)).bindTo(registry);

        try (dev.levee.core.ContextScope s = dev.levee.core.Deadline.afterNanos(0, ticker).attach()) {
            org.assertj.core.api.Assertions.assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> timeout.execute(() -> "x"))).isNotNull();
        }
        org.assertj.core.api.Assertions.assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> full.execute(() -> "x"))).isNotNull();
        timeout.execute(() -> "ok");

        assertThat(registry.get("levee.timeout.rejected").tags("name", "db", "kind", "deadline_exceeded")
                .functionCounter().count()).isEqualTo(1.0);
        assertThat(registry.get("levee.timeout.rejected").tags("name", "full", "kind", "bulkhead_full")
                .functionCounter().count()).isEqualTo(1.0);
        assertThat(timeout.metrics()).isEqualTo(new TimeoutMetrics(1, 0, 0, 1, 0, 0, 1_000_000_000L));
        assertThat(full.metrics().executorRejected()).isEqualTo(1);
        assertThat(timeout.metrics().calls()).isEqualTo(2);
    }
}
