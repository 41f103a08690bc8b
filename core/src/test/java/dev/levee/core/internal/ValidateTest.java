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

    @Test
    void boundsAreInclusiveAndTheNeighboursOutsideAreRefused() {
        assertThat(Validate.inRange(P, "x", 1L, 1L, 10L)).isEqualTo(1L);
        assertThat(Validate.inRange(P, "x", 10L, 1L, 10L)).isEqualTo(10L);
        assertThat(Validate.inRange(P, "x", 5L, 1L, 10L)).isEqualTo(5L);
        assertThatThrownBy(() -> Validate.inRange(P, "x", 11L, 1L, 10L)).isInstanceOf(InvalidConfigException.class);
        assertThat(Validate.inRange(P, "x", 0.0, 0.0, 1.0)).isEqualTo(0.0);
        assertThat(Validate.inRange(P, "x", 1.0, 0.0, 1.0)).isEqualTo(1.0);
        assertThatThrownBy(() -> Validate.inRange(P, "x", Math.nextUp(1.0), 0.0, 1.0))
                .isInstanceOf(InvalidConfigException.class);
        assertThatThrownBy(() -> Validate.inRange(P, "x", Math.nextDown(0.0), 0.0, 1.0))
                .isInstanceOf(InvalidConfigException.class);
        assertThatThrownBy(() -> Validate.inRange(P, "x", Double.NaN, 0.0, 1.0))
                .isInstanceOf(InvalidConfigException.class);
    }

    @Test
    void positiveAndNonNegativeReturnTheValueAndRefuseTheEdge() {
        assertThat(Validate.positive(P, "x", 1L)).isEqualTo(1L);
        assertThatThrownBy(() -> Validate.positive(P, "x", 0.0)).isInstanceOf(InvalidConfigException.class);
        assertThat(Validate.positive(P, "x", Double.MIN_VALUE)).isEqualTo(Double.MIN_VALUE);
        assertThatThrownBy(() -> Validate.positive(P, "x", Double.POSITIVE_INFINITY))
                .isInstanceOf(InvalidConfigException.class);
        assertThat(Validate.nonNegative(P, "x", 7L)).isEqualTo(7L);
        assertThat(Validate.positive(P, "x", Duration.ofNanos(1))).isEqualTo(Duration.ofNanos(1));
        assertThatThrownBy(() -> Validate.positive(P, "x", Duration.ZERO)).isInstanceOf(InvalidConfigException.class);
        assertThatThrownBy(() -> Validate.positive(P, "x", (Duration) null)).isInstanceOf(InvalidConfigException.class);
    }
}
