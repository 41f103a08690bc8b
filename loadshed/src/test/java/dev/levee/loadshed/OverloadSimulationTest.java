package dev.levee.loadshed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import dev.levee.loadshed.limit.DropAimdLimit;
import dev.levee.loadshed.limit.GradientLimit;
import dev.levee.loadshed.limit.LatencyAimdLimit;
import dev.levee.loadshed.limit.LimitAlgorithm;
import dev.levee.loadshed.limit.VegasLimit;
import dev.levee.loadshed.sim.Admission;
import dev.levee.loadshed.sim.ServiceTime;
import dev.levee.loadshed.sim.SimStats;
import dev.levee.loadshed.sim.Simulation;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The promise of the module, on the simulated server: C = 10 workers, 10 ms ± 20 % of work each
 * (capacity 1000 requests/s), clients that give up after 100 ms. With an adaptive limit in front, at
 * 2× and 5× the load the server can take, goodput stays at ≥ 90 % of capacity and the p99 latency of
 * admitted requests at ≤ 2× the uncongested p99; without one, goodput collapses.
 */
class OverloadSimulationTest {
    private static final int CAPACITY = 10;
    private static final Duration WORK = Duration.ofMillis(10);
    private static final Duration DEADLINE = Duration.ofMillis(100);
    private static long uncongestedP99;

    static Simulation.Builder server(double load, long seed) {
        return Simulation.builder().seed(seed).capacity(CAPACITY)
                .serviceTime(ServiceTime.uniform(WORK, 0.2))
                .offeredLoad(load)
                .deadline(DEADLINE);
    }

    @BeforeAll
    static void measureUncongested() {
        Simulation sim = server(0.3, 1).build();
        sim.runFor(Duration.ofSeconds(30));
        uncongestedP99 = sim.total().serverLatencyPercentile(0.99);
        assertThat(uncongestedP99).isBetween(11_000_000L, 13_000_000L);
    }

    /** The latency-driven algorithms, tuned from the uncongested latency as docs/loadshed.md explains. */
    static Stream<Arguments> algorithms() {
        return Stream.of(
                Arguments.of("seed-002 AIMD", (Supplier<LimitAlgorithm>) () -> LatencyAimdLimit.builder()
                        .target(Duration.ofMillis(12)).minLimit(1).build()),
                Arguments.of("drop AIMD", (Supplier<LimitAlgorithm>) () -> DropAimdLimit.builder()
                        .timeout(Duration.ofMillis(18)).build()),
                Arguments.of("Vegas", (Supplier<LimitAlgorithm>) () -> VegasLimit.builder()
                        .random(RandomSource.seeded(3)).build()),
                Arguments.of("Gradient", (Supplier<LimitAlgorithm>) () -> GradientLimit.builder()
                        .random(RandomSource.seeded(3)).build()));
    }

    static Stream<Arguments> algorithmsAndLoads() {
        return algorithms().flatMap(a -> Stream.of(2.0, 5.0).map(load -> Arguments.of(a.get()[0], a.get()[1], load)));
    }

    @ParameterizedTest(name = "{0} at {2}x")
    @MethodSource("algorithmsAndLoads")
    void adaptiveLimitKeepsGoodputAndLatencyUnderOverload(String label, Supplier<LimitAlgorithm> algorithm, double load) {
        ManualTicker ticker = new ManualTicker();
        ConcurrencyLimiter limiter = ConcurrencyLimiter.of("sim", ConcurrencyLimiterConfig.builder()
                .algorithm(algorithm).ticker(ticker).build());
        Simulation sim = server(load, 7).ticker(ticker).admission(Admission.gate(limiter)).build();
        sim.runFor(Duration.ofSeconds(10));
        SimStats steady = sim.measure();
        sim.runFor(Duration.ofSeconds(60));
        steady.stop();

        assertThat(steady.goodputFractionOfCapacity()).as(label + " goodput, " + steady).isGreaterThanOrEqualTo(0.9);
        assertThat(steady.serverLatencyPercentile(0.99)).as(label + " p99, " + steady)
                .isLessThanOrEqualTo(2 * uncongestedP99);
        assertThat(limiter.inflight()).isEqualTo(sim.inServer());
    }

    @ParameterizedTest(name = "without a limiter at {0}x")
    @org.junit.jupiter.params.provider.ValueSource(doubles = {2.0, 5.0})
    void withoutLimiterGoodputCollapses(double load) {
        Simulation sim = server(load, 7).build();
        sim.runFor(Duration.ofSeconds(10));
        SimStats steady = sim.measure();
        sim.runFor(Duration.ofSeconds(20));
        steady.stop();
        assertThat(steady.goodputFractionOfCapacity()).as(steady.toString()).isLessThan(0.05);
        assertThat(steady.serverLatencyPercentile(0.99)).isGreaterThan(10 * uncongestedP99);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    void limitConvergesWhenCapacityHalvesAndRecoversWhenItReturns(String label, Supplier<LimitAlgorithm> algorithm) {
        ManualTicker ticker = new ManualTicker();
        ConcurrencyLimiter limiter = ConcurrencyLimiter.of("sim", ConcurrencyLimiterConfig.builder()
                .algorithm(algorithm).ticker(ticker).build());
        Simulation sim = server(2.0, 11).ticker(ticker).admission(Admission.gate(limiter)).build();
        sim.runFor(Duration.ofSeconds(20));
        int fullLimit = limiter.limit();

        sim.setCapacity(CAPACITY / 2);
        sim.runFor(Duration.ofSeconds(10));
        SimStats halved = sim.measure();
        int[] minMax = {Integer.MAX_VALUE, 0};
        sim.every(Duration.ofMillis(100), t -> {
            minMax[0] = Math.min(minMax[0], limiter.limit());
            minMax[1] = Math.max(minMax[1], limiter.limit());
        });
        sim.runFor(Duration.ofSeconds(20));
        halved.stop();
        int halvedLimit = limiter.limit();
        assertThat(halvedLimit).as(label + " limit after halving (was " + fullLimit + ")").isLessThan(fullLimit);
        assertThat(minMax[1]).as(label + " limit stays near the halved capacity").isLessThanOrEqualTo(3 * CAPACITY / 2);
        assertThat(halved.goodputFractionOfCapacity()).as(label + " " + halved).isGreaterThanOrEqualTo(0.9);
        assertThat(halved.serverLatencyPercentile(0.99)).as(label + " " + halved)
                .isLessThanOrEqualTo(3 * uncongestedP99);

        sim.setCapacity(CAPACITY);
        sim.runFor(Duration.ofSeconds(10));
        SimStats recovered = sim.measure();
        sim.runFor(Duration.ofSeconds(20));
        recovered.stop();
        assertThat(limiter.limit()).as(label + " limit recovers").isGreaterThan(halvedLimit).isGreaterThanOrEqualTo(CAPACITY);
        assertThat(recovered.goodputFractionOfCapacity()).as(label + " " + recovered).isGreaterThanOrEqualTo(0.9);
    }

    /**
     * Loss-driven AIMD learns only from drops, so a drop must come before the client gives up: with its
     * timeout at the client deadline, the limit settles where half the requests are late.
     */
    @Test
    void dropAimdWithTimeoutAtTheDeadlineLosesHalfTheGoodput() {
        ManualTicker ticker = new ManualTicker();
        ConcurrencyLimiter limiter = ConcurrencyLimiter.of("sim", ConcurrencyLimiterConfig.builder()
                .algorithm(DropAimdLimit::defaults).ticker(ticker).build());
        Simulation sim = server(2.0, 7).deadline(Duration.ofMillis(24)).ticker(ticker)
                .admission(Admission.gate(limiter)).build();
        sim.runFor(Duration.ofSeconds(10));
        SimStats steady = sim.measure();
        sim.runFor(Duration.ofSeconds(30));
        steady.stop();
        assertThat(steady.goodputFractionOfCapacity()).as(steady.toString()).isLessThan(0.7);
    }
}
