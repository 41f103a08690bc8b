package dev.levee.timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Issue 11: factories, nameless configs, errors naming the policy, fractions. */
class TimeoutConventionTest {

    @Test
    void factoriesTakeTheNameBesideANamelessSharedConfig() {
        TimeoutConfig shared = TimeoutConfig.builder().timeout(Duration.ofSeconds(2)).build();
        assertThat(Timeout.of("a", shared).config()).isSameAs(Timeout.of("b", shared).config());
        assertThat(Timeout.ofDefaults("d").config()).isSameAs(TimeoutConfig.defaults());
        assertThat(AdaptiveTimeout.ofDefaults("search").name()).isEqualTo("search");
        assertThat(AdaptiveTimeout.of("s", AdaptiveTimeoutConfig.defaults()).config().percentile()).isEqualTo(0.99);
        assertThat(TimeoutBudget.ofDefaults("checkout").name()).isEqualTo("checkout");
        AdaptiveTimeoutConfig c = AdaptiveTimeoutConfig.builder().percentile(0.9).minTimeout(Duration.ofMillis(5))
                .build();
        assertThat(c.toBuilder().build().toString()).isEqualTo(c.toString());
        TimeoutBudgetConfig b = TimeoutBudgetConfig.builder().weights(1, 2).build();
        assertThat(b.toBuilder().build().toString()).isEqualTo(b.toString());
    }

    @Test
    void blankNamesAndNullConfigsAreConfigErrorsNamingThePolicy() {
        assertThatThrownBy(() -> Timeout.of(" ", TimeoutConfig.defaults())).isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("Timeout");
        assertThatThrownBy(() -> Timeout.of("t", (TimeoutConfig) null)).isInstanceOf(InvalidConfigException.class)
                .hasMessage("Timeout 't': config must be set (not null) but was null");
        assertThatThrownBy(() -> AdaptiveTimeout.of("a", null)).isInstanceOf(InvalidConfigException.class)
                .hasMessage("AdaptiveTimeout 'a': config must be set (not null) but was null");
        assertThatThrownBy(() -> TimeoutBudget.of("b", null)).isInstanceOf(InvalidConfigException.class)
                .hasMessage("TimeoutBudget 'b': config must be set (not null) but was null");
        assertThatThrownBy(() -> TimeoutConfig.builder().timeout(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageStartingWith("Timeout: timeout");
    }

    @Test
    void aPercentileOnThePercentScaleIsRefusedWithAMessageThatSaysSo() {
        assertThatThrownBy(() -> AdaptiveTimeoutConfig.builder().percentile(99).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("AdaptiveTimeout: percentile must be a fraction in (0, 1) (99.0 looks like a percent: "
                        + "write 0.99) but was 99.0");
    }
}
