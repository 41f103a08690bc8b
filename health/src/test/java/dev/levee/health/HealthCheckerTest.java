package dev.levee.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HealthCheckerTest {
    private final ManualTicker ticker = new ManualTicker(1_000_000_000L);
    private final ManualScheduler scheduler = new ManualScheduler(ticker);
    private final List<HealthChecker> toClose = new ArrayList<>();

    private HealthChecker checker(String name) {
        return checker(name, HealthCheckerConfig.builder());
    }

    private HealthChecker checker(String name, HealthCheckerConfig.Builder config) {
        HealthChecker c = HealthChecker.of(name, config.ticker(ticker).scheduler(scheduler).build());
        toClose.add(c);
        return c;
    }

    @AfterEach
    void closeAll() {
        toClose.forEach(HealthChecker::close);
    }

    /** A check that never returns unless interrupted; it records the interrupt. */
    static HealthCheck hung(CountDownLatch started, AtomicBoolean interrupted) {
        return () -> {
            started.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.set(true);
                throw e;
            }
            return CheckResult.healthy();
        };
    }

    /** A dependency call that takes {@code latency} of manual time: completes when the scheduler gets there. */
    private CompletableFuture<Void> call(Duration latency) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        scheduler.schedule(() -> done.complete(null), latency.toNanos());
        return done;
    }

    @Test
    void tenChecksOfOneHundredMillisFinishInTheTimeOfOne() throws Exception {
        HealthChecker checker = checker("ten");
        CountDownLatch started = new CountDownLatch(10);
        for (int i = 0; i < 10; i++) {
            checker.register(HealthLevel.READINESS, "c" + i, () -> {
                CompletableFuture<Void> reply = call(Duration.ofMillis(100));
                started.countDown();
                reply.get();
                return CheckResult.healthy();
            });
        }
        long t0 = ticker.read();
        CompletableFuture<HealthReport> report = checker.checkAsync(HealthLevel.READINESS);

        // All ten are under way before any time has passed: they run concurrently.
        assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(report).isNotDone();
        scheduler.advance(Duration.ofMillis(100));

        HealthReport done = report.get(30, TimeUnit.SECONDS);
        assertThat(ticker.read() - t0).isEqualTo(Duration.ofMillis(100).toNanos());
        assertThat(done.status()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(done.checks()).hasSize(10).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo(HealthStatus.HEALTHY);
            assertThat(r.latency()).isEqualTo(Duration.ofMillis(100));
        });
    }

    @Test
    void withOnePoolThreadTheChecksRunOneAtATime() throws Exception {
        // The contrast that shows the test above can fail: one thread cannot start the second check early.
        HealthChecker checker = checker("one", HealthCheckerConfig.builder().maxConcurrentChecks(1));
        AtomicInteger started = new AtomicInteger();
        for (int i = 0; i < 3; i++) {
            checker.register(HealthLevel.READINESS, "c" + i, () -> {
                CompletableFuture<Void> reply = call(Duration.ofMillis(100));
                started.incrementAndGet();
                reply.get();
                return CheckResult.healthy();
            });
        }
        CompletableFuture<HealthReport> report = checker.checkAsync(HealthLevel.READINESS);
        await().atMost(Duration.ofSeconds(30)).until(() -> started.get() == 1);
        assertThat(started.get()).isEqualTo(1);
        scheduler.advance(Duration.ofMillis(100));
        await().atMost(Duration.ofSeconds(30)).until(() -> started.get() == 2);
        scheduler.advance(Duration.ofMillis(100));
        await().atMost(Duration.ofSeconds(30)).until(() -> started.get() == 3);
        scheduler.advance(Duration.ofMillis(100));
        assertThat(report.get(30, TimeUnit.SECONDS).status()).isEqualTo(HealthStatus.HEALTHY);
    }

    @Test
    void aHungCheckIsReportedAtItsLevelsTimeoutInterruptedAndDelaysNoOther() throws Exception {
        HealthChecker checker = checker("hung");
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch hungStarted = new CountDownLatch(1);
        checker.register(HealthLevel.READINESS, "hung", hung(hungStarted, interrupted));
        checker.register(HealthLevel.READINESS, "fast", CheckResult::healthy);
        CountDownLatch slowStarted = new CountDownLatch(1);
        checker.register(HealthLevel.READINESS, "slowish", () -> {
            CompletableFuture<Void> reply = call(Duration.ofMillis(300));
            slowStarted.countDown();
            reply.get();
            return CheckResult.degraded("slow");
        });

        CompletableFuture<HealthReport> report = checker.checkAsync(HealthLevel.READINESS);
        assertThat(hungStarted.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(slowStarted.await(30, TimeUnit.SECONDS)).isTrue();
        // The fast check finishes before manual time moves (its pool thread may be scheduled late).
        await().atMost(Duration.ofSeconds(30)).until(() -> checker.metrics().runs() == 1);
        scheduler.advance(Duration.ofMillis(300));
        // Let the pool thread record the end before time moves on (manual time does not wait for it).
        await().atMost(Duration.ofSeconds(30))
                .until(() -> checker.lastCheckStatus("slowish") == HealthStatus.DEGRADED);
        scheduler.advance(Duration.ofMillis(4_699));
        assertThat(report).isNotDone();
        scheduler.advance(Duration.ofMillis(1));

        HealthReport done = report.get(30, TimeUnit.SECONDS);
        assertThat(done.status()).isEqualTo(HealthStatus.UNHEALTHY);
        CheckResult hung = done.check("hung").orElseThrow();
        assertThat(hung.status()).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(hung.message()).isEqualTo("timed out after PT5S");
        assertThat(hung.latency()).isEqualTo(Duration.ofSeconds(5));
        assertThat(done.check("fast").orElseThrow().latency()).isEqualTo(Duration.ZERO);
        assertThat(done.check("slowish").orElseThrow().latency()).isEqualTo(Duration.ofMillis(300));
        await().atMost(Duration.ofSeconds(30)).untilTrue(interrupted);
        assertThat(checker.metrics().timeouts()).isEqualTo(1);
    }

    @Test
    void eachLevelHasItsOwnTimeout() throws Exception {
        HealthChecker checker = checker("levels");
        checker.register(HealthLevel.LIVENESS, "hung", () -> {
            new CountDownLatch(1).await();
            return CheckResult.healthy();
        });
        CompletableFuture<HealthReport> live = checker.checkAsync(HealthLevel.LIVENESS);
        scheduler.advance(Duration.ofMillis(999));
        assertThat(live).isNotDone();
        scheduler.advance(Duration.ofMillis(1));
        assertThat(live.get(30, TimeUnit.SECONDS).check("hung").orElseThrow().message())
                .isEqualTo("timed out after PT1S");
    }

    @Test
    void aCheckNeverRunsTwiceAtOnceEvenAfterItTimedOut() throws Exception {
        HealthChecker checker = checker("once");
        AtomicInteger running = new AtomicInteger();
        AtomicInteger maxRunning = new AtomicInteger();
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        checker.register(HealthLevel.READINESS, "stubborn", () -> {
            runs.incrementAndGet();
            maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                while (true) {
                    try {
                        if (release.await(10, TimeUnit.MILLISECONDS)) {
                            break;
                        }
                    } catch (InterruptedException ignoredOnPurpose) {
                        // this check ignores interrupts: the checker must still not start a second run
                    }
                }
            } finally {
                running.decrementAndGet();
            }
            return CheckResult.healthy();
        });
        CompletableFuture<HealthReport> first = checker.checkAsync(HealthLevel.READINESS);
        await().atMost(Duration.ofSeconds(30)).until(() -> runs.get() == 1);
        scheduler.advance(Duration.ofSeconds(5));
        assertThat(first.get(30, TimeUnit.SECONDS).status()).isEqualTo(HealthStatus.UNHEALTHY);

        HealthReport second = checker.readiness();
        assertThat(second.check("stubborn").orElseThrow().message()).startsWith("still running");
        assertThat(runs.get()).isEqualTo(1);

        release.countDown();
        await().atMost(Duration.ofSeconds(30)).until(() -> running.get() == 0);
        await().atMost(Duration.ofSeconds(30)).until(() -> checker.readiness().status() == HealthStatus.HEALTHY);
        assertThat(runs.get()).isEqualTo(2);
        assertThat(maxRunning.get()).isEqualTo(1);
    }

    @Test
    void concurrentCallersShareOneRun() throws Exception {
        HealthChecker checker = checker("share");
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        checker.register(HealthLevel.READINESS, "db", () -> {
            runs.incrementAndGet();
            release.await();
            return CheckResult.healthy();
        });
        List<CompletableFuture<HealthReport>> reports = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            reports.add(checker.checkAsync(HealthLevel.READINESS));
        }
        release.countDown();
        for (CompletableFuture<HealthReport> r : reports) {
            assertThat(r.get(30, TimeUnit.SECONDS).status()).isEqualTo(HealthStatus.HEALTHY);
        }
        assertThat(runs.get()).isEqualTo(1);
    }

    @Test
    void aShorterLevelJoiningALongerRunWaitsOnlyItsOwnTimeout() throws Exception {
        HealthChecker checker = checker("join");
        CountDownLatch release = new CountDownLatch(1);
        checker.register(HealthLevel.READINESS, "db", () -> {
            release.await();
            return CheckResult.healthy();
        });
        CompletableFuture<HealthReport> deep = checker.checkAsync(HealthLevel.DEEP); // 30 s run
        CompletableFuture<HealthReport> ready = checker.checkAsync(HealthLevel.READINESS); // joins, waits 5 s
        scheduler.advance(Duration.ofSeconds(5));
        HealthReport r = ready.get(30, TimeUnit.SECONDS);
        assertThat(r.status()).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(r.checks().get(0).message()).isEqualTo("timed out after PT5S");
        assertThat(deep).isNotDone();
        release.countDown();
        assertThat(deep.get(30, TimeUnit.SECONDS).status()).isEqualTo(HealthStatus.HEALTHY);
    }

    @Test
    void aThrowingCheckIsUnhealthyWithItsMessage() {
        HealthChecker checker = checker("throws");
        checker.register(HealthLevel.READINESS, "db", () -> {
            throw new java.io.IOException("connection refused");
        });
        checker.register(HealthLevel.READINESS, "null", () -> null);
        HealthReport r = checker.readiness();
        assertThat(r.check("db").orElseThrow().status()).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(r.check("db").orElseThrow().message()).isEqualTo("IOException: connection refused");
        assertThat(r.check("null").orElseThrow().message()).isEqualTo("check returned null");
    }

    @Test
    void anErrorIsReportedAndNotSwallowed() throws Exception {
        HealthChecker checker = checker("error");
        checker.register(HealthLevel.LIVENESS, "oom", () -> {
            throw new OutOfMemoryError("simulated");
        });
        HealthReport r = checker.liveness();
        assertThat(r.status()).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(r.checks().get(0).message()).contains("OutOfMemoryError", "simulated");
        // The pool thread rethrew it (the pool replaced the dead worker); the checker still works.
        assertThat(checker.liveness().status()).isEqualTo(HealthStatus.UNHEALTHY);
    }

    @Test
    void deepRunsLivenessReadinessAndDeepChecksButNotStartup() {
        HealthChecker checker = checker("deep");
        checker.register(HealthLevel.LIVENESS, "l", CheckResult::healthy);
        checker.register(HealthLevel.READINESS, "r", CheckResult::healthy);
        checker.register(HealthLevel.STARTUP, "s", CheckResult::healthy);
        checker.register(HealthLevel.DEEP, "d", () -> CheckResult.degraded("write path slow"));
        assertThat(checker.deep().checks()).extracting(CheckResult::name).containsExactly("l", "r", "d");
        assertThat(checker.deep().status()).isEqualTo(HealthStatus.DEGRADED);
        assertThat(checker.liveness().checks()).extracting(CheckResult::name).containsExactly("l");
        assertThat(checker.startup().checks()).extracting(CheckResult::name).containsExactly("s");
    }

    @Test
    void nonCriticalChecksDegradeTheLevelInsteadOfFailingIt() {
        HealthChecker checker = checker("noncritical");
        checker.register(HealthLevel.READINESS, "cache", () -> CheckResult.unhealthy("redis down"),
                HealthCheckConfig.builder().critical(false).build());
        checker.register(HealthLevel.READINESS, "db", CheckResult::healthy);
        HealthReport r = checker.readiness();
        assertThat(r.status()).isEqualTo(HealthStatus.DEGRADED);
        assertThat(r.check("cache").orElseThrow().status()).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(r.check("cache").orElseThrow().critical()).isFalse();
        assertThat(r.check("db").orElseThrow().critical()).isTrue();
    }

    @Test
    void noChecksIsHealthy() {
        assertThat(checker("empty").readiness().status()).isEqualTo(HealthStatus.HEALTHY);
    }

    @Test
    void startupLatchesHealthyUnlessConfiguredNotTo() {
        AtomicInteger runs = new AtomicInteger();
        HealthChecker latched = checker("latched");
        latched.register(HealthLevel.STARTUP, "warm", () -> {
            runs.incrementAndGet();
            return CheckResult.healthy();
        });
        latched.startup();
        latched.startup();
        assertThat(runs.get()).isEqualTo(1);

        AtomicInteger runs2 = new AtomicInteger();
        HealthChecker unlatched = checker("unlatched", HealthCheckerConfig.builder().latchStartup(false));
        unlatched.register(HealthLevel.STARTUP, "warm", () -> {
            runs2.incrementAndGet();
            return CheckResult.healthy();
        });
        unlatched.startup();
        unlatched.startup();
        assertThat(runs2.get()).isEqualTo(2);
    }

    @Test
    void namesAreUniqueAndUnregisteringRemovesTheCheck() {
        HealthChecker checker = checker("names");
        var registration = checker.register(HealthLevel.READINESS, "db", CheckResult::healthy);
        assertThatThrownBy(() -> checker.register(HealthLevel.LIVENESS, "db", CheckResult::healthy))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'db'");
        assertThatThrownBy(() -> checker.register(HealthLevel.LIVENESS, " ", CheckResult::healthy))
                .hasMessageContaining("name");
        registration.close();
        assertThat(checker.checkNames(HealthLevel.READINESS)).isEmpty();
        checker.register(HealthLevel.LIVENESS, "db", CheckResult::healthy);
        assertThat(checker.checkNames(HealthLevel.LIVENESS)).containsExactly("db");
    }

    @Test
    void statusChangesArePublishedAsEvents() {
        HealthChecker checker = checker("events");
        AtomicReferenceStatus status = new AtomicReferenceStatus(HealthStatus.HEALTHY);
        checker.register(HealthLevel.READINESS, "db", () -> CheckResult.of(status.get(), "db says " + status.get()));
        List<HealthEvent> events = new CopyOnWriteArrayList<>();
        checker.onEvent(events::add);

        checker.readiness();
        status.set(HealthStatus.UNHEALTHY);
        checker.readiness();
        checker.readiness();
        status.set(HealthStatus.DEGRADED);
        checker.readiness();

        assertThat(events).filteredOn(e -> e instanceof HealthEvent.StatusChanged)
                .map(e -> ((HealthEvent.StatusChanged) e).to())
                .containsExactly(HealthStatus.UNHEALTHY, HealthStatus.DEGRADED);
        assertThat(events).filteredOn(e -> e instanceof HealthEvent.CheckStatusChanged)
                .map(e -> (HealthEvent.CheckStatusChanged) e)
                .extracting(HealthEvent.CheckStatusChanged::from, HealthEvent.CheckStatusChanged::to)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(HealthStatus.HEALTHY, HealthStatus.UNHEALTHY),
                        org.assertj.core.groups.Tuple.tuple(HealthStatus.UNHEALTHY, HealthStatus.DEGRADED));
        assertThat(events).filteredOn(e -> e instanceof HealthEvent.CheckCompleted).hasSize(4);
        assertThat(checker.lastStatus(HealthLevel.READINESS)).isEqualTo(HealthStatus.DEGRADED);
        assertThat(checker.metrics().checks()).containsEntry("db", HealthStatus.DEGRADED);
        assertThat(checker.metrics().runs()).isEqualTo(4);
    }

    @Test
    void closeInterruptsRunningChecksAndLeavesNoThread() throws Exception {
        HealthChecker checker = checker("closing");
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(4);
        for (int i = 0; i < 4; i++) {
            checker.register(HealthLevel.DEEP, "hung" + i, hung(started, interrupted));
        }
        CompletableFuture<HealthReport> report = checker.checkAsync(HealthLevel.DEEP);
        assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(threads("levee-health-closing-")).isPositive();

        checker.close();

        HealthReport r = report.get(30, TimeUnit.SECONDS);
        assertThat(r.checks()).allSatisfy(c -> assertThat(c.message()).isEqualTo("health checker closed"));
        assertThat(interrupted).isTrue();
        await().atMost(Duration.ofSeconds(30)).until(() -> threads("levee-health-closing-") == 0);
        assertThatThrownBy(() -> checker.checkAsync(HealthLevel.LIVENESS)).isInstanceOf(IllegalStateException.class);
        checker.close(); // idempotent
    }

    @Test
    void aCallerInterruptedWhileWaitingKeepsItsFlag() throws Exception {
        HealthChecker checker = checker("interrupt");
        CountDownLatch release = new CountDownLatch(1);
        checker.register(HealthLevel.READINESS, "db", () -> {
            release.await();
            return CheckResult.healthy();
        });
        Thread.currentThread().interrupt();
        HealthReport r = checker.readiness();
        assertThat(Thread.interrupted()).isTrue();
        assertThat(r.status()).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(r.checks().get(0).message()).contains("interrupted");
        release.countDown();
    }

    static long threads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(prefix)).count();
    }

    /** A tiny mutable holder (AtomicReference without the generic noise in lambdas). */
    static final class AtomicReferenceStatus {
        private volatile HealthStatus value;

        AtomicReferenceStatus(HealthStatus value) {
            this.value = value;
        }

        HealthStatus get() {
            return value;
        }

        void set(HealthStatus v) {
            value = v;
        }
    }
}
