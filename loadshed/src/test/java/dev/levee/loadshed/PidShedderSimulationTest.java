package dev.levee.loadshed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import dev.levee.core.Scheduler;
import dev.levee.loadshed.sim.ServiceTime;
import dev.levee.loadshed.sim.ShedderAdmission;
import dev.levee.loadshed.sim.SimStats;
import dev.levee.loadshed.sim.Simulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The PID shedder's step response on the simulated server, with the default gains. */
class PidShedderSimulationTest {
    static final Scheduler NEVER = (task, delay) -> () -> false;

    @Test
    void stepResponseSettlesAtTheSetpointWithoutSustainedOscillation() {
        ManualTicker ticker = new ManualTicker(1_000_000_000_000L);
        PidShedder pid = PidShedder.of("pid", PidShedderConfig.builder().ticker(ticker).scheduler(NEVER)
                .random(RandomSource.seeded(3)).build());
        Simulation sim = Simulation.builder().ticker(ticker).seed(11).capacity(20)
                .serviceTime(ServiceTime.uniform(Duration.ofMillis(20), 0.5))
                .offeredLoad(0.5).deadline(Duration.ofSeconds(2))
                .admission(ShedderAdmission.of(pid))
                .build();
        List<double[]> trace = new ArrayList<>();
        sim.every(pid.config().updateInterval(), t -> pid.update(t));
        sim.runFor(Duration.ofSeconds(10));
        double capacity = sim.capacityThroughputPerSecond();
        sim.setArrivalRate(3 * capacity); // the step: 0.5x -> 3x
        for (int s = 0; s < 60; s++) {
            SimStats w = sim.measure();
            sim.runFor(Duration.ofSeconds(1));
            w.stop();
            trace.add(new double[] {s, w.serverLatencyPercentile(0.99) / 1e6, pid.rejectionProbability(),
                    w.goodputPerSecond() / capacity});
        }
        if (Boolean.getBoolean("levee.sim.trace")) {
            for (double[] row : trace) {
                System.out.printf("t=%2.0f p99=%7.1f ms reject=%.3f goodput=%.3f%n", row[0], row[1], row[2], row[3]);
            }
        }
        // settled: over the last 30 s the p99 stays within a band around the setpoint, and the
        // rejection probability no longer swings (no sustained oscillation)
        double minP99 = Double.MAX_VALUE, maxP99 = 0, minR = 1, maxR = 0;
        for (double[] row : trace.subList(30, 60)) {
            minP99 = Math.min(minP99, row[1]);
            maxP99 = Math.max(maxP99, row[1]);
            minR = Math.min(minR, row[2]);
            maxR = Math.max(maxR, row[2]);
            assertThat(row[3]).isGreaterThan(0.9);
        }
        assertThat(maxP99).isLessThan(350);
        assertThat(minP99).isGreaterThan(150);
        assertThat(maxR - minR).isLessThan(0.25); // per-interval noise of a random draw, not a swing to 0 or 1
        // steady shedding near the excess: 3x offered, so about 2/3 shed
        assertThat(pid.rejectionProbability()).isBetween(0.5, 0.8);
        assertThat(minR).isGreaterThan(0.4);
        assertThat(maxR).isLessThan(0.9);
    }
}
