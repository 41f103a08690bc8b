package dev.levee.loadshed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import dev.levee.loadshed.limit.DropAimdLimit;
import dev.levee.loadshed.limit.FixedLimit;
import dev.levee.loadshed.limit.GradientLimit;
import dev.levee.loadshed.limit.LatencyAimdLimit;
import dev.levee.loadshed.limit.VegasLimit;
import java.time.Duration;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** Every bound of every builder: refused in build() with policy, field, bound and value in the message. */
class ConfigBoundsTest {

    private static void refused(ThrowingCallable build, String message) {
        assertThatThrownBy(build).isInstanceOf(InvalidConfigException.class).hasMessage(message);
    }

    @Test
    void limiterConfig() {
        refused(() -> ConcurrencyLimiterConfig.builder().algorithm(null).build(),
                "ConcurrencyLimiter: algorithm must be set (not null) but was null");
        refused(() -> ConcurrencyLimiterConfig.builder().maxWait(Duration.ofMillis(-1)).build(),
                "ConcurrencyLimiter: maxWait must be >= 0 but was PT-0.001S");
        refused(() -> ConcurrencyLimiterConfig.builder().maxWait(Duration.ofHours(2)).build(),
                "ConcurrencyLimiter: maxWait must be <= PT1H but was PT2H");
        refused(() -> ConcurrencyLimiterConfig.builder().maxWaiters(0).build(),
                "ConcurrencyLimiter: maxWaiters must be in [1, 1000000] but was 0");
        refused(() -> ConcurrencyLimiterConfig.builder().maxWaiters(1_000_001).build(),
                "ConcurrencyLimiter: maxWaiters must be in [1, 1000000] but was 1000001");
        refused(() -> ConcurrencyLimiterConfig.builder().waitOrder(null).build(),
                "ConcurrencyLimiter: waitOrder must be set (not null) but was null");
        refused(() -> ConcurrencyLimiterConfig.builder().classifier(null).build(),
                "ConcurrencyLimiter: classifier must be set (not null) but was null");
        refused(() -> ConcurrencyLimiterConfig.builder().ticker(null).build(),
                "ConcurrencyLimiter: ticker must be set (not null) but was null");
        refused(() -> ConcurrencyLimiterConfig.builder().scheduler(null).build(),
                "ConcurrencyLimiter: scheduler must be set (not null) but was null");
        refused(() -> ConcurrencyLimiterConfig.builder().asyncExecutor(null).build(),
                "ConcurrencyLimiter: asyncExecutor must be set (not null) but was null");
        refused(() -> ConcurrencyLimiter.of(" ", ConcurrencyLimiterConfig.defaults()),
                "ConcurrencyLimiter: name must be a non-blank string but was ' '");
        assertThat(ConcurrencyLimiterConfig.builder().maxWait(Duration.ofHours(1)).maxWaiters(1).build().maxWaiters())
                .isEqualTo(1);
    }

    @Test
    void limiterConfigRoundTripsThroughToBuilder() {
        ConcurrencyLimiterConfig c = ConcurrencyLimiterConfig.builder().maxWait(Duration.ofMillis(5)).maxWaiters(7)
                .waitOrder(ConcurrencyLimiterConfig.WaitOrder.LIFO).build();
        ConcurrencyLimiterConfig copy = c.toBuilder().build();
        assertThat(copy.maxWait()).isEqualTo(Duration.ofMillis(5));
        assertThat(copy.maxWaiters()).isEqualTo(7);
        assertThat(copy.waitOrder()).isEqualTo(ConcurrencyLimiterConfig.WaitOrder.LIFO);
        assertThat(copy.algorithm()).isSameAs(c.algorithm());
        assertThat(copy.scheduler()).isSameAs(c.scheduler());
        assertThat(copy.asyncExecutor()).isSameAs(c.asyncExecutor());
    }

    @Test
    void aFactoryReturningAnAlgorithmWithBadBoundsIsRefused() {
        ConcurrencyLimiterConfig c = ConcurrencyLimiterConfig.builder()
                .algorithm(() -> new ScriptedAlgorithm(0, 1, 5, n -> 1, false)).build();
        refused(() -> ConcurrencyLimiter.of("x", c),
                "ConcurrencyLimiter 'x': algorithm.initialLimit must be in [minLimit, maxLimit] but was 0");
    }

    @Test
    void limitBoundsOfEveryAlgorithm() {
        refused(() -> FixedLimit.of(0), "FixedLimit: limit must be >= 1 but was 0");
        refused(() -> LatencyAimdLimit.builder().minLimit(0).build(),
                "LatencyAimdLimit: minLimit must be in [1, 1000000] but was 0");
        refused(() -> LatencyAimdLimit.builder().maxLimit(1_000_001).build(),
                "LatencyAimdLimit: maxLimit must be in [1, 1000000] but was 1000001");
        refused(() -> LatencyAimdLimit.builder().minLimit(50).maxLimit(40).initialLimit(45).build(),
                "LatencyAimdLimit: minLimit must be <= maxLimit (40) but was 50");
        refused(() -> LatencyAimdLimit.builder().initialLimit(101).build(),
                "LatencyAimdLimit: initialLimit must be in [minLimit, maxLimit] = [10, 100] but was 101");
        refused(() -> DropAimdLimit.builder().minLimit(0).build(),
                "DropAimdLimit: minLimit must be in [1, 1000000] but was 0");
        refused(() -> DropAimdLimit.builder().initialLimit(0).build(),
                "DropAimdLimit: initialLimit must be in [minLimit, maxLimit] = [1, 200] but was 0");
        refused(() -> VegasLimit.builder().maxLimit(0).build(), "VegasLimit: maxLimit must be in [1, 1000000] but was 0");
        refused(() -> GradientLimit.builder().minLimit(30).initialLimit(20).build(),
                "GradientLimit: initialLimit must be in [minLimit, maxLimit] = [30, 1000] but was 20");
    }

    @Test
    void latencyAimdFields() {
        refused(() -> LatencyAimdLimit.builder().target(Duration.ZERO).build(),
                "LatencyAimdLimit: target must be > 0 but was PT0S");
        refused(() -> LatencyAimdLimit.builder().target(null).build(),
                "LatencyAimdLimit: target must be set (not null) but was null");
        refused(() -> LatencyAimdLimit.builder().backoffRatio(1.0).build(),
                "LatencyAimdLimit: backoffRatio must be in (0, 1) but was 1.0");
        refused(() -> LatencyAimdLimit.builder().backoffRatio(0).build(),
                "LatencyAimdLimit: backoffRatio must be in (0, 1) but was 0.0");
        refused(() -> LatencyAimdLimit.builder().decreaseThreshold(0.5).build(),
                "LatencyAimdLimit: decreaseThreshold must be in [1, 1000] but was 0.5");
    }

    @Test
    void dropAimdFields() {
        refused(() -> DropAimdLimit.builder().backoffRatio(1.5).build(),
                "DropAimdLimit: backoffRatio must be in (0, 1) but was 1.5");
        refused(() -> DropAimdLimit.builder().timeout(Duration.ZERO).build(),
                "DropAimdLimit: timeout must be > 0 but was PT0S");
        refused(() -> DropAimdLimit.builder().timeout(null).build(),
                "DropAimdLimit: timeout must be set (not null) but was null");
    }

    @Test
    void vegasFields() {
        refused(() -> VegasLimit.builder().alpha(0).build(), "VegasLimit: alpha must be in (0, 1000] but was 0.0");
        refused(() -> VegasLimit.builder().beta(2).build(),
                "VegasLimit: beta must be in (alpha, 1000] with alpha = 3.0 but was 2.0");
        refused(() -> VegasLimit.builder().probeInterval(Duration.ofSeconds(-1)).build(),
                "VegasLimit: probeInterval must be >= 0 but was PT-1S");
        refused(() -> VegasLimit.builder().probeJitter(1).build(), "VegasLimit: probeJitter must be in [0, 1) but was 1.0");
        refused(() -> VegasLimit.builder().random(null).build(),
                "VegasLimit: random must be set (not null) but was null");
    }

    @Test
    void gradientFields() {
        refused(() -> GradientLimit.builder().tolerance(0.9).build(),
                "GradientLimit: tolerance must be in [1, 10] but was 0.9");
        refused(() -> GradientLimit.builder().queueSize(-1).build(),
                "GradientLimit: queueSize must be in [0, 1000] but was -1");
        refused(() -> GradientLimit.builder().smoothing(0).build(),
                "GradientLimit: smoothing must be in (0, 1] but was 0.0");
        refused(() -> GradientLimit.builder().shortWindow(0).build(),
                "GradientLimit: shortWindow must be in [1, 10000] but was 0");
        refused(() -> GradientLimit.builder().backoffRatio(1).build(),
                "GradientLimit: backoffRatio must be in (0, 1) but was 1.0");
        refused(() -> GradientLimit.builder().probeInterval(null).build(),
                "GradientLimit: probeInterval must be set (not null) but was null");
        refused(() -> GradientLimit.builder().probeJitter(-0.1).build(),
                "GradientLimit: probeJitter must be in [0, 1) but was -0.1");
        refused(() -> GradientLimit.builder().random(null).build(),
                "GradientLimit: random must be set (not null) but was null");
    }
}
