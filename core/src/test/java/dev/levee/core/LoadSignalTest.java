package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LoadSignalTest {

    @Test
    void aConstantSignalReadsItsValueFromZeroUp() {
        assertThat(LoadSignal.constant(0.0).load()).isZero();
        assertThat(LoadSignal.constant(0.75).load()).isEqualTo(0.75);
        assertThatThrownBy(() -> LoadSignal.constant(-0.01)).isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("load");
        assertThatThrownBy(() -> LoadSignal.constant(Double.NaN)).isInstanceOf(InvalidConfigException.class);
    }
}
