package dev.levee.loadshed.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.Gate;
import dev.levee.core.ManualTicker;
import dev.levee.core.RejectedException;
import dev.levee.core.ShedException;
import dev.levee.core.Ticker;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The simulated server itself: its model must behave as documented for the policy tests to mean anything. */
class SimulationTest {
    private static final Duration WORK = Duration.ofMillis(10);

    private static Simulation.Builder server(double load) {
        return Simulation.builder().seed(42).capacity(10)
                .serviceTime(ServiceTime.uniform(WORK, 0.2))
                .offeredLoad(load)
                .deadline(Duration.ofMillis(100));
    }

    @Test
    void sameSeedSameRun() {
        Simulation a = server(1.5).build();
        Simulation b = server(1.5).build();
        a.runFor(Duration.ofSeconds(5));
        b.runFor(Duration.ofSeconds(5));
        assertThat(a.total().toString()).isEqualTo(b.total().toString());
        assertThat(a.total().offered()).isGreaterThan(0);
    }

    @Test
    void uncongestedServerServesEverythingInAboutItsServiceTime() {
        Simulation sim = server(0.5).build();
        sim.runFor(Duration.ofSeconds(20));
        SimStats s = sim.total();
        assertThat(s.good()).isEqualTo(s.completed());
        assertThat(s.offered() - s.completed()).isLessThanOrEqualTo(sim.inServer());
        // Offered ~ 0.5 × 1000/s × 20 s.
        assertThat(s.offered()).isBetween(9_000L, 11_000L);
        assertThat(s.serverLatencyPercentile(0.5)).isBetween(8_000_000L, 15_000_000L);
        assertThat(s.serverLatencyPercentile(0.99)).isLessThan(40_000_000L);
    }

    @Test
    void withoutProtectionGoodputCollapsesUnderOverload() {
        Simulation sim = server(2.0).build();
        sim.runFor(Duration.ofSeconds(5));
        SimStats later = sim.measure();
        sim.runFor(Duration.ofSeconds(10));
        later.stop();
        // The server stays busy (throughput at capacity) but every answer comes too late.
        assertThat(later.throughputPerSecond()).isGreaterThan(0.95 * sim.capacityThroughputPerSecond());
        assertThat(later.goodputFractionOfCapacity()).isLessThan(0.05);
        assertThat(later.late()).isEqualTo(later.completed());
    }

    @Test
    void overloadPenaltySlowsWorkAsBacklogGrows() {
        Simulation plain = server(2.0).build();
        Simulation penalised = server(2.0).overloadPenalty(0.05).build();
        plain.runFor(Duration.ofSeconds(5));
        penalised.runFor(Duration.ofSeconds(5));
        assertThat(penalised.total().completed()).isLessThan(plain.total().completed());
    }

    /**
     * Skipping work whose deadline already passed is not enough behind a FIFO backlog: the request at
     * the head has almost no time left when it starts, so it ends late. (Deadline-aware queues fix this.)
     */
    @Test
    void skippingExpiredWorkAloneDoesNotRestoreGoodput() {
        Simulation sim = server(2.0).skipExpiredWork(true).build();
        sim.runFor(Duration.ofSeconds(5));
        SimStats s = sim.measure();
        sim.runFor(Duration.ofSeconds(10));
        s.stop();
        assertThat(s.skippedExpired()).isGreaterThan(s.completed() / 2);
        assertThat(s.goodputFractionOfCapacity()).isLessThan(0.2);
    }

    @Test
    void fixedGateInFrontKeepsGoodputAndShedsTheRest() {
        ManualTicker ticker = new ManualTicker();
        CountingGate gate = new CountingGate(ticker, 12);
        Simulation sim = server(2.0).ticker(ticker).admission(Admission.gate(gate)).build();
        sim.runFor(Duration.ofSeconds(20));
        SimStats s = sim.total();
        assertThat(gate.inflight).isEqualTo(sim.inServer());
        assertThat(gate.maxInflight).isLessThanOrEqualTo(12);
        assertThat(s.goodputFractionOfCapacity()).isGreaterThan(0.9);
        assertThat(s.rejected()).isGreaterThan(s.offered() / 3);
        assertThat(gate.successes + gate.failures + gate.inflight).isEqualTo(s.admitted());
    }

    @Test
    void lifoFrontQueueServesTheFreshestAndDropsTheOldestWhenFull() {
        ManualTicker ticker = new ManualTicker();
        CountingGate gate = new CountingGate(ticker, 10);
        Simulation sim = server(2.0).ticker(ticker).admission(Admission.gate(gate))
                .frontQueue(FrontQueue.lifo(50, Long.MAX_VALUE)).build();
        sim.runFor(Duration.ofSeconds(10));
        SimStats s = sim.total();
        assertThat(s.droppedInQueue()).isGreaterThan(0);
        assertThat(s.rejected()).isZero();
        assertThat(s.goodputFractionOfCapacity()).isGreaterThan(0.5);
        assertThat(sim.frontQueueLength()).isLessThanOrEqualTo(50);
    }

    @Test
    void fifoFrontQueueRejectsWhenFullAndExpiresOldRequests() {
        ManualTicker ticker = new ManualTicker();
        CountingGate gate = new CountingGate(ticker, 10);
        Simulation sim = server(2.0).ticker(ticker).admission(Admission.gate(gate))
                .frontQueue(FrontQueue.fifo(200, Long.MAX_VALUE)).build();
        sim.runFor(Duration.ofSeconds(10));
        SimStats s = sim.total();
        assertThat(s.rejected()).isGreaterThan(0);
        assertThat(s.expiredInQueue()).isGreaterThan(0);
        assertThat(s.offered()).isEqualTo(s.shed() + s.completed() + s.failed() + sim.inServer() + sim.frontQueueLength());
    }

    @Test
    void capacityChangeAndSamplingRunAtTheirVirtualTimes() {
        Simulation sim = server(1.0).build();
        long start = sim.now();
        long[] sampled = new long[2];
        sim.after(Duration.ofSeconds(2), () -> sim.setCapacity(5));
        sim.every(Duration.ofSeconds(1), t -> {
            if (sampled[0] == 0) {
                sampled[0] = t;
            }
            sampled[1]++;
        });
        sim.runFor(Duration.ofSeconds(3));
        assertThat(sim.capacity()).isEqualTo(5);
        assertThat(sampled[0]).isEqualTo(start + 1_000_000_000L);
        assertThat(sampled[1]).isEqualTo(3);
        assertThat(sim.now()).isEqualTo(start + 3_000_000_000L);
    }

    /** A fixed-limit gate counting its own protocol, independent of the code under test. */
    static final class CountingGate implements Gate {
        final Ticker ticker;
        final int limit;
        int inflight;
        int maxInflight;
        long successes;
        long failures;

        CountingGate(Ticker ticker, int limit) {
            this.ticker = ticker;
            this.limit = limit;
        }

        @Override
        public String name() {
            return "counting";
        }

        @Override
        public Ticker ticker() {
            return ticker;
        }

        @Override
        public boolean tryAcquire(long nowNanos) {
            if (inflight >= limit) {
                return false;
            }
            inflight++;
            maxInflight = Math.max(maxInflight, inflight);
            return true;
        }

        @Override
        public RejectedException rejection(long nowNanos) {
            return new ShedException("counting", "full", 0L);
        }

        @Override
        public void onSuccess(long latencyNanos) {
            inflight--;
            successes++;
        }

        @Override
        public void onFailure(long latencyNanos, Throwable error) {
            inflight--;
            failures++;
        }

        @Override
        public void onIgnored() {
            inflight--;
        }
    }
}
