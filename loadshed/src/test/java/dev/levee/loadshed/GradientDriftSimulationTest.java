package dev.levee.loadshed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import dev.levee.loadshed.limit.GradientLimit;
import dev.levee.loadshed.limit.LatencyAimdLimit;
import dev.levee.loadshed.limit.LimitAlgorithm;
import dev.levee.loadshed.sim.Admission;
import dev.levee.loadshed.sim.SimStats;
import dev.levee.loadshed.sim.Simulation;
import java.time.Duration;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Gradient under sustained queueing: ten minutes at 5× capacity. Our limit stays near the capacity for
 * the whole run (the baseline is a minimum that only a probe at half the limit can raise); a gradient
 * whose baseline is a long-term average of latency — the design that drifts — climbs away.
 */
class GradientDriftSimulationTest {

    private static int[] limitPerMinute(Supplier<LimitAlgorithm> algorithm, int minutes) {
        ManualTicker ticker = new ManualTicker();
        ConcurrencyLimiter limiter = ConcurrencyLimiter.of("drift", ConcurrencyLimiterConfig.builder()
                .algorithm(algorithm).ticker(ticker).build());
        Simulation sim = OverloadSimulationTest.server(5.0, 5).ticker(ticker).admission(Admission.gate(limiter)).build();
        int[] maxPerMinute = new int[minutes];
        long start = sim.now();
        sim.every(Duration.ofMillis(100), t -> {
            int minute = (int) ((t - start - 1) / 60_000_000_000L);
            if (minute < minutes) {
                maxPerMinute[minute] = Math.max(maxPerMinute[minute], limiter.limit());
            }
        });
        sim.runFor(Duration.ofMinutes(minutes));
        return maxPerMinute;
    }

    @Test
    void gradientLimitStaysBoundedUnderSustainedQueueing() {
        int[] max = limitPerMinute(() -> GradientLimit.builder().random(RandomSource.seeded(9)).build(), 10);
        for (int minute = 1; minute < max.length; minute++) {
            assertThat(max[minute]).as("max limit in minute " + minute).isLessThanOrEqualTo(30);
        }
        assertThat(max[9]).as("no upward trend").isLessThanOrEqualTo(max[1] + 3);
    }

    @Test
    void aGradientWithAnAveragedBaselineDrifts() {
        int[] max = limitPerMinute(AveragedBaselineGradient::new, 3);
        assertThat(max[2]).as("the design the guard avoids drifts far above the capacity").isGreaterThan(100);
    }

    @Test
    void literalSeedAimdOscillatesAndLosesGoodput() {
        ManualTicker ticker = new ManualTicker();
        ConcurrencyLimiter limiter = ConcurrencyLimiter.of("literal", ConcurrencyLimiterConfig.builder()
                .algorithm(() -> LatencyAimdLimit.builder().target(Duration.ofMillis(12)).minLimit(1)
                        .oncePerRtt(false).build())
                .ticker(ticker).build());
        Simulation sim = OverloadSimulationTest.server(2.0, 7).ticker(ticker).admission(Admission.gate(limiter)).build();
        sim.runFor(Duration.ofSeconds(10));
        SimStats steady = sim.measure();
        sim.runFor(Duration.ofSeconds(30));
        steady.stop();
        assertThat(steady.goodputFractionOfCapacity()).as(steady.toString()).isLessThan(0.8);
    }

    /**
     * A gradient limit in the style that drifts: baseline = exponential average of latency over ~600
     * samples, gradient = clamp(tolerance × long / short, 0.5, 1), L = L × gradient + 4 per sample, smoothed.
     * Test-only, to show the failure the guard prevents.
     */
    static final class AveragedBaselineGradient implements LimitAlgorithm {
        private double limit = 20;
        private double longRtt;
        private double shortRtt;

        @Override
        public int initialLimit() {
            return 20;
        }

        @Override
        public int minLimit() {
            return 1;
        }

        @Override
        public int maxLimit() {
            return 1000;
        }

        @Override
        public int update(long nowNanos, long rttNanos, int inflight, boolean drop) {
            longRtt = longRtt == 0 ? rttNanos : longRtt + (rttNanos - longRtt) / 600;
            shortRtt = shortRtt == 0 ? rttNanos : shortRtt + (rttNanos - shortRtt) / 10;
            double gradient = Math.max(0.5, Math.min(1.0, 1.5 * longRtt / shortRtt));
            double target = limit * gradient + 4;
            limit = Math.max(1, Math.min(1000, 0.8 * limit + 0.2 * target));
            return (int) limit;
        }
    }
}
