package dev.levee.loadshed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.loadshed.sim.Admission;
import dev.levee.loadshed.sim.ServiceTime;
import dev.levee.loadshed.sim.ShedderAdmission;
import dev.levee.loadshed.sim.SimStats;
import dev.levee.loadshed.sim.Simulation;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The composite shedder on the simulated server (deterministic, seeded): at 2x and 5x offered load it
 * keeps goodput at 90 % of capacity or more; the same server without it collapses. The limit is set
 * a quarter above the worker count (Little's law with a short run queue), so workers never idle
 * while requests are refused.
 */
class CompositeShedderSimulationTest {
    private static final int CAPACITY = 20;

    private static Simulation.Builder server(ManualTicker ticker, double load) {
        return Simulation.builder().ticker(ticker).seed(2026).capacity(CAPACITY)
                .serviceTime(ServiceTime.uniform(Duration.ofMillis(20), 0.5))
                .offeredLoad(load).deadline(Duration.ofMillis(500)).overloadPenalty(0.1)
                .tagger((r, rnd) -> r.priority(rnd.nextDouble() < 0.6 ? 5 : 8));
    }

    private static SimStats steady(Simulation sim) {
        sim.runFor(Duration.ofSeconds(10));
        SimStats s = sim.measure();
        sim.runFor(Duration.ofSeconds(60));
        s.stop();
        return s;
    }

    @ParameterizedTest(name = "{0}x offered load")
    @ValueSource(doubles = {2.0, 5.0})
    void compositeShedderKeepsGoodputAndTheUnprotectedServerCollapses(double load) {
        ManualTicker ticker = new ManualTicker(1_000_000_000_000L);
        AdaptiveLoadShedder shedder = AdaptiveLoadShedder.of("sim", AdaptiveLoadShedderConfig.builder().ticker(ticker)
                .maxConcurrent(CAPACITY + CAPACITY / 4).cpu(() -> 0.4).memory(() -> 0.5).build());
        SimStats with = steady(server(ticker, load).admission(ShedderAdmission.of(shedder)).build());
        assertThat(with.goodputFractionOfCapacity()).isGreaterThanOrEqualTo(0.9);
        assertThat(shedder.shedCount()).isPositive();

        SimStats without = steady(server(new ManualTicker(1_000_000_000_000L), load).admission(Admission.all()).build());
        assertThat(without.goodputFractionOfCapacity()).isLessThan(0.1);
        System.out.printf("composite %.0fx: goodput with %.3f, without %.3f%n", load, with.goodputFractionOfCapacity(),
                without.goodputFractionOfCapacity());
    }
}
