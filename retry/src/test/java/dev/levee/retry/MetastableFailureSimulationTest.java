package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A deterministic simulation of a retry storm (manual time, seeded randomness).
 *
 * <p>A downstream serves {@code capacity} calls per second; above that its success probability falls
 * as its load rises, {@code p = max(0, 1 - 2 · (load - capacity) / capacity)}, the way a thrashing
 * server's goodput collapses. Clients send 800 requests per second (80% of capacity) through an
 * asynchronous retry of 3 attempts. A short trigger — capacity drops to 400/s for 2 s — makes every
 * attempt fail. Without a budget each request then makes 3 attempts, 2,400/s, which keeps the
 * downstream at {@code p = 0} long after the trigger is gone: the metastable state. With the default
 * budget, retries are held to about 20% of requests plus 10/s, the load stays under capacity once the
 * trigger ends, and the system recovers.
 */
class MetastableFailureSimulationTest {
    private static final long STEP_NANOS = 10_000_000L; // 10 ms
    private static final int REQUESTS_PER_STEP = 8; // 800/s
    private static final int SECONDS = 20;

    /** What one run observed, per 10 ms step. */
    private record Run(double[] loadPerSecond, double[] capacity, int[] succeeded, int[] finished) {}

    private Run simulate(boolean budgeted) {
        ManualTicker ticker = new ManualTicker();
        ManualScheduler scheduler = new ManualScheduler(ticker);
        RandomSource random = RandomSource.seeded(2024);
        RetryConfig.Builder config = RetryConfig.builder()
                .ticker(ticker).sleeper(ticker).scheduler(scheduler).random(random).executor(Runnable::run)
                .retryAll()
                .maxAttempts(3)
                .backoff(Backoff.exponential(Duration.ofMillis(10), 2, Duration.ofMillis(100)))
                .jitter(Jitter.full());
        Retry retry = Retry.of(budgeted ? "with-budget" : "no-budget", budgeted ? config.defaultBudget().build() : config.withoutBudget().build());

        int steps = SECONDS * 100;
        double[] load = new double[steps];
        double[] capacity = new double[steps];
        int[] succeeded = new int[steps];
        int[] finished = new int[steps];
        int[] attemptsThisStep = new int[1];
        double[] successProbability = {1.0};
        int[] step = new int[1];

        for (int s = 0; s < steps; s++) {
            step[0] = s;
            double seconds = s / 100.0;
            capacity[s] = seconds >= 2 && seconds < 4 ? 400 : 1000;
            attemptsThisStep[0] = 0;
            for (int r = 0; r < REQUESTS_PER_STEP; r++) {
                retry.executeAsync(() -> {
                    attemptsThisStep[0]++;
                    return random.nextDouble() < successProbability[0]
                            ? CompletableFuture.completedFuture("ok")
                            : CompletableFuture.<String>failedFuture(new IOException("overloaded"));
                }).whenComplete((value, failure) -> {
                    finished[step[0]]++;
                    if (failure == null) {
                        succeeded[step[0]]++;
                    }
                });
            }
            scheduler.advance(STEP_NANOS); // retries due within this step run here
            load[s] = attemptsThisStep[0] * 100.0;
            // The next step's success probability follows this step's load.
            double excess = (load[s] - capacity[s]) / capacity[s];
            successProbability[0] = excess <= 0 ? 1.0 : Math.max(0.0, 1.0 - 2.0 * excess);
        }
        return new Run(load, capacity, succeeded, finished);
    }

    private static double meanLoad(Run run, double fromSecond, double toSecond) {
        double sum = 0;
        int n = 0;
        for (int s = (int) (fromSecond * 100); s < (int) (toSecond * 100); s++) {
            sum += run.loadPerSecond()[s];
            n++;
        }
        return sum / n;
    }

    private static double successRatio(Run run, double fromSecond, double toSecond) {
        long ok = 0;
        long all = 0;
        for (int s = (int) (fromSecond * 100); s < (int) (toSecond * 100); s++) {
            ok += run.succeeded()[s];
            all += run.finished()[s];
        }
        return (double) ok / all;
    }

    private static double maxLoad(Run run, double fromSecond, double toSecond) {
        double max = 0;
        for (int s = (int) (fromSecond * 100); s < (int) (toSecond * 100); s++) {
            max = Math.max(max, run.loadPerSecond()[s]);
        }
        return max;
    }

    @Test
    void withoutABudgetAShortOverloadBecomesAPermanentOne() {
        Run run = simulate(false);
        assertThat(meanLoad(run, 0.5, 2)).as("healthy before the trigger").isEqualTo(800.0);
        assertThat(successRatio(run, 0.5, 2)).isEqualTo(1.0);
        // The trigger ended at 4 s; 16 s later the clients still send 3 attempts per request and nothing succeeds.
        assertThat(meanLoad(run, 10, 20)).as("load long after the trigger").isGreaterThan(2_000.0);
        assertThat(successRatio(run, 10, 20)).isLessThan(0.01);
    }

    @Test
    void withTheDefaultBudgetTheLoadReturnsUnderCapacityWithinHalfASecond() {
        Run run = simulate(true);
        assertThat(meanLoad(run, 0.5, 2)).isEqualTo(800.0);
        // During the trigger the budget's stock (20% of 10 s of requests, plus 100) is spent in a burst, then
        // retries are held to the deposit rate: the mean load stays far below the 2,400/s of the storm.
        assertThat(meanLoad(run, 2, 4)).as("the budget bounds even the overload").isLessThan(1_300.0);
        // From 0.5 s after the trigger ends, every 10 ms step is under capacity and every request succeeds.
        assertThat(maxLoad(run, 4.5, 20)).isLessThanOrEqualTo(1_000.0);
        assertThat(successRatio(run, 4.5, 20)).isEqualTo(1.0);
    }
}
