package dev.levee.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The two-window quantile estimator: when it recomputes, what its window covers, when it rotates. */
class LatencyQuantileTest {

    @Test
    void noEstimateBeforeMinSamplesThenOneAtMinSamples() {
        LatencyQuantile q = new LatencyQuantile(0.5, 100, 3, 10);
        assertThat(q.quantileNanos()).isEqualTo(-1L);
        assertThat(q.record(4)).isFalse();
        assertThat(q.record(6)).isFalse();
        assertThat(q.quantileNanos()).isEqualTo(-1L);
        assertThat(q.record(8)).isTrue();          // n == minSamples, though 3 % 10 != 0
        assertThat(q.quantileNanos()).isEqualTo(6);
        assertThat(q.sampleCount()).isEqualTo(3);
    }

    @Test
    void recomputesOnlyEveryRecomputeEverySamplesAfterMinSamples() {
        LatencyQuantile q = new LatencyQuantile(1.0, 100, 2, 4);
        assertThat(q.record(1)).isFalse();
        assertThat(q.record(2)).isTrue();          // n = 2 = minSamples
        assertThat(q.quantileNanos()).isEqualTo(2);
        assertThat(q.record(9)).isFalse();         // n = 3: cached estimate kept
        assertThat(q.quantileNanos()).isEqualTo(2);
        assertThat(q.record(3)).isTrue();          // n = 4: 4 % 4 == 0
        assertThat(q.quantileNanos()).isEqualTo(9);
        assertThat(q.record(12)).isFalse();
        assertThat(q.record(13)).isFalse();
        assertThat(q.record(14)).isFalse();
        assertThat(q.record(1)).isTrue();          // n = 8
        assertThat(q.quantileNanos()).isEqualTo(14);
    }

    @Test
    void aZeroLatencyIsAValidEstimate() {
        LatencyQuantile q = new LatencyQuantile(0.5, 10, 1, 1);
        assertThat(q.record(0)).isTrue();
        assertThat(q.quantileNanos()).isZero();
        assertThat(q.record(-3)).isTrue();         // negative counts as 0
        assertThat(q.quantileNanos()).isZero();
    }

    @Test
    void everyWindowSizeSamplesTheOlderWindowIsForgotten() {
        LatencyQuantile q = new LatencyQuantile(0.5, 4, 2, 2);
        q.record(3);
        assertThat(q.record(5)).isTrue();
        assertThat(q.quantileNanos()).isEqualTo(3);
        q.record(7);
        assertThat(q.record(9)).isTrue();          // n = 4: rotate (window 1 was empty), estimate over 3,5,7,9
        assertThat(q.quantileNanos()).isEqualTo(5);
        q.record(11);
        assertThat(q.record(13)).isTrue();         // 3,5,7,9,11,13: rank 3
        assertThat(q.quantileNanos()).isEqualTo(7);
        q.record(15);
        assertThat(q.record(1)).isTrue();          // n = 8: 3,5,7,9 dropped; 11,13,15,1 left: rank 2
        assertThat(q.quantileNanos()).isEqualTo(11);
        q.record(2);
        assertThat(q.record(2)).isTrue();          // 11,13,15,1 + 2,2: rank 3
        assertThat(q.quantileNanos()).isEqualTo(2);
        assertThat(q.sampleCount()).isEqualTo(10);
    }
}
