package dev.levee.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.CheckedSupplier;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.core.RandomSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ChaosTest {
    private static final int CALLS = 100_000;

    private final ManualTicker ticker = new ManualTicker();
    private final AtomicInteger ran = new AtomicInteger();
    private final CheckedSupplier<String, IOException> call = () -> {
        ran.incrementAndGet();
        return "real";
    };

    private ChaosConfig.Builder seeded(long seed) {
        return ChaosConfig.builder().randomSource(RandomSource.seeded(seed)).ticker(ticker).sleeper(ticker);
    }

    @ParameterizedTest(name = "{0} at rate {1}")
    @CsvSource({
        "FAULT, 0.01", "FAULT, 0.1", "FAULT, 0.5", "FAULT, 0.9",
        "RESULT, 0.001", "RESULT, 0.25", "RESULT, 0.75",
        "LATENCY, 0.05", "LATENCY, 0.333", "LATENCY, 1.0", "LATENCY, 0.0"})
    void theObservedInjectionRateOver100000SeededCallsIsWithinOnePointOfTheConfiguredOne(ChaosKind kind, double rate)
            throws IOException {
        ChaosConfig.Builder b = seeded(19).injectionRate(rate);
        switch (kind) {
            case FAULT: b.fault(() -> new IOException("chaos")); break;
            case RESULT: b.result(() -> "substitute"); break;
            default: b.latency(Duration.ofMillis(1));
        }
        Chaos chaos = Chaos.of("rate", b.build());
        int injected = 0;
        for (int i = 0; i < CALLS; i++) {
            long before = ticker.read();
            int runsBefore = ran.get();
            try {
                String value = chaos.execute(call);
                if (kind == ChaosKind.RESULT && value.equals("substitute")) {
                    injected++;
                }
            } catch (IOException e) {
                injected++;
            }
            if (kind == ChaosKind.LATENCY && ticker.read() - before == 1_000_000L) {
                injected++;
                assertThat(ran.get()).isEqualTo(runsBefore + 1); // latency delays the call, never replaces it
            }
        }
        double observed = injected / (double) CALLS;
        assertThat(observed).as("observed injection rate").isBetween(rate - 0.01, rate + 0.01);
        assertThat(chaos.injections()).isEqualTo(injected);
        if (kind != ChaosKind.LATENCY) {
            assertThat(ran.get()).isEqualTo(CALLS - injected); // a fault or a substitute replaces the call
        }
    }

    @Test
    void theSameSeedInjectsIntoTheSameCalls() {
        assertThat(pattern(7)).isEqualTo(pattern(7)).isNotEqualTo(pattern(8));
    }

    private List<Integer> pattern(long seed) {
        Chaos chaos = Chaos.of("p", seeded(seed).injectionRate(0.2).result(() -> "x").build());
        List<Integer> hits = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            if ("x".equals(chaos.<String, RuntimeException>execute(() -> "real"))) {
                hits.add(i);
            }
        }
        return hits;
    }

    @Test
    void switchedOffItNeverInjectsAndTheSwitchWorksAtRunTime() throws IOException {
        Chaos chaos = Chaos.of("switch", seeded(1).injectionRate(1.0).enabled(false).result(() -> "fake").build());
        List<ChaosEvent> events = new ArrayList<>();
        chaos.onEvent(events::add);
        assertThat(chaos.execute(call)).isEqualTo("real");
        chaos.enable();
        assertThat(chaos.isEnabled()).isTrue();
        assertThat(chaos.execute(call)).isEqualTo("fake");
        chaos.disable();
        chaos.disable(); // no change, no event
        assertThat(chaos.execute(call)).isEqualTo("real");
        assertThat(events).containsExactly(
                new ChaosEvent.Switched("switch", 0L, true),
                new ChaosEvent.Injected("switch", 0L, ChaosKind.RESULT),
                new ChaosEvent.Switched("switch", 0L, false));
        assertThat(chaos.metrics()).isEqualTo(new ChaosMetrics(false, ChaosKind.RESULT, 1.0, 1));
    }

    @Test
    void thePerCallSelectorChoosesWhichCallsAreEligible() throws IOException {
        AtomicBoolean tenantUnderTest = new AtomicBoolean();
        Chaos chaos = Chaos.of("selector", seeded(1).injectionRate(1.0).injectWhen(tenantUnderTest::get)
                .fault(() -> new IOException("chaos")).build());
        assertThat(chaos.execute(call)).isEqualTo("real");
        tenantUnderTest.set(true);
        assertThatThrownBy(() -> chaos.execute(call)).isInstanceOf(IOException.class).hasMessage("chaos");
        assertThat(chaos.injections()).isEqualTo(1);
    }

    @Test
    void latencyWaitsOnTheSleeperThenRunsTheCall() throws IOException {
        Chaos chaos = Chaos.of("slow", seeded(1).injectionRate(1.0).latency(Duration.ofMillis(250)).build());
        assertThat(chaos.execute(call)).isEqualTo("real");
        assertThat(ticker.read()).isEqualTo(Duration.ofMillis(250).toNanos());
        assertThat(ran).hasValue(1);
    }

    @Test
    void anInterruptDuringInjectedLatencyKeepsTheFlagAndTheCallStillRuns() throws IOException {
        Chaos chaos = Chaos.of("interrupted", seeded(1).injectionRate(1.0).latency(Duration.ofSeconds(1))
                .sleeper(nanos -> {
                    throw new InterruptedException("test");
                }).build());
        try {
            assertThat(chaos.execute(call)).isEqualTo("real");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void asyncFaultsAndResultsCompleteTheStageAndLatencyWaitsOnTheScheduler() {
        IOException boom = new IOException("chaos");
        Chaos fault = Chaos.of("f", seeded(1).injectionRate(1.0).fault(() -> boom).build());
        assertThat(fault.executeAsync(() -> CompletableFuture.completedFuture("real")).toCompletableFuture())
                .isCompletedExceptionally();
        Chaos result = Chaos.of("r", seeded(1).injectionRate(1.0).result(() -> "fake").build());
        assertThat(result.executeAsync(() -> CompletableFuture.completedFuture("real")).toCompletableFuture().join())
                .isEqualTo("fake");

        ManualScheduler scheduler = new ManualScheduler(ticker);
        Chaos slow = Chaos.of("s", seeded(1).injectionRate(1.0).latency(Duration.ofSeconds(2)).scheduler(scheduler).build());
        CompletionStage<String> stage = slow.executeAsync(() -> {
            ran.incrementAndGet();
            return CompletableFuture.completedFuture("real");
        });
        assertThat(stage.toCompletableFuture()).isNotDone();
        scheduler.advance(Duration.ofMillis(1999));
        assertThat(ran).hasValue(0);
        scheduler.advance(Duration.ofMillis(1));
        assertThat(stage.toCompletableFuture().join()).isEqualTo("real");

        IllegalStateException thrown = new IllegalStateException("no stage");
        CompletionStage<String> failing = slow.executeAsync(() -> {
            throw thrown;
        });
        scheduler.advance(Duration.ofSeconds(2));
        assertThat(failing.toCompletableFuture()).isCompletedExceptionally();
    }

    @Test
    void aNullFromTheFaultFactoryIsReportedNotThrownAsANullPointer() {
        Chaos chaos = Chaos.of("null", seeded(1).injectionRate(1.0).fault(() -> null).build());
        assertThatThrownBy(() -> chaos.execute(call)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("fault factory returned null");
    }

    @Test
    void chaosPoliciesComposeInAPipeline() throws IOException {
        Chaos slow = Chaos.of("slow", seeded(1).injectionRate(1.0).latency(Duration.ofMillis(10)).build());
        Chaos down = Chaos.of("down", seeded(2).injectionRate(0.5).fault(() -> new IOException("down")).build());
        Pipeline pipeline = Pipeline.of(slow, down);
        int failures = 0;
        for (int i = 0; i < 1000; i++) {
            try {
                pipeline.execute(call);
            } catch (IOException e) {
                failures++;
            }
        }
        assertThat(ticker.read()).isEqualTo(Duration.ofMillis(10).toNanos() * 1000);
        assertThat(failures).isEqualTo((int) down.injections()).isBetween(450, 550);
        assertThat(ran.get()).isEqualTo(1000 - failures);
    }

    @Test
    void defaultsAreTheDocumentedConstants() {
        ChaosConfig d = ChaosConfig.defaults();
        assertThat(d.injectionRate()).isEqualTo(ChaosConfig.DEFAULT_INJECTION_RATE).isEqualTo(0.001);
        assertThat(d.enabled()).isEqualTo(ChaosConfig.DEFAULT_ENABLED).isTrue();
        assertThat(d.kind()).isEqualTo(ChaosConfig.DEFAULT_KIND).isEqualTo(ChaosKind.LATENCY);
        assertThat(d.latency()).isEqualTo(ChaosConfig.DEFAULT_LATENCY).isEqualTo(Duration.ofSeconds(30));
        assertThat(Chaos.ofDefaults("d").config().toString()).contains("LATENCY");
        ChaosConfig copy = seeded(1).injectionRate(0.3).result(() -> 1).build().toBuilder().build();
        assertThat(copy.kind()).isEqualTo(ChaosKind.RESULT);
        assertThat(copy.injectionRate()).isEqualTo(0.3);
        assertThat(Chaos.registry(ChaosConfig.defaults()).get("x").name()).isEqualTo("x");
    }

    @Test
    void everyFieldBoundIsRefusedWithPolicyFieldAndValue() {
        assertRefused(ChaosConfig.builder().injectionRate(-0.01), "injectionRate", "-0.01");
        assertRefused(ChaosConfig.builder().injectionRate(5), "injectionRate", "looks like a percent");
        assertRefused(ChaosConfig.builder().injectionRate(150), "injectionRate", "150.0");
        assertRefused(ChaosConfig.builder().injectionRate(Double.NaN), "injectionRate", "NaN");
        assertRefused(ChaosConfig.builder().latency(Duration.ZERO), "latency", "PT0S");
        assertRefused(ChaosConfig.builder().latency(Duration.ofMillis(-1)), "latency", "-0.001");
        assertRefused(ChaosConfig.builder().latency(Duration.ofDays(2)), "latency", "PT48H");
        assertRefused(ChaosConfig.builder().latency(null), "latency", "null");
        assertRefused(ChaosConfig.builder().fault(null), "fault", "null");
        assertRefused(ChaosConfig.builder().result(null), "result", "null");
        assertRefused(ChaosConfig.builder().injectWhen(null), "injectWhen", "null");
        assertRefused(ChaosConfig.builder().randomSource(null), "randomSource", "null");
        assertRefused(ChaosConfig.builder().ticker(null), "ticker", "null");
        assertRefused(ChaosConfig.builder().sleeper(null), "sleeper", "null");
        assertRefused(ChaosConfig.builder().scheduler(null), "scheduler", "null");
        assertThatThrownBy(() -> Chaos.of("x", null)).isInstanceOf(InvalidConfigException.class).hasMessageContaining("config");
        assertThatThrownBy(() -> Chaos.of(null, ChaosConfig.defaults())).isInstanceOf(InvalidConfigException.class);
        assertThat(ChaosConfig.builder().injectionRate(0.0).build().injectionRate()).isZero();
        assertThat(ChaosConfig.builder().injectionRate(1.0).latency(ChaosConfig.MAX_LATENCY).build().latency())
                .isEqualTo(Duration.ofDays(1));
    }

    private static void assertRefused(ChaosConfig.Builder builder, String field, String valueText) {
        assertThatThrownBy(builder::build).isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("Chaos").hasMessageContaining(field).hasMessageContaining(valueText);
    }

    @Test
    void theBinderCountsInjectionsAndShowsTheSwitch() {
        Chaos chaos = Chaos.of("bound", seeded(1).injectionRate(1.0).result(() -> "x").build());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new ChaosMetricsBinder(List.of(chaos)).bindTo(registry);
        chaos.<String, RuntimeException>execute(() -> "real");
        assertThat(registry.get("levee.chaos.injections").tag("name", "bound").tag("kind", "result").functionCounter().count())
                .isEqualTo(1.0);
        assertThat(registry.get("levee.chaos.enabled").tag("name", "bound").gauge().value()).isEqualTo(1.0);
        chaos.disable();
        assertThat(registry.get("levee.chaos.enabled").gauge().value()).isZero();
    }
}
