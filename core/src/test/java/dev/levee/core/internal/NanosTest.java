package dev.levee.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class NanosTest {

    @Test
    void addSaturatesExactlyAtTheEdges() {
        assertThat(Nanos.add(2, 3)).isEqualTo(5);
        assertThat(Nanos.add(-2, 3)).isEqualTo(1);
        assertThat(Nanos.add(Long.MAX_VALUE - 1, 1)).isEqualTo(Long.MAX_VALUE);
        assertThat(Nanos.add(Long.MAX_VALUE, 1)).isEqualTo(Long.MAX_VALUE);
        assertThat(Nanos.add(Long.MAX_VALUE, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(Nanos.add(Long.MIN_VALUE + 1, -1)).isEqualTo(Long.MIN_VALUE);
        assertThat(Nanos.add(Long.MIN_VALUE, -1)).isEqualTo(Long.MIN_VALUE);
        assertThat(Nanos.add(-1, Long.MIN_VALUE)).isEqualTo(Long.MIN_VALUE);
        assertThat(Nanos.add(Long.MIN_VALUE, Long.MAX_VALUE)).isEqualTo(-1);
        assertThat(Nanos.add(Long.MAX_VALUE, Long.MIN_VALUE)).isEqualTo(-1);
        assertThat(Nanos.add(0, 0)).isZero();
        assertThat(Nanos.add(-1, 0)).isEqualTo(-1);
        assertThat(Nanos.add(-1, 1)).isZero();
    }

    @Test
    void subtractSaturatesExactlyAtTheEdges() {
        assertThat(Nanos.subtract(5, 3)).isEqualTo(2);
        assertThat(Nanos.subtract(3, 5)).isEqualTo(-2);
        assertThat(Nanos.subtract(Long.MAX_VALUE, -1)).isEqualTo(Long.MAX_VALUE);
        assertThat(Nanos.subtract(Long.MIN_VALUE, 1)).isEqualTo(Long.MIN_VALUE);
        assertThat(Nanos.subtract(Long.MIN_VALUE + 1, 1)).isEqualTo(Long.MIN_VALUE);
        assertThat(Nanos.subtract(0, Long.MIN_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(Nanos.subtract(-1, Long.MAX_VALUE)).isEqualTo(Long.MIN_VALUE);
        assertThat(Nanos.subtract(-1, Long.MIN_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(Nanos.subtract(0, 0)).isZero();
        assertThat(Nanos.subtract(-1, -1)).isZero();
    }

    @Test
    void durationsSaturateAndTheCappedFormStopsAtTheArithmeticCap() {
        assertThat(Nanos.of(Duration.ofSeconds(1))).isEqualTo(1_000_000_000L);
        assertThat(Nanos.of(Duration.ofDays(365L * 1_000))).isEqualTo(Long.MAX_VALUE);
        assertThat(Nanos.of(Duration.ofDays(-365L * 1_000))).isEqualTo(Long.MIN_VALUE);
        assertThat(Nanos.ofCapped(Duration.ofSeconds(1))).isEqualTo(1_000_000_000L);
        assertThat(Nanos.ofCapped(Duration.ofDays(365L * 100))).isEqualTo(Nanos.ARITHMETIC_CAP);
        assertThat(Nanos.ARITHMETIC_CAP).isEqualTo(Long.MAX_VALUE / 4);
    }
}
