package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class ReplicaSetConfigTest {

    private static void refused(UnaryOperator<ReplicaSetConfig.Builder> change, String field, String value) {
        assertThatThrownBy(() -> change.apply(ReplicaSetConfig.builder()).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("ReplicaSet").hasMessageContaining(field).hasMessageContaining(value);
    }

    @Test
    void defaultsAreTheDocumentedConstants() {
        ReplicaSetConfig c = ReplicaSetConfig.defaults();
        assertThat(c.selectionRule()).isEqualTo(ReplicaSetConfig.DEFAULT_SELECTION_RULE).isEqualTo(SelectionRule.PEAK_EWMA);
        assertThat(c.decayTimeNanos()).isEqualTo(ReplicaSetConfig.DEFAULT_DECAY_TIME.toNanos());
        assertThat(c.initialLatencyNanos()).isEqualTo(ReplicaSetConfig.DEFAULT_INITIAL_LATENCY.toNanos());
        assertThat(c.consecutiveFailures()).isEqualTo(5).isEqualTo(ReplicaSetConfig.DEFAULT_CONSECUTIVE_FAILURES);
        assertThat(c.baseEjectionTimeNanos()).isEqualTo(Duration.ofSeconds(30).toNanos());
        assertThat(c.maxEjectionTimeNanos()).isEqualTo(ReplicaSetConfig.DEFAULT_MAX_EJECTION_TIME.toNanos());
        assertThat(c.maxEjectedShare()).isEqualTo(0.1).isEqualTo(ReplicaSetConfig.DEFAULT_MAX_EJECTED_SHARE);
        assertThat(c.panicThreshold()).isEqualTo(0.5).isEqualTo(ReplicaSetConfig.DEFAULT_PANIC_THRESHOLD);
        assertThat(c.failureRateEjection()).isTrue();
        assertThat(c.failureRateIntervalNanos()).isEqualTo(ReplicaSetConfig.DEFAULT_FAILURE_RATE_INTERVAL.toNanos());
        assertThat(c.failureRateMinimumCalls()).isEqualTo(ReplicaSetConfig.DEFAULT_FAILURE_RATE_MINIMUM_CALLS);
        assertThat(c.failureRateMinimumReplicas()).isEqualTo(ReplicaSetConfig.DEFAULT_FAILURE_RATE_MINIMUM_REPLICAS);
        assertThat(c.failureRateStdevFactor()).isEqualTo(ReplicaSetConfig.DEFAULT_FAILURE_RATE_STDEV_FACTOR);
        assertThat(c.healthCheckIntervalNanos()).isEqualTo(ReplicaSetConfig.DEFAULT_HEALTH_CHECK_INTERVAL.toNanos());
    }

    @Test
    void toBuilderRoundTrips() {
        ReplicaSetConfig c = ReplicaSetConfig.builder().selectionRule(SelectionRule.RANDOM).decayTime(Duration.ofSeconds(3))
                .initialLatency(Duration.ofMillis(7)).consecutiveFailures(9).baseEjectionTime(Duration.ofSeconds(2))
                .maxEjectionTime(Duration.ofSeconds(20)).maxEjectedShare(0.3).panicThreshold(0.7)
                .failureRateEjection(false).failureRateInterval(Duration.ofSeconds(4)).failureRateMinimumCalls(11)
                .failureRateMinimumReplicas(3).failureRateStdevFactor(2.5).healthCheckInterval(Duration.ofMillis(300))
                .build();
        ReplicaSetConfig copy = c.toBuilder().build();
        assertThat(copy).usingRecursiveComparison().isEqualTo(c);
    }

    @Test
    void everyBoundIsRefusedWithFieldAndValue() {
        refused(b -> b.selectionRule(null), "selectionRule", "null");
        refused(b -> b.decayTime(Duration.ofNanos(999_999)), "decayTime", "PT0.000999999S");
        refused(b -> b.decayTime(Duration.ofHours(2)), "decayTime", "PT2H");
        refused(b -> b.initialLatency(Duration.ZERO), "initialLatency", "PT0S");
        refused(b -> b.consecutiveFailures(0), "consecutiveFailures", "0");
        refused(b -> b.baseEjectionTime(Duration.ZERO), "baseEjectionTime", "PT0S");
        refused(b -> b.baseEjectionTime(Duration.ofSeconds(-1)), "baseEjectionTime", "PT-1S");
        refused(b -> b.maxEjectionTime(Duration.ofSeconds(29)), "maxEjectionTime", "PT29S");
        refused(b -> b.maxEjectedShare(-0.1), "maxEjectedShare", "-0.1");
        refused(b -> b.maxEjectedShare(10), "maxEjectedShare", "looks like a percent");
        refused(b -> b.maxEjectedShare(101), "maxEjectedShare", "101.0");
        refused(b -> b.panicThreshold(1.5), "panicThreshold", "1.5");
        refused(b -> b.panicThreshold(-0.01), "panicThreshold", "-0.01");
        refused(b -> b.panicThreshold(50), "panicThreshold", "looks like a percent");
        refused(b -> b.failureRateInterval(Duration.ZERO), "failureRateInterval", "PT0S");
        refused(b -> b.failureRateMinimumCalls(0), "failureRateMinimumCalls", "0");
        refused(b -> b.failureRateMinimumReplicas(1), "failureRateMinimumReplicas", "1");
        refused(b -> b.failureRateStdevFactor(0), "failureRateStdevFactor", "0.0");
        refused(b -> b.failureRateStdevFactor(100.5), "failureRateStdevFactor", "100.5");
        refused(b -> b.healthCheckInterval(Duration.ZERO), "healthCheckInterval", "PT0S");
        refused(b -> b.ticker(null), "ticker", "null");
        refused(b -> b.random(null), "random", "null");
    }

    @Test
    void theBoundsThemselvesAreAccepted() {
        ReplicaSetConfig.builder().maxEjectedShare(0).panicThreshold(0).build();
        ReplicaSetConfig.builder().maxEjectedShare(1).panicThreshold(1).decayTime(Duration.ofMillis(1))
                .consecutiveFailures(1).maxEjectionTime(Duration.ofSeconds(30)).failureRateMinimumReplicas(2)
                .failureRateStdevFactor(100).build();
    }

    @Test
    void noReplicasOrANullReplicaIsRefusedWithFieldAndValue() {
        assertThatThrownBy(() -> ReplicaSet.ofDefaults("api", List.of()))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("replicas")
                .hasMessageContaining("0 replicas");
        List<String> withNull = new ArrayList<>();
        withNull.add("a");
        withNull.add(null);
        assertThatThrownBy(() -> ReplicaSet.ofDefaults("api", withNull))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("no null replica");
        assertThatThrownBy(() -> ReplicaSet.of("api", null, List.of("a")))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("config");
        assertThatThrownBy(() -> ReplicaSet.ofDefaults(" ", List.of("a"))).isInstanceOf(InvalidConfigException.class);
    }

    @Test
    void theEjectionCapIsFloorOfTheShareButAtLeastOne() {
        ReplicaSetConfig c = ReplicaSetConfig.defaults();
        assertThat(c.maxEjected(10)).isEqualTo(1);
        assertThat(c.maxEjected(3)).isEqualTo(1);
        assertThat(c.maxEjected(100)).isEqualTo(10);
        assertThat(c.maxEjected(29)).isEqualTo(2);
        assertThat(ReplicaSetConfig.builder().maxEjectedShare(0.3).build().maxEjected(10)).isEqualTo(3);
        assertThat(ReplicaSetConfig.builder().maxEjectedShare(0).build().maxEjected(10)).isZero();
    }
}
