package dev.levee.micrometer;

import dev.levee.testing.PublishedTypes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.bulkhead.Bulkhead;
import dev.levee.bulkhead.BulkheadConfig;
import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.core.Policy;
import dev.levee.core.PolicyRegistry;
import dev.levee.core.Subscription;
import dev.levee.retry.Retry;
import dev.levee.retry.RetryConfig;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LeveeMetersTest {
    /** The one tag vocabulary (core's MetricNames). */
    static final Set<String> TAG_KEYS = Set.of("name", "outcome", "state", "kind", "reason");
    /** Pattern-specific dimensions outside the vocabulary, each documented in docs/metrics.md. */
    static final java.util.Map<String, Set<String>> EXTRA_TAG_KEYS = java.util.Map.of(
            "levee.degrade.fallbacks", Set.of("tier"),                     // which fallback tier answered
            "levee.health.status", Set.of("level"),                        // liveness, readiness, startup or deep
            "levee.replicas.calls", Set.of("replica"),                     // which replica of the set
            "levee.replicas.outstanding", Set.of("replica"));

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @Test
    void oneCallBindsEveryPatternsMeters() {
        LeveeMeters.of(meters).bindAll(AllPolicies.create());

        Set<String> prefixes = new TreeSet<>();
        for (Meter meter : meters.getMeters()) {
            String[] parts = meter.getId().getName().split("\\.");
            prefixes.add(parts[0] + "." + parts[1]);
        }
        assertThat(prefixes).containsExactlyInAnyOrder("levee.circuitbreaker", "levee.retry", "levee.hedge", "levee.bulkhead",
                "levee.ratelimiter", "levee.timeout", "levee.loadshed", "levee.degrade", "levee.health", "levee.replicas", "levee.idempotency");
        for (Object policy : AllPolicies.create()) {
            assertThat(LeveeMeters.isBindable(policy)).as(policy.getClass().getName()).isTrue();
        }
    }

    @Test
    void everyBinderOfEveryPublishedModuleHasItsTypeInTheTable() {
        // A binder added to any module must be added to LeveeMeters' table: its constructor's policy type is bindable.
        List<String> missing = new java.util.ArrayList<>();
        for (Class<?> binder : PublishedTypes.endingIn("MetricsBinder")) {
            for (var constructor : binder.getConstructors()) {
                Class<?>[] params = constructor.getParameterTypes();
                if (params.length == 1 && params[0].isArray()) {
                    Class<?> policyType = params[0].getComponentType();
                    boolean bindable = AllPolicies.create().stream().anyMatch(policyType::isInstance)
                            || policyType.getSimpleName().equals("HealthEndpoint");   // starts a server; bound by type
                    if (!bindable) {
                        missing.add(binder.getSimpleName() + " (" + policyType.getName() + ")");
                    }
                }
            }
        }
        assertThat(missing).as("binders whose policy type LeveeMeters cannot bind (or AllPolicies does not create)").isEmpty();
    }

    @Test
    void everyLeveeMeterHasANameTagAndOnlyTagsOfTheVocabulary() {
        LeveeMeters metrics = LeveeMeters.builder(meters).percentileHistogram(true).build();
        metrics.bindAll(AllPolicies.create());
        metrics.timed(CircuitBreaker.ofDefaults("timed"));

        assertThat(meters.getMeters()).hasSizeGreaterThan(50);
        Set<String> violations = new TreeSet<>();
        for (Meter meter : meters.getMeters()) {
            String name = meter.getId().getName();
            assertThat(name).startsWith("levee.");
            List<String> keys = meter.getId().getTags().stream().map(Tag::getKey).toList();
            assertThat(keys).as(name).contains("name");
            Set<String> allowed = new TreeSet<>(TAG_KEYS);
            allowed.addAll(EXTRA_TAG_KEYS.getOrDefault(name, Set.of()));
            if (name.endsWith(".bucket") || name.endsWith(".percentile") || name.endsWith(".histogram")) {
                allowed.addAll(Set.of("le", "phi"));        // Micrometer's own gauges for a histogram's buckets and percentiles
            }
            if (!allowed.containsAll(keys)) {
                violations.add(name + " " + keys);
            }
        }
        assertThat(violations).as("meters with tag keys outside the vocabulary").isEmpty();
    }

    @Test
    void aRegistrysPoliciesAreBoundNowAndWhenCreated() {
        PolicyRegistry<BulkheadConfig, Bulkhead> bulkheads = Bulkhead.registry(BulkheadConfig.defaults());
        bulkheads.get("before");
        List<Subscription> subscriptions = LeveeMeters.of(meters).bindAll(bulkheads);

        bulkheads.get("after");

        assertThat(meters.find("levee.bulkhead.rejected").tag("name", "before").meters()).isNotEmpty();
        assertThat(meters.find("levee.bulkhead.rejected").tag("name", "after").meters()).isNotEmpty();
        subscriptions.forEach(Subscription::close);
        bulkheads.get("unsubscribed");
        assertThat(meters.find("levee.bulkhead.rejected").tag("name", "unsubscribed").meters()).isEmpty();
    }

    @Test
    void latencyTimersRecordSuccessesAndFailuresNotRefusals() throws IOException {
        ManualTicker ticker = new ManualTicker();
        LeveeMeters metrics = LeveeMeters.builder(meters).ticker(ticker).build();
        CircuitBreaker breaker = CircuitBreaker.of("payments", CircuitBreakerConfig.builder().ticker(ticker).build());
        Policy timed = metrics.timed(breaker);
        assertThat(timed.name()).isEqualTo("payments");

        String result = timed.execute(() -> {
            ticker.advance(Duration.ofMillis(5));
            return "ok";
        });
        assertThatThrownBy(() -> timed.execute(() -> {
            ticker.advance(Duration.ofMillis(7));
            throw new IOException("reset");
        })).isInstanceOf(IOException.class);
        breaker.transitionToForcedOpen();
        assertThatThrownBy(() -> timed.execute(() -> "never")).isInstanceOf(dev.levee.core.CircuitOpenException.class);

        assertThat(result).isEqualTo("ok");
        Timer success = meters.get("levee.circuitbreaker.latency").tags("name", "payments", "outcome", "success").timer();
        Timer failure = meters.get("levee.circuitbreaker.latency").tags("name", "payments", "outcome", "failure").timer();
        assertThat(success.count()).isEqualTo(1);
        assertThat(success.totalTime(TimeUnit.NANOSECONDS)).isEqualTo(5_000_000.0);
        assertThat(failure.count()).isEqualTo(1);
        assertThat(failure.totalTime(TimeUnit.NANOSECONDS)).isEqualTo(7_000_000.0);
    }

    @Test
    void aDeadlineExceededIsATimedFailure() {
        ManualTicker ticker = new ManualTicker();
        Policy timed = LeveeMeters.builder(meters).ticker(ticker).build().timed(Bulkhead.ofDefaults("late"));
        assertThatThrownBy(() -> timed.execute(() -> {
            ticker.advance(Duration.ofMillis(4));
            throw new dev.levee.core.DeadlineExceededException("late", "cut short", 0);
        })).isInstanceOf(dev.levee.core.DeadlineExceededException.class);
        Timer failure = meters.get("levee.bulkhead.latency").tags("name", "late", "outcome", "failure").timer();
        assertThat(failure.count()).isEqualTo(1);
        assertThat(failure.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(4.0);
    }

    @Test
    void aTimedPolicyInsideARetryRecordsEveryAttempt() {
        ManualTicker ticker = new ManualTicker();
        LeveeMeters metrics = LeveeMeters.builder(meters).ticker(ticker).build();
        Retry retry = Retry.of("orders", RetryConfig.builder().maxAttempts(3).retryAll().ticker(ticker).sleeper(ticker).build());
        Pipeline pipeline = Pipeline.of(retry, metrics.timed(Bulkhead.ofDefaults("orders")));
        int[] attempts = {0};
        String result = pipeline.execute(() -> {
            ticker.advance(Duration.ofMillis(1));
            if (++attempts[0] < 3) {
                throw new IllegalStateException("try again");
            }
            return "done";
        });
        assertThat(result).isEqualTo("done");
        assertThat(meters.get("levee.bulkhead.latency").tags("outcome", "failure").timer().count()).isEqualTo(2);
        assertThat(meters.get("levee.bulkhead.latency").tags("outcome", "success").timer().count()).isEqualTo(1);
    }

    @Test
    void percentileHistogramsAreOptIn() {
        // What each timer asks the registry for, captured where the registry merges it.
        java.util.Map<String, io.micrometer.core.instrument.distribution.DistributionStatisticConfig> asked =
                new java.util.concurrent.ConcurrentHashMap<>();
        meters.config().meterFilter(new io.micrometer.core.instrument.config.MeterFilter() {
            @Override
            public io.micrometer.core.instrument.distribution.DistributionStatisticConfig configure(Meter.Id id,
                    io.micrometer.core.instrument.distribution.DistributionStatisticConfig config) {
                asked.put(id.getTag("name") + "/" + id.getTag("outcome"), config);
                return config;
            }
        });
        LeveeMeters.of(meters).timed(Bulkhead.ofDefaults("plain"));
        LeveeMeters.builder(meters).percentileHistogram(true).percentiles(0.99).build().timed(Bulkhead.ofDefaults("histogram"));

        assertThat(asked.get("plain/success").isPercentileHistogram()).isFalse();
        assertThat(asked.get("plain/success").getPercentiles()).isNull();
        assertThat(asked.get("histogram/success").isPercentileHistogram()).isTrue();
        assertThat(asked.get("histogram/failure").getPercentiles()).containsExactly(0.99);
        Timer histogram = meters.get("levee.bulkhead.latency").tags("name", "histogram", "outcome", "success").timer();
        histogram.record(Duration.ofMillis(3));
        assertThat(histogram.takeSnapshot().percentileValues()).hasSize(1);
    }

    @Test
    void asyncCallsAreTimed() throws Exception {
        ManualTicker ticker = new ManualTicker();
        Policy timed = LeveeMeters.builder(meters).ticker(ticker).build().timed(Bulkhead.ofDefaults("async"));
        java.util.concurrent.CompletableFuture<String> pending = new java.util.concurrent.CompletableFuture<>();
        var stage = timed.executeAsync(() -> pending);
        ticker.advance(Duration.ofMillis(9));
        pending.complete("ok");
        assertThat(stage.toCompletableFuture().get()).isEqualTo("ok");
        Timer success = meters.get("levee.bulkhead.latency").tags("name", "async", "outcome", "success").timer();
        assertThat(success.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(9.0);
    }

    @Test
    void badArgumentsAreNamed() {
        assertThatThrownBy(() -> LeveeMeters.of(null)).isInstanceOf(InvalidConfigException.class).hasMessageContaining("registry");
        assertThatThrownBy(() -> LeveeMeters.of(meters).bind("a string"))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("java.lang.String");
        assertThatThrownBy(() -> LeveeMeters.builder(meters).percentiles(99))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("percentiles");
    }
}
