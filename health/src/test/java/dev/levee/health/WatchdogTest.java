package dev.levee.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.LoadSignal;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class WatchdogTest {
    private final ManualTicker ticker = new ManualTicker(3_000_000_000L);
    private final ManualScheduler scheduler = new ManualScheduler(ticker);

    /** A memory signal that plays a script, one reading per sample; the last reading repeats. */
    static final class Script implements LoadSignal {
        private final double[] readings;
        private int next;

        Script(double... readings) {
            this.readings = readings;
        }

        @Override
        public double load() {
            return readings[Math.min(next++, readings.length - 1)];
        }
    }

    private WatchdogConfig.Builder config(LoadSignal memory) {
        return WatchdogConfig.builder().signal("memory", memory, 0.9).sampleInterval(Duration.ofSeconds(1))
                .breachesToAct(3).samplesToRecover(2).ticker(ticker).scheduler(scheduler);
    }

    /** Runs n samples on the manual scheduler; returns the sample numbers (1-based) at which the action ran. */
    private static List<Integer> sampleAndRecord(ManualScheduler scheduler, List<Long> actionTimes, long t0, int n) {
        scheduler.advance(Duration.ofSeconds(n));
        List<Integer> at = new ArrayList<>();
        for (long t : actionTimes) {
            at.add((int) ((t - t0) / 1_000_000_000L));
        }
        return at;
    }

    @Test
    void aScriptedMemoryPressureSequenceTriggersExactlyTheConfiguredActions() {
        Script memory = new Script(
                0.50, 0.95, 0.96, // two breaches: not sustained
                0.50, // streak broken
                0.91, 0.93, 0.97, // sample 7: sustained → action 1
                0.97, 0.98, // streak restarted after the action: 2 of 3
                0.99, // sample 10: sustained again → action 2
                0.40, 0.40, 0.40);
        List<Long> actionTimes = new CopyOnWriteArrayList<>();
        long t0 = ticker.read();
        Watchdog watchdog = Watchdog.of("mem", config(memory)
                .action(breach -> actionTimes.add(breach.tickerNanos()))
                .initialBackoff(Duration.ZERO).build()).start();
        List<WatchdogEvent> events = new CopyOnWriteArrayList<>();
        watchdog.onEvent(events::add);

        List<Integer> at = sampleAndRecord(scheduler, actionTimes, t0, 13);

        assertThat(at).containsExactly(7, 10);
        assertThat(events).filteredOn(e -> e instanceof WatchdogEvent.Breached)
                .map(e -> ((WatchdogEvent.Breached) e).value()).containsExactly(0.97, 0.99);
        assertThat(watchdog.metrics()).isEqualTo(new WatchdogMetrics(13, 2, 2, 0, 0, false));
        watchdog.close();
        assertThat(scheduler.pending()).isZero();
    }

    @Test
    void theGuardCapsActionsAndSuppressesTheRest() {
        List<Long> actionTimes = new CopyOnWriteArrayList<>();
        long t0 = ticker.read();
        Watchdog watchdog = Watchdog.of("cap", config(LoadSignal.constant(0.99))
                .action(breach -> actionTimes.add(breach.tickerNanos()))
                .maxActions(2).actionWindow(Duration.ofSeconds(100)).initialBackoff(Duration.ZERO).build()).start();
        List<WatchdogEvent> events = new CopyOnWriteArrayList<>();
        watchdog.onEvent(events::add);

        List<Integer> at = sampleAndRecord(scheduler, actionTimes, t0, 30);

        // Sustained breaches at samples 3, 6, ..., 30: ten breaches, two actions, eight suppressed.
        assertThat(at).containsExactly(3, 6);
        assertThat(events).filteredOn(e -> e instanceof WatchdogEvent.ActionSuppressed).hasSize(8)
                .allSatisfy(e -> assertThat(((WatchdogEvent.ActionSuppressed) e).reason())
                        .isEqualTo("2 actions already in the last PT1M40S"));
        assertThat(watchdog.metrics().actionsSuppressed()).isEqualTo(8);

        // The window slides: at the breach of t=105 s the action of t=3 s has left it (102 s ago).
        actionTimes.clear();
        at = sampleAndRecord(scheduler, actionTimes, t0, 75); // samples 31..105
        assertThat(at).containsExactly(105);
        watchdog.close();
    }

    @Test
    void theGuardBacksOffExponentiallyBetweenActions() {
        List<Long> actionTimes = new CopyOnWriteArrayList<>();
        long t0 = ticker.read();
        Watchdog watchdog = Watchdog.of("backoff", config(LoadSignal.constant(0.99))
                .action(breach -> actionTimes.add(breach.tickerNanos()))
                .maxActions(10).actionWindow(Duration.ofHours(1)).initialBackoff(Duration.ofSeconds(10)).build())
                .start();

        List<Integer> at = sampleAndRecord(scheduler, actionTimes, t0, 60);

        // Breaches at 3, 6, 9, ...; action at 3, then none before 3+10=13 (next breach 15), then none
        // before 15+20=35 (breach 36), then none before 36+40=76.
        assertThat(at).containsExactly(3, 15, 36);
        watchdog.close();
    }

    @Test
    void byDefaultItMarksReadinessUnhealthyUntilTheSignalsRecover() {
        Script memory = new Script(0.95, 0.95, 0.95, 0.95, 0.50, 0.50, 0.50);
        Watchdog watchdog = Watchdog.of("ready", config(memory).build()).start();
        HealthChecker checker = HealthChecker.of("app",
                HealthCheckerConfig.builder().ticker(ticker).scheduler(scheduler).build());
        try {
            watchdog.install(checker);
            assertThat(checker.readiness().status()).isEqualTo(HealthStatus.HEALTHY);
            scheduler.advance(Duration.ofSeconds(3));
            HealthReport marked = checker.readiness();
            assertThat(marked.status()).isEqualTo(HealthStatus.UNHEALTHY);
            assertThat(marked.check("watchdog-ready").orElseThrow().message())
                    .isEqualTo("watchdog: memory at 0.950 >= 0.900 for 3 samples");
            scheduler.advance(Duration.ofSeconds(2)); // 0.95 then the first clean 0.50
            assertThat(watchdog.isUnready()).isTrue();
            scheduler.advance(Duration.ofSeconds(1)); // second clean sample
            assertThat(watchdog.isUnready()).isFalse();
            assertThat(checker.readiness().status()).isEqualTo(HealthStatus.HEALTHY);
        } finally {
            checker.close();
            watchdog.close();
        }
    }

    @Test
    void aStuckThreadIsDetectedByItsHeartbeat() {
        Heartbeat loop = Heartbeat.of(ticker, Duration.ofSeconds(2));
        List<String> acted = new CopyOnWriteArrayList<>();
        Watchdog watchdog = Watchdog.of("stuck", WatchdogConfig.builder().signal("main-loop", loop, 1.0)
                .sampleInterval(Duration.ofSeconds(1)).breachesToAct(2).ticker(ticker).scheduler(scheduler)
                .action(b -> acted.add(b.signal())).build()).start();
        for (int i = 0; i < 10; i++) {
            scheduler.advance(Duration.ofSeconds(1));
            loop.beat();
        }
        assertThat(acted).isEmpty();
        scheduler.advance(Duration.ofSeconds(3)); // silent: 1 s, 2 s (breach), 3 s (breach) → act
        assertThat(acted).containsExactly("main-loop");
        assertThat(loop.load()).isEqualTo(1.5);
        watchdog.close();
    }

    @Test
    void aFailingActionOrSignalIsLoggedAndCountedAndSamplingGoesOn() {
        Watchdog watchdog = Watchdog.of("fails", WatchdogConfig.builder()
                .signal("broken", () -> {
                    throw new IllegalStateException("bean gone");
                }, 0.5)
                .signal("memory", LoadSignal.constant(0.99), 0.9)
                .breachesToAct(1).initialBackoff(Duration.ZERO).sampleInterval(Duration.ofSeconds(1))
                .ticker(ticker).scheduler(scheduler)
                .action(b -> {
                    throw new java.io.IOException("cannot act");
                }).build()).start();
        scheduler.advance(Duration.ofSeconds(2));
        assertThat(watchdog.metrics().actionFailures()).isEqualTo(2);
        assertThat(watchdog.metrics().samples()).isEqualTo(2);
        watchdog.close();
    }

    @Test
    void itIsObservableThroughMicrometer() {
        Watchdog watchdog = Watchdog.of("metered", config(LoadSignal.constant(0.99)).build()).start();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new WatchdogMetricsBinder(watchdog).bindTo(registry);
        scheduler.advance(Duration.ofSeconds(3));
        assertThat(registry.get("levee.health.watchdog.samples").functionCounter().count()).isEqualTo(3.0);
        assertThat(registry.get("levee.health.watchdog.breaches").functionCounter().count()).isEqualTo(1.0);
        assertThat(registry.get("levee.health.watchdog.actions").tag("outcome", "taken").functionCounter().count())
                .isEqualTo(1.0);
        assertThat(registry.get("levee.health.watchdog.unready").gauge().value()).isEqualTo(1.0);
        watchdog.close();
    }

    @Test
    void closeStopsSamplingAndStartIsIdempotent() {
        Watchdog watchdog = Watchdog.of("stop", config(LoadSignal.constant(0.1)).build());
        watchdog.start();
        watchdog.start();
        assertThat(scheduler.pending()).isEqualTo(1);
        scheduler.advance(Duration.ofSeconds(2));
        watchdog.close();
        assertThat(scheduler.pending()).isZero();
        scheduler.advance(Duration.ofSeconds(10));
        assertThat(watchdog.metrics().samples()).isEqualTo(2);
        org.assertj.core.api.Assertions.assertThatThrownBy(watchdog::start).isInstanceOf(IllegalStateException.class);
    }
}
