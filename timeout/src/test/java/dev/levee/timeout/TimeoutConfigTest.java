package dev.levee.timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.Scheduler;
import dev.levee.core.Ticker;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every TimeoutConfig field: default and bound (effects are tested in the behaviour tests). */
class TimeoutConfigTest {
    private static final String P = "Timeout: ";

    @Test
    void defaults() {
        TimeoutConfig c = TimeoutConfig.defaults();
        assertThat(c.timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.timeoutNanos()).isEqualTo(5_000_000_000L);
        assertThat(c.mode()).isEqualTo(TimeoutMode.THREAD);
        assertThat(c.executor()).isSameAs(TimeoutExecutors.defaultExecutor());
        assertThat(c.interruptOnTimeout()).isTrue();
        assertThat(c.reserve()).isZero();
        assertThat(c.minimumRemaining()).isEqualTo(Duration.ofMillis(1));
        assertThat(c.adaptive()).isNull();
        assertThat(c.propagators()).isEmpty();
        assertThat(c.ticker()).isSameAs(Ticker.system());
        assertThat(c.scheduler()).isSameAs(Scheduler.system());
    }

    @Test
    void bounds() {
        assertThatThrownBy(() -> TimeoutConfig.of(Duration.ZERO)).isInstanceOf(InvalidConfigException.class)
                .hasMessage(P + "timeout must be > 0 but was PT0S");
        assertThatThrownBy(() -> TimeoutConfig.builder().timeout(null).build())
                .hasMessage(P + "timeout must be set (not null) but was null");
        assertThatThrownBy(() -> TimeoutConfig.builder().mode(null).build())
                .hasMessage(P + "mode must be set (not null) but was null");
        assertThatThrownBy(() -> TimeoutConfig.builder().reserve(Duration.ofMillis(-1)).build())
                .hasMessage(P + "reserve must be >= 0 but was PT-0.001S");
        assertThatThrownBy(() -> TimeoutConfig.builder().minimumRemaining(Duration.ofMillis(-1)).build())
                .hasMessage(P + "minimumRemaining must be >= 0 but was PT-0.001S");
        assertThatThrownBy(() -> TimeoutConfig.builder().timeout(Duration.ofMillis(10))
                .minimumRemaining(Duration.ofMillis(11)).build())
                .hasMessage(P + "minimumRemaining must be <= timeout (PT0.01S) but was PT0.011S");
        assertThatThrownBy(() -> TimeoutConfig.builder().ticker(null).build())
                .hasMessage(P + "ticker must be set (not null) but was null");
        assertThatThrownBy(() -> TimeoutConfig.builder().scheduler(null).build())
                .hasMessage(P + "scheduler must be set (not null) but was null");
        assertThatThrownBy(() -> TimeoutConfig.builder().executor(null)).isInstanceOf(InvalidConfigException.class).hasMessageContaining("executor");
        assertThatThrownBy(() -> TimeoutConfig.builder().propagators(null)).isInstanceOf(InvalidConfigException.class).hasMessageContaining("propagators");
        TimeoutConfig.builder().timeout(Duration.ofNanos(1)).minimumRemaining(Duration.ofNanos(1)).build();
    }

    @Test
    void toBuilderKeepsEveryValue() {
        AdaptiveTimeout adaptive = AdaptiveTimeout.ofDefaults("adaptive");
        TimeoutConfig c = TimeoutConfig.builder().timeout(Duration.ofMillis(300)).mode(TimeoutMode.COOPERATIVE)
                .interruptOnTimeout(false).reserve(Duration.ofMillis(20)).minimumRemaining(Duration.ofMillis(5))
                .adaptive(adaptive).propagators(List.of()).executor(Runnable::run).build();
        TimeoutConfig copy = c.toBuilder().build();
        assertThat(copy.timeout()).isEqualTo(c.timeout());
        assertThat(copy.mode()).isEqualTo(TimeoutMode.COOPERATIVE);
        assertThat(copy.interruptOnTimeout()).isFalse();
        assertThat(copy.reserveNanos()).isEqualTo(20_000_000L);
        assertThat(copy.minimumRemainingNanos()).isEqualTo(5_000_000L);
        assertThat(copy.adaptive()).isSameAs(adaptive);
        assertThat(copy.executor()).isSameAs(c.executor());
        assertThat(copy.toString()).contains("COOPERATIVE");
    }

    @Test
    void policyNameIsValidatedAndTheRegistryCreatesByName() {
        assertThatThrownBy(() -> Timeout.of(" ", TimeoutConfig.defaults()))
                .hasMessage("Timeout: name must be a non-blank string but was ' '");
        var registry = Timeout.registry(TimeoutConfig.of(Duration.ofMillis(700)));
        Timeout payments = registry.get("payments");
        assertThat(payments.name()).isEqualTo("payments");
        assertThat(payments.config().timeout()).isEqualTo(Duration.ofMillis(700));
        assertThat(registry.get("payments")).isSameAs(payments);
        assertThat(Timeout.of("timeout", Duration.ofSeconds(1)).name()).isEqualTo("timeout");
    }
}
