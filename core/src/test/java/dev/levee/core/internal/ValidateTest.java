package dev.levee.core.internal;

import dev.levee.core.InvalidConfigException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ValidateTest {
    private static final String P = Validate.describe("CircuitBreaker", "payments");

    @Test
    void messagesNamePolicyFieldBoundAndValue() {
        assertThatThrownBy(() -> Validate.inRange(P, "failureRateThreshold", 150.0, 0.0, 100.0))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("CircuitBreaker 'payments': failureRateThreshold must be in [0.0, 100.0] but was 150.0");
        assertThatThrownBy(() -> Validate.positive(P, "windowSize", 0L))
                .hasMessage("CircuitBreaker 'payments': windowSize must be > 0 but was 0");
        assertThatThrownBy(() -> Validate.positive(P, "rate", Double.NaN))
                .hasMessage("CircuitBreaker 'payments': rate must be > 0 and finite but was NaN");
        assertThatThrownBy(() -> Validate.nonNegative(P, "maxWait", -1L))
                .hasMessage("CircuitBreaker 'payments': maxWait must be >= 0 but was -1");
        assertThatThrownBy(() -> Validate.inRange(P, "probes", 0L, 1L, 10L))
                .hasMessage("CircuitBreaker 'payments': probes must be in [1, 10] but was 0");
        assertThatThrownBy(() -> Validate.positive(P, "wait", Duration.ofSeconds(-1)))
                .hasMessage("CircuitBreaker 'payments': wait must be > 0 but was PT-1S");
        assertThatThrownBy(() -> Validate.nonNegative(P, "wait", Duration.ofSeconds(-1)))
                .hasMessage("CircuitBreaker 'payments': wait must be >= 0 but was PT-1S");
        assertThatThrownBy(() -> Validate.check(false, P, "min", "<= max (3)", 5))
                .hasMessage("CircuitBreaker 'payments': min must be <= max (3) but was 5");
        assertThatThrownBy(() -> Validate.name("Retry", null))
                .hasMessage("Retry: name must be a non-blank string but was null");

        InvalidConfigException e = new InvalidConfigException(P, "f", "> 0", 0);
        assertThat(e.policy()).isEqualTo(P);
        assertThat(e.field()).isEqualTo("f");
    }

    @Test
    void validValuesPassThrough() {
        assertThat(Validate.positive(P, "x", 5L)).isEqualTo(5L);
        assertThat(Validate.positive(P, "x", 0.5)).isEqualTo(0.5);
        assertThat(Validate.nonNegative(P, "x", 0L)).isZero();
        assertThat(Validate.inRange(P, "x", 100.0, 0.0, 100.0)).isEqualTo(100.0);
        assertThat(Validate.nonNegative(P, "x", Duration.ZERO)).isEqualTo(Duration.ZERO);
        assertThat(Validate.name("Retry", "r")).isEqualTo("r");
        assertThat(Validate.notNull(P, "x", "v")).isEqualTo("v");
    }
}
