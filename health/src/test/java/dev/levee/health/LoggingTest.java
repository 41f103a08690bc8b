package dev.levee.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.LoadSignal;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** WARN on a change to UNHEALTHY, never per probe; the watchdog's WARN and ERROR lines. */
class LoggingTest {

    private static String captureStderr(Runnable action) {
        PrintStream original = System.err;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(original);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aChangeToUnhealthyIsLoggedAtWarnOnceNotPerProbe() {
        ManualTicker ticker = new ManualTicker();
        HealthCheckerTest.AtomicReferenceStatus db = new HealthCheckerTest.AtomicReferenceStatus(HealthStatus.HEALTHY);
        try (HealthChecker checker = HealthChecker.of("logged",
                HealthCheckerConfig.builder().ticker(ticker).scheduler(new ManualScheduler(ticker)).build())) {
            checker.register(HealthLevel.READINESS, "db", () -> CheckResult.of(db.get(), "connection refused"));
            String log = captureStderr(() -> {
                checker.readiness();
                db.set(HealthStatus.UNHEALTHY);
                for (int i = 0; i < 5; i++) {
                    checker.readiness();
                }
                db.set(HealthStatus.HEALTHY);
                checker.readiness();
            });
            assertThat(log).containsOnlyOnce(
                    "WARN dev.levee.health.HealthChecker - HealthChecker 'logged': check 'db' changed from HEALTHY to "
                            + "UNHEALTHY: connection refused");
            assertThat(log).containsOnlyOnce(
                    "WARN dev.levee.health.HealthChecker - HealthChecker 'logged': readiness changed from HEALTHY to "
                            + "UNHEALTHY");
            assertThat(log).containsOnlyOnce("INFO dev.levee.health.HealthChecker - HealthChecker 'logged': readiness "
                    + "changed from UNHEALTHY to HEALTHY");
        }
    }

    @Test
    void theWatchdogWarnsOnActionsAndErrsOnSuppressedOnes() {
        ManualTicker ticker = new ManualTicker();
        ManualScheduler scheduler = new ManualScheduler(ticker);
        Watchdog watchdog = Watchdog.of("logged", WatchdogConfig.builder()
                .signal("memory", LoadSignal.constant(0.99), 0.9).breachesToAct(1).maxActions(1)
                .sampleInterval(Duration.ofSeconds(1)).ticker(ticker).scheduler(scheduler).build()).start();
        String log = captureStderr(() -> scheduler.advance(Duration.ofSeconds(2)));
        watchdog.close();
        assertThat(log).contains("WARN dev.levee.health.Watchdog - Watchdog 'logged': sustained breach: memory at 0.990")
                .contains("WARN dev.levee.health.Watchdog - Watchdog 'logged': acting on memory (1 of at most 1 actions")
                .contains("ERROR dev.levee.health.Watchdog - Watchdog 'logged': action for memory suppressed by the "
                        + "restart-loop guard: 1 actions already in the last PT1H");
    }
}
