package dev.levee.health;

import static dev.levee.health.HealthStatus.DEGRADED;
import static dev.levee.health.HealthStatus.HEALTHY;
import static dev.levee.health.HealthStatus.UNHEALTHY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CachingAndHysteresisTest {
    private final ManualTicker ticker = new ManualTicker(7_000_000_000L);
    private final ManualScheduler scheduler = new ManualScheduler(ticker);
    private final HealthChecker checker = HealthChecker.of("cache",
            HealthCheckerConfig.builder().ticker(ticker).scheduler(scheduler).build());

    @AfterEach
    void close() {
        checker.close();
    }

    @Test
    void aResultIsServedForItsTtlThenRefreshedInTheBackground() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        checker.register(HealthLevel.READINESS, "db", () -> CheckResult.healthy().withDetail("run", runs.incrementAndGet()),
                HealthCheckConfig.builder().cacheTtl(Duration.ofSeconds(10)).build());
        assertThat(checker.readiness().checks().get(0).details()).containsEntry("run", 1);
        ticker.advance(Duration.ofMillis(9_999));
        assertThat(checker.readiness().checks().get(0).details()).containsEntry("run", 1);
        assertThat(runs.get()).isEqualTo(1);

        // Past the TTL: the stale result is served at once and one refresh starts.
        ticker.advance(Duration.ofMillis(1));
        assertThat(checker.readiness().checks().get(0).details()).containsEntry("run", 1);
        await().atMost(Duration.ofSeconds(30)).until(() -> runs.get() == 2);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> checker.readiness().checks().get(0).details().get("run").equals(2));
        assertThat(runs.get()).isEqualTo(2);
    }

    @Test
    void aResultOlderThanTwiceTheTtlIsNotServed() {
        AtomicInteger runs = new AtomicInteger();
        checker.register(HealthLevel.READINESS, "db", () -> CheckResult.healthy().withDetail("run", runs.incrementAndGet()),
                HealthCheckConfig.builder().cacheTtl(Duration.ofSeconds(10)).build());
        checker.readiness();
        ticker.advance(Duration.ofSeconds(20));
        assertThat(checker.readiness().checks().get(0).details()).containsEntry("run", 2);
    }

    @Test
    void withoutRefreshAheadAnExpiredResultWaitsForAFreshRun() {
        AtomicInteger runs = new AtomicInteger();
        checker.register(HealthLevel.READINESS, "db", () -> CheckResult.healthy().withDetail("run", runs.incrementAndGet()),
                HealthCheckConfig.builder().cacheTtl(Duration.ofSeconds(10)).refreshAhead(false).build());
        checker.readiness();
        ticker.advance(Duration.ofSeconds(10));
        assertThat(checker.readiness().checks().get(0).details()).containsEntry("run", 2);
    }

    @Test
    void withoutACacheEveryRequestRunsTheCheck() {
        AtomicInteger runs = new AtomicInteger();
        checker.register(HealthLevel.READINESS, "db", () -> {
            runs.incrementAndGet();
            return CheckResult.healthy();
        });
        checker.readiness();
        checker.readiness();
        assertThat(runs.get()).isEqualTo(2);
    }

    @Test
    void probeStormOfAThousandConcurrentReadinessRequestsRunsTheCheckOncePerTtl() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        checker.register(HealthLevel.READINESS, "expensive", () -> {
            runs.incrementAndGet();
            release.await();
            return CheckResult.healthy();
        }, HealthCheckConfig.builder().cacheTtl(Duration.ofSeconds(10)).build());

        ExecutorService probes = Executors.newFixedThreadPool(16);
        try {
            // 1,000 requests while the first run is still under way: all join it.
            List<Future<CompletableFuture<HealthReport>>> asked = new ArrayList<>();
            CountDownLatch go = new CountDownLatch(1);
            for (int i = 0; i < 1000; i++) {
                asked.add(probes.submit(() -> {
                    go.await();
                    return checker.checkAsync(HealthLevel.READINESS);
                }));
            }
            go.countDown();
            List<CompletableFuture<HealthReport>> reports = new ArrayList<>();
            for (Future<CompletableFuture<HealthReport>> f : asked) {
                reports.add(f.get(30, TimeUnit.SECONDS));
            }
            release.countDown();
            for (CompletableFuture<HealthReport> r : reports) {
                assertThat(r.get(30, TimeUnit.SECONDS).status()).isEqualTo(HEALTHY);
            }
            assertThat(runs.get()).isEqualTo(1);

            // 1,000 blocking requests within the TTL: all served from the cache.
            storm(probes, 1000);
            assertThat(runs.get()).isEqualTo(1);

            // The TTL passes: the next storm triggers exactly one background refresh.
            ticker.advance(Duration.ofSeconds(10));
            storm(probes, 1000);
            await().atMost(Duration.ofSeconds(30)).until(() -> checker.metrics().runs() == 2);
            assertThat(runs.get()).isEqualTo(2);
            storm(probes, 1000);
            assertThat(runs.get()).isEqualTo(2);
        } finally {
            probes.shutdownNow();
        }
    }

    @Test
    void sixteenThreadsHammeringUncachedChecksNeverRunOneTwiceAtOnce() throws Exception {
        int checks = 4;
        AtomicInteger[] running = new AtomicInteger[checks];
        AtomicInteger[] maxRunning = new AtomicInteger[checks];
        AtomicInteger runs = new AtomicInteger();
        for (int i = 0; i < checks; i++) {
            AtomicInteger r = running[i] = new AtomicInteger();
            AtomicInteger m = maxRunning[i] = new AtomicInteger();
            checker.register(HealthLevel.READINESS, "c" + i, () -> {
                m.accumulateAndGet(r.incrementAndGet(), Math::max);
                runs.incrementAndGet();
                Thread.yield();
                r.decrementAndGet();
                return CheckResult.healthy();
            });
        }
        ExecutorService threads = Executors.newFixedThreadPool(16);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                done.add(threads.submit(() -> {
                    go.await();
                    int healthy = 0;
                    for (int i = 0; i < 500; i++) {
                        if (checker.readiness().status() == HEALTHY) {
                            healthy++;
                        }
                    }
                    return healthy;
                }));
            }
            go.countDown();
            for (Future<Integer> f : done) {
                assertThat(f.get(60, TimeUnit.SECONDS)).isEqualTo(500);
            }
        } finally {
            threads.shutdownNow();
        }
        for (int i = 0; i < checks; i++) {
            assertThat(maxRunning[i].get()).as("check c%d ran concurrently with itself", i).isEqualTo(1);
        }
        // Every run was counted once, and shared: far fewer runs than 16 × 500 × 4 requests for checks.
        assertThat(checker.metrics().runs()).isEqualTo(runs.get());
        assertThat(runs.get()).isLessThanOrEqualTo(16 * 500 * checks);
    }

    private void storm(ExecutorService probes, int requests) throws Exception {
        List<Future<HealthReport>> reports = new ArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        for (int i = 0; i < requests; i++) {
            reports.add(probes.submit(() -> {
                go.await();
                return checker.readiness();
            }));
        }
        go.countDown();
        for (Future<HealthReport> r : reports) {
            assertThat(r.get(30, TimeUnit.SECONDS).status()).isEqualTo(HEALTHY);
        }
    }

    private final List<HealthStatus> script = new ArrayList<>();

    private HealthStatus run() {
        return checker.readiness().checks().get(0).status();
    }

    @Test
    void hysteresisWorsensAfterNInARowAndRecoversAfterMInARow() {
        checker.register(HealthLevel.READINESS, "flappy", () -> CheckResult.of(script.remove(0), "scripted"),
                HealthCheckConfig.builder().consecutiveToWorsen(3).consecutiveToRecover(2).build());
        List<HealthStatus> reported = new ArrayList<>();
        List<HealthStatus> observed = List.of(HEALTHY, UNHEALTHY, UNHEALTHY, HEALTHY, UNHEALTHY, DEGRADED, UNHEALTHY,
                UNHEALTHY, HEALTHY, UNHEALTHY, HEALTHY, HEALTHY, HEALTHY);
        for (HealthStatus s : observed) {
            script.add(s);
            reported.add(run());
        }
        assertThat(reported).containsExactly(
                HEALTHY, // first result as it is
                HEALTHY, HEALTHY, // two bad ones are not enough
                HEALTHY, // a good one resets the streak
                HEALTHY, HEALTHY, // degraded and unhealthy are on the same (worse) side
                UNHEALTHY, // third worse in a row: the latest status is reported
                UNHEALTHY,
                UNHEALTHY, // one good one is not enough to recover
                UNHEALTHY, // and a bad one resets that streak
                UNHEALTHY, HEALTHY, // two good in a row recover
                HEALTHY);
    }

    @Test
    void aHeldStatusShowsTheObservedOneInItsDetails() {
        checker.register(HealthLevel.READINESS, "held", () -> CheckResult.of(script.remove(0), "ping slow"),
                HealthCheckConfig.builder().consecutiveToWorsen(2).build());
        script.add(HEALTHY);
        run();
        script.add(UNHEALTHY);
        CheckResult held = checker.readiness().checks().get(0);
        assertThat(held.status()).isEqualTo(HEALTHY);
        assertThat(held.message()).isEqualTo("ping slow");
        assertThat(held.details()).containsEntry("observed", "unhealthy").containsEntry("results_until_change", 1);
    }

    @Test
    void aTimeoutCountsAsAnUnhealthyObservationForHysteresis() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        checker.register(HealthLevel.READINESS, "db", () -> {
            if (calls.incrementAndGet() == 2) {
                release.await();
            }
            return CheckResult.healthy();
        }, HealthCheckConfig.builder().consecutiveToWorsen(2).build());
        assertThat(run()).isEqualTo(HEALTHY);
        CompletableFuture<HealthReport> second = checker.checkAsync(HealthLevel.READINESS);
        await().atMost(Duration.ofSeconds(30)).until(() -> calls.get() == 2);
        scheduler.advance(Duration.ofSeconds(5));
        CheckResult timedOut = second.get(30, TimeUnit.SECONDS).checks().get(0);
        assertThat(timedOut.status()).isEqualTo(HEALTHY); // one timeout does not pull the instance out
        assertThat(timedOut.details()).containsEntry("observed", "unhealthy");
        release.countDown();
    }
}
