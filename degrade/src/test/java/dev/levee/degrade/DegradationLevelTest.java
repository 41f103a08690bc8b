package dev.levee.degrade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.degrade.testing.RecordingLogs;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

class DegradationLevelTest {
    private final ManualTicker ticker = new ManualTicker();
    private final AtomicReference<Double> load = new AtomicReference<>(0.0);

    private DegradationLevel level(String name, Duration recoveryDelay) {
        DegradationLevelConfig config = DegradationLevelConfig.builder()
                .thresholds(0.8, 0.95).hysteresis(0.1).recoveryDelay(recoveryDelay)
                .sampleInterval(Duration.ofSeconds(1)).ticker(ticker).build();
        return DegradationLevel.of(name, config, load::get);
    }

    @Test
    void togglesSwitchWithHysteresisOnAScriptedLoadSequence() {
        DegradationLevel degradation = level("scripted", Duration.ZERO);
        BooleanSupplier recommendations = degradation.toggle(1);
        BooleanSupplier reviews = degradation.toggle(2);
        double[] script = {0.50, 0.79, 0.80, 0.75, 0.71, 0.70, 0.69, 0.85, 0.96, 0.90, 0.86, 0.85, 0.84, 0.72, 0.69, 0.10};
        int[] expected =  {0,    0,    1,    1,    1,    1,    0,    1,    2,    2,    2,    2,    1,    1,    0,    0};
        List<Integer> levels = new ArrayList<>();
        List<String> toggles = new ArrayList<>();

        for (double reading : script) {
            load.set(reading);
            ticker.advance(Duration.ofSeconds(1));
            levels.add(degradation.level());
            toggles.add((recommendations.getAsBoolean() ? "R" : "-") + (reviews.getAsBoolean() ? "V" : "-"));
        }

        assertThat(levels).containsExactly(java.util.Arrays.stream(expected).boxed().toArray(Integer[]::new));
        assertThat(toggles).containsExactly("RV", "RV", "-V", "-V", "-V", "-V", "RV", "-V", "--", "--", "--", "--",
                "-V", "-V", "RV", "RV");
        assertThat(degradation.metrics().raised()).isEqualTo(3);
        assertThat(degradation.metrics().lowered()).isEqualTo(3);
    }

    @Test
    void aLevelIsHeldForTheRecoveryDelayBeforeSteppingDown() {
        DegradationLevel degradation = level("recovery", Duration.ofSeconds(10));
        load.set(0.9);
        assertThat(degradation.update()).isEqualTo(1);

        load.set(0.1);
        ticker.advance(Duration.ofSeconds(9));
        assertThat(degradation.update()).isEqualTo(1);
        ticker.advance(Duration.ofSeconds(1));
        assertThat(degradation.update()).isZero();
        load.set(0.99);
        assertThat(degradation.update()).isEqualTo(2); // rising never waits
    }

    @Test
    void theLoadIsReadAtMostOncePerSampleInterval() {
        AtomicInteger reads = new AtomicInteger();
        DegradationLevel degradation = DegradationLevel.of("sampling", DegradationLevelConfig.builder()
                .sampleInterval(Duration.ofSeconds(1)).ticker(ticker).build(), () -> {
                    reads.incrementAndGet();
                    return 0.9;
                });

        for (int i = 0; i < 10; i++) {
            degradation.level();
        }
        assertThat(reads).hasValue(1);
        ticker.advance(Duration.ofMillis(999));
        degradation.level();
        assertThat(reads).hasValue(1);
        ticker.advance(Duration.ofMillis(1));
        assertThat(degradation.level()).isEqualTo(1);
        assertThat(reads).hasValue(2);
    }

    @Test
    void listenersAndLogsSeeEveryChange() {
        List<DegradeEvent> events = new CopyOnWriteArrayList<>();
        DegradationLevel degradation = level("level-events", Duration.ZERO);
        degradation.onEvent(events::add);

        load.set(0.97);
        degradation.update();
        load.set(0.0);
        degradation.update();

        assertThat(events).containsExactly(
                new DegradeEvent.LevelRaised("level-events", ticker.read(), 0, 2, 0.97),
                new DegradeEvent.LevelLowered("level-events", ticker.read(), 2, 0, 0.0));
        assertThat(RecordingLogs.lines(Level.WARN, "'level-events'")).hasSize(1);
        assertThat(RecordingLogs.lines(Level.INFO, "'level-events'")).hasSize(1);
    }

    @Test
    void aBrokenSignalKeepsTheLevel() {
        AtomicReference<Object> reading = new AtomicReference<>(0.9);
        DegradationLevel degradation = DegradationLevel.of("broken-signal",
                DegradationLevelConfig.builder().recoveryDelay(Duration.ZERO).ticker(ticker).build(), () -> {
                    Object r = reading.get();
                    if (r instanceof RuntimeException e) {
                        throw e;
                    }
                    return (Double) r;
                });
        assertThat(degradation.update()).isEqualTo(1);

        reading.set(new IllegalStateException("metrics unavailable"));
        assertThat(degradation.update()).isEqualTo(1);
        reading.set(Double.NaN);
        assertThat(degradation.update()).isEqualTo(1);
        reading.set(-1.0);
        assertThat(degradation.update()).isEqualTo(1);
        assertThat(RecordingLogs.lines(Level.WARN, "'broken-signal'")).hasSize(4); // the rise and three readings
    }

    @Test
    void metricsAreBound() {
        DegradationLevel degradation = level("level-metrics", Duration.ZERO);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new DegradationLevelMetricsBinder(degradation).bindTo(registry);
        load.set(0.85);
        degradation.update();

        assertThat(registry.get("levee.degrade.level").tag("name", "level-metrics").gauge().value()).isEqualTo(1.0);
        assertThat(registry.get("levee.degrade.level.changes").tags("name", "level-metrics", "kind", "raised")
                .functionCounter().count()).isEqualTo(1.0);
    }

    @Test
    void sixteenThreadsReadingTheLevelSeeOneConsistentChainOfChanges() throws Exception {
        List<DegradeEvent> events = new CopyOnWriteArrayList<>();
        DegradationLevel degradation = DegradationLevel.of("level-stress", DegradationLevelConfig.builder()
                .thresholds(0.5, 0.7, 0.9).hysteresis(0.05).recoveryDelay(Duration.ZERO)
                .sampleInterval(Duration.ofNanos(1)).ticker(ticker).build(), load::get);
        degradation.onEvent(events::add);
        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 16; t++) {
            dev.levee.core.RandomSource random = dev.levee.core.RandomSource.seeded(t);
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 2_000; i++) {
                    if (random.nextLong(10) == 0) {
                        load.set(random.nextDouble());
                    }
                    ticker.advance(1);
                    int level = degradation.level();
                    assertThat(level).isBetween(0, 3);
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }

        int expectedFrom = 0;
        for (DegradeEvent event : events) {
            assertThat(event.from()).isEqualTo(expectedFrom);
            assertThat(event.to()).isNotEqualTo(event.from());
            expectedFrom = event.to();
        }
        assertThat(degradation.metrics().level()).isEqualTo(expectedFrom);
        assertThat(degradation.metrics().raised() + degradation.metrics().lowered()).isEqualTo(events.size());
        assertThat(events).isNotEmpty();
    }
}
