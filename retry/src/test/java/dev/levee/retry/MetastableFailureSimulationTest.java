package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.testing.sim.Recorder;
import dev.levee.testing.sim.SimulatedDependency;
import dev.levee.testing.sim.Simulation;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A deterministic simulation of a retry storm, on the shared harness ({@code dev.levee.testing.sim}:
 * virtual time, seeded streams, a recorder).
 *
 * <p>A downstream serves {@code capacity} calls per second; above that its success probability falls
 * as its load rises, {@code p = max(0, 1 - 2 · (load - capacity) / capacity)} (the harness's overload
 * model, load measured over 10 ms windows), the way a thrashing server's goodput collapses. Clients send
 * 800 requests per second (80% of capacity) through an asynchronous retry of 3 attempts. A short
 * trigger — capacity drops to 400/s for 2 s — makes every attempt fail. Without a budget each request
 * then makes 3 attempts, 2,400/s, which keeps the downstream at {@code p = 0} long after the trigger is
 * gone: the metastable state. With the default budget, retries are held to about 20% of requests plus
 * 10/s, the load stays under capacity once the trigger ends, and the system recovers.
 */
class MetastableFailureSimulationTest {
    private static final Duration STEP = Duration.ofMillis(10);
    private static final long STEP_NANOS = STEP.toNanos();
    private static final int REQUESTS_PER_STEP = 8; // 800/s
    private static final int SECONDS = 20;
    private static final int STEPS = SECONDS * 100;
    private static final String DOWNSTREAM = "downstream";
    private static final String REQUEST = "request";

    private static Simulation simulate(boolean budgeted, long seed) {
        Simulation sim = Simulation.seeded(seed);
        SimulatedDependency downstream = SimulatedDependency.builder(sim, DOWNSTREAM)
                .latency(Duration.ZERO, 0)
                .capacityPerSecond(1_000)
                .capacityDuring(Duration.ofSeconds(2), Duration.ofSeconds(4), 400) // the trigger
                .loadWindow(STEP)
                .build();
        RetryConfig.Builder config = RetryConfig.builder()
                .ticker(sim.ticker()).sleeper(sim.ticker()).scheduler(sim.scheduler()).random(sim.random("retry-jitter"))
                .executor(Runnable::run)
                .retryAll()
                .maxAttempts(3)
                .backoff(Backoff.exponential(Duration.ofMillis(10), 2, Duration.ofMillis(100)))
                .jitter(Jitter.full());
        Retry retry = Retry.of(budgeted ? "with-budget" : "no-budget", budgeted ? config.defaultBudget().build()
                : config.withoutBudget().build());
        Recorder recorder = sim.recorder();
        sim.runFor(Duration.ofSeconds(SECONDS), STEP, step -> {
            for (int r = 0; r < REQUESTS_PER_STEP; r++) {
                retry.executeAsync(downstream::callAsync)
                        .whenComplete((value, failure) -> recorder.record(REQUEST, failure == null ? "ok" : "failed", 0));
            }
        });
        return sim;
    }

    private static Simulation simulate(boolean budgeted) {
        return simulate(budgeted, 2024);
    }

    /** Attempts per second reaching the downstream, per 10 ms step. */
    private static double[] load(Simulation sim) {
        long[] attempts = sim.recorder().perWindow(DOWNSTREAM, null, STEP_NANOS, STEPS);
        double[] perSecond = new double[STEPS];
        for (int s = 0; s < STEPS; s++) {
            perSecond[s] = attempts[s] * 100.0;
        }
        return perSecond;
    }

    private static double meanLoad(Simulation sim, double fromSecond, double toSecond) {
        double[] load = load(sim);
        double sum = 0;
        int n = 0;
        for (int s = (int) (fromSecond * 100); s < (int) (toSecond * 100); s++) {
            sum += load[s];
            n++;
        }
        return sum / n;
    }

    private static double maxLoad(Simulation sim, double fromSecond, double toSecond) {
        double[] load = load(sim);
        double max = 0;
        for (int s = (int) (fromSecond * 100); s < (int) (toSecond * 100); s++) {
            max = Math.max(max, load[s]);
        }
        return max;
    }

    /** Requests that finished in the interval, and the share of them that succeeded. */
    private static double successRatio(Simulation sim, double fromSecond, double toSecond) {
        long from = (long) (fromSecond * 1e9);
        long to = (long) (toSecond * 1e9);
        return (double) sim.recorder().count(REQUEST, "ok", from, to) / sim.recorder().count(REQUEST, null, from, to);
    }

    @Test
    void withoutABudgetAShortOverloadBecomesAPermanentOne() {
        Simulation run = simulate(false);
        assertThat(meanLoad(run, 0.5, 2)).as("healthy before the trigger").isEqualTo(800.0);
        assertThat(successRatio(run, 0.5, 2)).isEqualTo(1.0);
        // The trigger ended at 4 s; 16 s later the clients still send 3 attempts per request and nothing succeeds.
        assertThat(meanLoad(run, 10, 20)).as("load long after the trigger").isGreaterThan(2_000.0);
        assertThat(successRatio(run, 10, 20)).isLessThan(0.01);
    }

    @Test
    void withTheDefaultBudgetTheLoadReturnsUnderCapacityWithinHalfASecond() {
        Simulation run = simulate(true);
        assertThat(meanLoad(run, 0.5, 2)).isEqualTo(800.0);
        // During the trigger the budget's stock (20% of 10 s of requests, plus 100) is spent in a burst, then
        // retries are held to the deposit rate: the mean load stays far below the 2,400/s of the storm.
        assertThat(meanLoad(run, 2, 4)).as("the budget bounds even the overload").isLessThan(1_300.0);
        // From 0.5 s after the trigger ends, every 10 ms step is under capacity and every request succeeds.
        assertThat(maxLoad(run, 4.5, 20)).isLessThanOrEqualTo(1_000.0);
        assertThat(successRatio(run, 4.5, 20)).isEqualTo(1.0);
    }

    @Test
    void theSameSeedReplaysTheStormExactly() {
        String digest = simulate(false).recorder().digest();
        assertThat(simulate(false).recorder().digest()).isEqualTo(digest);
        assertThat(simulate(false, 2025).recorder().digest()).isNotEqualTo(digest);
    }
}
