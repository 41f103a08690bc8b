package dev.levee.testing.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class SimulationTest {

    /** A scenario using every feature: jitter, errors, an outage, a brownout, overload, async and sync calls. */
    private static Simulation scenario(long seed) {
        Simulation sim = Simulation.seeded(seed);
        SimulatedDependency db = SimulatedDependency.builder(sim, "db")
                .latency(Duration.ofMillis(4), 0.5)
                .failureRate(0.05)
                .failureRateDuring(Duration.ofMillis(300), Duration.ofMillis(400), 0.5)
                .outage(Duration.ofMillis(500), Duration.ofMillis(600))
                .capacityPerSecond(1_000)
                .capacityDuring(Duration.ofMillis(700), Duration.ofMillis(800), 300)
                .maxConcurrent(20)
                .build();
        SimulatedDependency cache = SimulatedDependency.builder(sim, "cache").latency(Duration.ZERO, 0).failureRate(0.1).build();
        sim.runFor(Duration.ofSeconds(1), Duration.ofMillis(10), step -> {
            for (int i = 0; i < 8; i++) {
                db.callAsync().whenComplete((v, e) -> sim.recorder().record("request", e == null ? "ok" : "failed", 0));
            }
            try {
                cache.call();
            } catch (IOException e) {
                sim.recorder().record("cache-miss", "fallback", 0);
            }
        });
        return sim;
    }

    @Test
    void theSameSeedGivesTheSameRunByteForByte() {
        Simulation a = scenario(42);
        Simulation b = scenario(42);
        assertThat(a.recorder().entries()).hasSizeGreaterThan(1_600);
        assertThat(b.recorder().entries()).isEqualTo(a.recorder().entries());
        assertThat(b.recorder().digest()).isEqualTo(a.recorder().digest()).hasSize(64);
        assertThat(scenario(43).recorder().digest()).isNotEqualTo(a.recorder().digest());
    }

    @Test
    void theScriptShapesTheOutcomes() {
        Recorder r = scenario(7).recorder();
        long ms = 1_000_000L;
        // the outage: every call in [500, 600) ms fails as an outage
        assertThat(r.count("db", null, 500 * ms, 600 * ms)).isEqualTo(80);
        assertThat(r.count("db", SimulatedDependency.OUTAGE, 500 * ms, 600 * ms)).isEqualTo(80);
        // healthy: 800/s under 1000/s, errors near 5 %
        long failedHealthy = r.count("db", SimulatedDependency.FAILED, 0, 300 * ms);
        assertThat(failedHealthy).isBetween(6L, 30L); // 240 calls x 0.05 = 12
        assertThat(r.count("db", SimulatedDependency.OVERLOADED, 0, 700 * ms)).isZero();
        // the scripted failure rate of 0.5 in [300, 400) ms
        assertThat(r.count("db", SimulatedDependency.FAILED, 300 * ms, 400 * ms)).isBetween(25L, 55L);
        // the brownout: 800/s against 300/s is an excess of 1.67, so nothing gets through after its first window
        assertThat(r.count("db", SimulatedDependency.OVERLOADED, 710 * ms, 800 * ms)).isEqualTo(72);
        assertThat(r.count("db", SimulatedDependency.OK, 710 * ms, 800 * ms)).isZero();
        // every async call completed and was recorded as a request
        assertThat(r.count("request", null, 0, 2_000 * ms)).isEqualTo(800);
    }

    @Test
    void asynchronousCallsCompleteAfterTheirLatencyOnTheScheduler() {
        Simulation sim = Simulation.seeded(1);
        SimulatedDependency d = SimulatedDependency.builder(sim, "d").latency(Duration.ofMillis(10), 0).build();
        CompletableFuture<String> call = d.callAsync();
        assertThat(d.inFlight()).isEqualTo(1);
        sim.advance(Duration.ofNanos(9_999_999));
        assertThat(call).isNotDone();
        sim.advance(Duration.ofNanos(1));
        assertThat(call).isCompletedWithValue("ok");
        assertThat(d.inFlight()).isZero();
        assertThat(sim.recorder().entries()).containsExactly(new Recorder.Entry(0, "d", "ok", 10_000_000L));
    }

    @Test
    void synchronousCallsAdvanceTheClockAndSlowDownAboveMaxConcurrent() throws IOException {
        Simulation sim = Simulation.seeded(1);
        SimulatedDependency d = SimulatedDependency.builder(sim, "d").latency(Duration.ofMillis(3), 0).maxConcurrent(1).build();
        assertThat(d.call()).isEqualTo("ok");
        assertThat(sim.nowNanos()).isEqualTo(3_000_000L);
        d.callAsync(); // one inside
        d.callAsync(); // a second: twice the latency
        assertThat(sim.recorder().entries().get(2).latencyNanos()).isEqualTo(6_000_000L);
        assertThat(d.maxInFlight()).isEqualTo(2);
        SimulatedDependency down = SimulatedDependency.builder(sim, "down").outage(Duration.ZERO, Duration.ofDays(1)).build();
        assertThatThrownBy(down::call).isInstanceOf(IOException.class).hasMessage("down: outage");
        assertThat(down.failures()).isEqualTo(1);
    }

    @Test
    void namedStreamsAreIndependentSoAddingOneShiftsNoOther() {
        List<Double> alone = draws(Simulation.seeded(5), false);
        List<Double> withAnother = draws(Simulation.seeded(5), true);
        assertThat(withAnother).isEqualTo(alone);
        assertThat(Simulation.seeded(5).random("a").nextDouble()).isNotEqualTo(Simulation.seeded(5).random("b").nextDouble());
    }

    private static List<Double> draws(Simulation sim, boolean interleaveAnother) {
        var a = sim.random("a");
        var b = sim.random("b");
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            out.add(a.nextDouble());
            if (interleaveAnother) {
                b.nextDouble();
            }
        }
        return out;
    }

    @Test
    void badScriptsAreRefused() {
        Simulation sim = Simulation.seeded(1);
        assertThatThrownBy(() -> SimulatedDependency.builder(sim, "x").failureRate(1.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SimulatedDependency.builder(sim, "x").outage(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SimulatedDependency.builder(sim, "x").capacityPerSecond(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> sim.runFor(Duration.ofSeconds(1), Duration.ZERO, s -> { }))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
