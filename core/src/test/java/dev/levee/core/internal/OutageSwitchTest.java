package dev.levee.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OutageSwitchTest {

    @Test
    void switchesOnceEachWayAndCallsInFlightCannotFlapIt() {
        OutageSwitch s = new OutageSwitch();
        long before = s.phase();
        assertThat(s.available()).isTrue();
        assertThat(OutageSwitch.inOutage(before)).isFalse();

        assertThat(s.outageBegan(before, 100)).as("the first failure switches").isTrue();
        assertThat(s.outageBegan(before, 110)).as("a second failure of the same phase does not").isFalse();
        assertThat(s.available()).isFalse();
        assertThat(s.storeAnswered(before, 120)).as("an answer to a call sent before the outage cannot end it")
                .isEqualTo(-1L);
        assertThat(s.available()).isFalse();

        long during = s.phase();
        assertThat(OutageSwitch.inOutage(during)).isTrue();
        assertThat(s.outageBegan(during, 130)).as("a failure during the outage switches nothing").isFalse();
        assertThat(s.storeAnswered(during, 600)).as("the first answer ends it, reporting its length").isEqualTo(500L);
        assertThat(s.storeAnswered(during, 700)).as("once").isEqualTo(-1L);
        assertThat(s.available()).isTrue();
        assertThat(s.outageBegan(during, 800)).as("a failure of a call sent during the outage cannot restart it")
                .isFalse();
        assertThat(s.available()).isTrue();
    }
}
