package dev.levee.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The documented bounds of caching and hysteresis, over seeded random schedules. */
class BoundPropertyTest {
    private static final HealthStatus[] STATUSES = HealthStatus.values();

    @Test
    void aCachedCheckRunsAtMostOncePerTtlAndNeverServesAResultOlderThanItsBound() {
        for (long seed = 1; seed <= 40; seed++) {
            RandomSource random = RandomSource.seeded(seed);
            long ttl = Duration.ofMillis(100 + random.nextLong(5_000)).toNanos();
            boolean refreshAhead = random.nextDouble() < 0.5;
            ManualTicker ticker = new ManualTicker(random.nextLong(1L << 40));
            AtomicInteger started = new AtomicInteger();
            try (HealthChecker checker = HealthChecker.of("prop",
                    HealthCheckerConfig.builder().ticker(ticker).scheduler(new ManualScheduler(ticker)).build())) {
                checker.register(HealthLevel.READINESS, "db", () -> {
                    started.incrementAndGet();
                    return CheckResult.healthy().withDetail("at", ticker.read());
                }, HealthCheckConfig.builder().cacheTtl(Duration.ofNanos(ttl)).refreshAhead(refreshAhead).build());
                long t0 = ticker.read();
                List<Long> runStarts = new ArrayList<>();
                for (int probe = 0; probe < 200; probe++) {
                    ticker.advance(random.nextLong(ttl / 2));
                    long now = ticker.read();
                    int before = started.get();
                    CheckResult served = checker.readiness().checks().get(0);
                    // A stale result served ahead of its refresh means a background refresh was submitted:
                    // wait until it has started and finished before time moves on (waiting only for
                    // runs == starts could pass before the pool thread had even started it).
                    long servedAge = now - (long) served.details().get("at");
                    boolean refreshSubmitted = refreshAhead && servedAge >= ttl;
                    await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1)).atMost(Duration.ofSeconds(30))
                            .until(() -> (!refreshSubmitted || started.get() > before)
                                    && checker.metrics().runs() == started.get());
                    if (started.get() > before) {
                        runStarts.add(now);
                    }
                    long age = now - (long) served.details().get("at");
                    long bound = refreshAhead ? 2 * ttl : ttl;
                    assertThat(age).as("seed %d: age of a served result", seed).isLessThan(bound);
                }
                long elapsed = ticker.read() - t0;
                assertThat((long) started.get()).as("seed %d: runs", seed).isLessThanOrEqualTo(1 + elapsed / ttl);
                for (int i = 1; i < runStarts.size(); i++) {
                    assertThat(runStarts.get(i) - runStarts.get(i - 1)).as("seed %d: runs at least a TTL apart", seed)
                            .isGreaterThanOrEqualTo(ttl);
                }
            }
        }
    }

    @Test
    void theReportedStatusMovesOnlyAfterEnoughResultsInARowOnOneSide() {
        for (long seed = 1; seed <= 40; seed++) {
            RandomSource random = RandomSource.seeded(seed);
            int toWorsen = 1 + (int) random.nextLong(5);
            int toRecover = 1 + (int) random.nextLong(5);
            List<HealthStatus> script = new ArrayList<>();
            try (HealthChecker checker = HealthChecker.of("hyst", HealthCheckerConfig.defaults())) {
                checker.register(HealthLevel.READINESS, "flappy", () -> CheckResult.of(script.remove(0), null),
                        HealthCheckConfig.builder().consecutiveToWorsen(toWorsen).consecutiveToRecover(toRecover).build());
                HealthStatus reported = null;
                HealthStatus previous = null;
                List<HealthStatus> sinceChange = new ArrayList<>();
                for (int step = 0; step < 300; step++) {
                    // Repeating the previous observation 60 % of the time makes long streaks likely.
                    HealthStatus observed = previous != null && random.nextDouble() < 0.6
                            ? previous : STATUSES[(int) random.nextLong(3)];
                    previous = observed;
                    script.add(observed);
                    HealthStatus now = checker.readiness().checks().get(0).status();
                    if (reported == null) {
                        assertThat(now).as("seed %d: the first result is reported as it is", seed).isEqualTo(observed);
                        reported = now;
                        continue;
                    }
                    sinceChange.add(observed);
                    // Oracle: the trailing run of observations on one side of the reported status.
                    int side = Integer.signum(observed.ordinal() - reported.ordinal());
                    int streak = 0;
                    for (int i = sinceChange.size() - 1; i >= 0; i--) {
                        int s = Integer.signum(sinceChange.get(i).ordinal() - reported.ordinal());
                        if (s != side || s == 0) {
                            break;
                        }
                        streak++;
                    }
                    boolean shouldMove = side != 0 && streak >= (side > 0 ? toWorsen : toRecover);
                    if (shouldMove) {
                        assertThat(now).as("seed %d step %d: moves to the latest", seed, step).isEqualTo(observed);
                        reported = now;
                        sinceChange.clear();
                    } else {
                        assertThat(now).as("seed %d step %d: holds", seed, step).isEqualTo(reported);
                        if (side == 0) {
                            sinceChange.clear();
                        }
                    }
                }
            }
        }
    }
}
