package dev.levee.loadshed.limit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.RandomSource;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Each algorithm's formula on scripted samples. */
class AlgorithmsTest {
    private static final long MS = 1_000_000L;

    @Test
    void fixedNeverMoves() {
        FixedLimit f = FixedLimit.of(7);
        assertThat(f.update(1, 1, 7, true)).isEqualTo(7);
        assertThat(f.update(2, 1_000 * MS, 0, false)).isEqualTo(7);
        assertThat(f.minLimit()).isEqualTo(7);
        assertThat(f.maxLimit()).isEqualTo(7);
    }

    @Test
    void dropAimdGrowsOnlyWhenTheLimitIsTestedAndBacksOffOncePerRtt() {
        DropAimdLimit a = DropAimdLimit.builder().initialLimit(20).build();
        long now = 1_000 * MS;
        assertThat(a.update(now += 20 * MS, 10 * MS, 5, false)).as("inflight < L/2: unchanged").isEqualTo(20);
        assertThat(a.update(now += 20 * MS, 10 * MS, 10, false)).as("inflight >= L/2: +1").isEqualTo(21);
        assertThat(a.update(now += 20 * MS, 10 * MS, 10, true)).as("drop: floor(21 * 0.9)").isEqualTo(18);
        assertThat(a.update(now + 1, 10 * MS, 10, true)).as("same window: once").isEqualTo(18);
        assertThat(a.update(now += 20 * MS, 6 * 1000 * MS, 10, false)).as("older than the change").isEqualTo(18);
        now += 10_000 * MS;
        assertThat(a.update(now, 6 * 1000 * MS, 10, false)).as("slower than the 5 s timeout: a drop").isEqualTo(16);
    }

    @Test
    void dropAimdStaysWithinBounds() {
        DropAimdLimit a = DropAimdLimit.builder().initialLimit(2).minLimit(2).maxLimit(3).build();
        long now = 0;
        for (int i = 0; i < 10; i++) {
            now += 10 * MS;
            assertThat(a.update(now, MS, 3, i % 2 == 0)).isBetween(2, 3);
        }
    }

    @Test
    void vegasFollowsItsQueueThresholds() {
        VegasLimit v = VegasLimit.builder().initialLimit(100).probeInterval(Duration.ZERO).build();
        long now = 1_000 * MS;
        // First sample sets the baseline at 10 ms: queue 0 <= log10(100) = 2 → L + beta·lg = 100 + 12.
        assertThat(v.update(now += 20 * MS, 10 * MS, 100, false)).isEqualTo(112);
        assertThat(v.baselineNanos()).isEqualTo(10 * MS);
        // rtt 11 ms at L = 112: queue = 112 × (1 − 10/11) ≈ 10.2, lg ≈ 2.05: between alpha (6.1) and beta (12.3): hold.
        assertThat(v.update(now += 20 * MS, 11 * MS, 112, false)).isEqualTo(112);
        // rtt 20 ms: queue = 56 > beta: L − lg → 109.95.
        assertThat(v.update(now += 30 * MS, 20 * MS, 112, false)).isEqualTo(109);
        // A drop: L − lg.
        assertThat(v.update(now += 30 * MS, 10 * MS, 109, true)).isEqualTo(107);
        // Application-limited: few in flight, no growth.
        assertThat(v.update(now += 30 * MS, 10 * MS, 10, false)).isEqualTo(107);
    }

    @Test
    void gradientShrinksWithTheLatencyRatioAndGrowsByTheQueueAllowance() {
        GradientLimit g = GradientLimit.builder().initialLimit(100).shortWindow(1).smoothing(1.0)
                .probeInterval(Duration.ZERO).build();
        long now = 1_000 * MS;
        // Baseline 10 ms; gradient = min(1, 1.5 × 10/10) = 1: L = 100 + 4.
        assertThat(g.update(now += 20 * MS, 10 * MS, 100, false)).isEqualTo(104);
        // rtt 30 ms: gradient = max(0.5, 1.5 × 10 / 30) = 0.5: L = 104 × 0.5 + 4 = 56.
        assertThat(g.update(now += 40 * MS, 30 * MS, 100, false)).isEqualTo(56);
        // rtt 20 ms: gradient 0.75: L = 56 × 0.75 + 4 = 46.
        assertThat(g.update(now += 40 * MS, 20 * MS, 56, false)).isEqualTo(46);
        // Drop: L × 0.9.
        assertThat(g.update(now += 40 * MS, 10 * MS, 46, true)).isEqualTo(41);
        assertThat(g.baselineNanos()).isEqualTo(10 * MS);
    }

    @Test
    void baselineOnlyRisesThroughAProbeAtHalfTheLimit() {
        GradientLimit g = GradientLimit.builder().initialLimit(40).shortWindow(1).smoothing(1.0)
                .probeInterval(Duration.ofSeconds(10)).probeJitter(0).random(RandomSource.seeded(1)).build();
        long now = 0;
        g.update(now += 20 * MS, 10 * MS, 40, false);
        // Latency rises for good to 30 ms: ordinary samples never raise the minimum.
        int before = 0;
        for (int i = 0; i < 50; i++) {
            before = g.update(now += 40 * MS, 30 * MS, 40, false);
        }
        assertThat(g.baselineNanos()).isEqualTo(10 * MS);
        // Past the probe time, the next sample starts a probe: the limit is halved.
        now += 10_000 * MS;
        int probe = g.update(now, 30 * MS, 40, false);
        assertThat(probe).isEqualTo(Math.max(1, before / 2));
        // Samples at low concurrency measure the new no-load latency.
        for (int i = 0; i < 200 && g.baselineNanos() != 30 * MS; i++) {
            g.update(now += 40 * MS, 30 * MS, 1, false);
        }
        assertThat(g.baselineNanos()).isEqualTo(30 * MS);
    }
}
