package dev.levee.loadshed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.loadshed.limit.LatencyAimdLimit;
import dev.levee.testing.sim.Recorder;
import dev.levee.testing.sim.SimulatedDependency;
import dev.levee.testing.sim.Simulation;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A client-side adaptive concurrency limit in front of an overloaded dependency, on the shared
 * simulation harness ({@code dev.levee.testing.sim}: virtual time, seeded streams, a recorder).
 *
 * <p>The dependency takes 10 ms ± 20 % per call while at most 10 calls are inside, and
 * {@code 10 ms · ceil(n / 10)} with {@code n} inside (a saturated server slows down in proportion): it
 * serves about 1,000 calls/s. Clients offer 2,000/s. Without a limit the calls inside pile up and every
 * call waits longer than the last; with the seed-002 latency AIMD limit (target 12 ms) the client admits
 * about what the dependency serves, refuses the rest at once, and the calls it admits stay fast.
 */
class ConcurrencyLimiterBrownoutSimulationTest {
    private static final Duration STEP = Duration.ofMillis(10);
    private static final int CALLS_PER_STEP = 20; // 2,000/s offered
    private static final String BACKEND = "backend";

    private static Simulation simulate(boolean limited, long seed) {
        Simulation sim = Simulation.seeded(seed);
        SimulatedDependency backend = SimulatedDependency.builder(sim, BACKEND)
                .latency(Duration.ofMillis(10), 0.2)
                .maxConcurrent(10)
                .build();
        ConcurrencyLimiter limiter = ConcurrencyLimiter.of("client", ConcurrencyLimiterConfig.builder()
                .algorithm(() -> LatencyAimdLimit.builder().target(Duration.ofMillis(12)).minLimit(1).build())
                .ticker(sim.ticker())
                .build());
        Recorder recorder = sim.recorder();
        sim.runFor(Duration.ofSeconds(10), STEP, step -> {
            for (int i = 0; i < CALLS_PER_STEP; i++) {
                long start = sim.nowNanos();
                if (limited && !limiter.tryAcquire(start)) {
                    recorder.record("client", "refused", 0);
                    continue;
                }
                backend.callAsync().whenComplete((value, failure) -> {
                    long latency = sim.nowNanos() - start;
                    if (limited) {
                        limiter.onSuccess(latency);
                        recorder.record("limit", Integer.toString(limiter.limit()), 0);
                    }
                    recorder.record("client", "served", latency);
                });
            }
        });
        return sim;
    }

    /** The p99 of the latency the clients saw for served calls in the last 5 s. */
    private static long p99ServedLatency(Simulation sim) {
        long[] latencies = sim.recorder().entries().stream()
                .filter(e -> e.subject().equals("client") && e.outcome().equals("served") && e.atNanos() >= 5_000_000_000L)
                .mapToLong(Recorder.Entry::latencyNanos).sorted().toArray();
        return latencies.length == 0 ? Long.MAX_VALUE : latencies[(int) (latencies.length * 0.99)];
    }

    @Test
    void withoutALimitTheCallsInsidePileUpAndLatencyGrows() {
        Simulation sim = simulate(false, 7);
        assertThat(p99ServedLatency(sim)).as("p99 of served calls, last 5 s").isGreaterThan(Duration.ofMillis(500).toNanos());
    }

    @Test
    void withTheAdaptiveLimitTheAdmittedCallsStayFastAndTheExcessIsRefused() {
        Simulation sim = simulate(true, 7);
        Recorder r = sim.recorder();
        assertThat(p99ServedLatency(sim)).as("p99 of served calls, last 5 s").isLessThanOrEqualTo(Duration.ofMillis(40).toNanos()); // AIMD probes one step past 10 inside
        long served = r.count("client", "served", 5_000_000_000L, 10_000_000_000L);
        long refused = r.count("client", "refused", 5_000_000_000L, 10_000_000_000L);
        // about half the offered 10,000 calls of the last 5 s are served: the dependency's capacity
        assertThat(served).as("served").isBetween(3_500L, 6_000L);
        assertThat(refused).as("refused").isBetween(4_000L, 6_500L);
        int[] limits = r.entries().stream().filter(e -> e.subject().equals("limit") && e.atNanos() >= 5_000_000_000L)
                .mapToInt(e -> Integer.parseInt(e.outcome())).toArray();
        assertThat(Arrays.stream(limits).max().orElseThrow()).as("the limit settles near the 10 the dependency takes")
                .isLessThanOrEqualTo(30);
    }

    @Test
    void theSameSeedReplaysTheRunExactly() {
        String digest = simulate(true, 7).recorder().digest();
        assertThat(simulate(true, 7).recorder().digest()).isEqualTo(digest);
        assertThat(simulate(true, 8).recorder().digest()).isNotEqualTo(digest);
    }
}
