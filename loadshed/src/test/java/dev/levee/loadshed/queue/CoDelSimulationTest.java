package dev.levee.loadshed.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.loadshed.sim.CoDelFrontQueue;
import dev.levee.loadshed.sim.ServiceTime;
import dev.levee.loadshed.sim.SimStats;
import dev.levee.loadshed.sim.Simulation;
import dev.levee.loadshed.sim.SlotAdmission;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** CoDel in front of a simulated server at 5x its capacity. */
class CoDelSimulationTest {
    private static final int CAPACITY = 20;
    private static final long MS = 1_000_000L;

    private record Run(SimStats stats, CoDelQueue<?> queue, double capacity, long served, long delaySum, long within10ms) {
        double meanDelayMillis() {
            return delaySum / (double) served / MS;
        }

        double shareWithin10ms() {
            return within10ms / (double) served;
        }
    }

    private static Run run(boolean adaptiveLifo) {
        ManualTicker ticker = new ManualTicker(1_000_000_000_000L);
        CoDelFrontQueue front = new CoDelFrontQueue(CoDelQueueConfig.builder().ticker(ticker).adaptiveLifo(adaptiveLifo).build());
        Simulation sim = Simulation.builder().ticker(ticker).seed(55).capacity(CAPACITY)
                .serviceTime(ServiceTime.uniform(Duration.ofMillis(20), 0.5))
                .offeredLoad(5.0).deadline(Duration.ofSeconds(1))
                .admission(new SlotAdmission(CAPACITY)).frontQueue(front).build();
        sim.runFor(Duration.ofSeconds(10));
        CoDelQueue<?> q = front.queue();
        long served0 = q.latencyCount(11);
        long sum0 = q.latencySumNanos();
        long within0 = q.latencyCount(2); // <= 10 ms
        SimStats s = sim.measure();
        sim.runFor(Duration.ofSeconds(60));
        s.stop();
        return new Run(s, q, sim.capacityThroughputPerSecond(), q.latencyCount(11) - served0,
                q.latencySumNanos() - sum0, q.latencyCount(2) - within0);
    }

    @Test
    void atFiveTimesCapacityTheStandingDelayStaysNearTargetAndThroughputHolds() {
        Run r = run(true);
        System.out.printf("codel lifo: throughput %.3f goodput %.3f within10ms %.3f mean %.1f ms drops %d%n",
                r.stats().throughputPerSecond() / r.capacity(), r.stats().goodputFractionOfCapacity(), r.shareWithin10ms(),
                r.meanDelayMillis(), r.queue().dropCount(DropReason.CODEL));
        assertThat(r.stats().throughputPerSecond() / r.capacity()).isGreaterThanOrEqualTo(0.9);
        assertThat(r.stats().goodputFractionOfCapacity()).isGreaterThanOrEqualTo(0.9);
        // the delay of what is served stays near the 5 ms target (newest first while congested)
        assertThat(r.shareWithin10ms()).isGreaterThan(0.9);
        assertThat(r.meanDelayMillis()).isLessThan(20.0);
        assertThat(r.queue().dropCount(DropReason.CODEL)).isPositive();
    }

    /** The seed's FIFO CoDel drops at most one entry per dequeue: at 5x the queue fills and delay stands. */
    @Test
    void withoutAdaptiveLifoTheSeedsFifoCoDelCannotHoldFiveTimesCapacity() {
        Run r = run(false);
        System.out.printf("codel fifo: throughput %.3f goodput %.3f within10ms %.3f mean %.1f ms drops %d%n",
                r.stats().throughputPerSecond() / r.capacity(), r.stats().goodputFractionOfCapacity(), r.shareWithin10ms(),
                r.meanDelayMillis(), r.queue().dropCount(DropReason.CODEL));
        assertThat(r.stats().throughputPerSecond() / r.capacity()).isGreaterThanOrEqualTo(0.9);
        assertThat(r.meanDelayMillis()).isGreaterThan(100.0);
    }
}
