package dev.levee.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import java.io.IOException;
import java.time.Duration;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class AdaptiveRateLimiterTest {
    private static final long MS = 1_000_000L;
    private final ManualTicker ticker = new ManualTicker();

    private AdaptiveRateLimiter limiter(Consumer<AdaptiveRateLimiterConfig.Builder> tweak) {
        AdaptiveRateLimiterConfig.Builder b = AdaptiveRateLimiterConfig.builder()
                .minRate(10).maxRate(100).initialRate(50).increaseStep(5).ticker(ticker).sleeper(ticker);
        tweak.accept(b);
        return AdaptiveRateLimiter.of("adaptive", b.build());
    }

    /** Runs one adjustment interval of 20 calls with the given latency, failing every k-th (0: none). */
    private static void interval(AdaptiveRateLimiter limiter, ManualTicker ticker, long latency, int failEvery) {
        for (int i = 0; i < 20; i++) {
            long now = ticker.read();
            limiter.tryAcquire(1, now);
            if (failEvery > 0 && i % failEvery == 0) {
                limiter.onFailure(latency, new IOException("down"));
            } else {
                limiter.onSuccess(latency);
            }
            ticker.advance(50 * MS);
        }
        limiter.tryAcquire(1, ticker.read()); // the first decision after the interval adjusts
    }

    @Test
    void raisesWhileLatencyStaysNearItsFloorUpToMax() {
        AdaptiveRateLimiter limiter = limiter(b -> {});
        for (int i = 0; i < 30; i++) {
            interval(limiter, ticker, 10 * MS, 0);
        }
        assertThat(limiter.currentRate()).isEqualTo(100.0);
    }

    @Test
    void cutsMultiplicativelyWhenLatencyRisesDownToMin() {
        AdaptiveRateLimiter limiter = limiter(b -> {});
        interval(limiter, ticker, 10 * MS, 0); // floor 10 ms, +5
        double before = limiter.currentRate();
        interval(limiter, ticker, 50 * MS, 0); // 5x the floor: cut
        assertThat(limiter.currentRate()).isEqualTo(before * 0.75);
        for (int i = 0; i < 20; i++) {
            interval(limiter, ticker, 500 * MS, 0);
        }
        assertThat(limiter.currentRate()).isEqualTo(10.0);
    }

    @Test
    void cutsWhenErrorsAppear() {
        AdaptiveRateLimiter limiter = limiter(b -> {});
        interval(limiter, ticker, 10 * MS, 0);
        double before = limiter.currentRate();
        interval(limiter, ticker, 10 * MS, 4); // 25% failures
        assertThat(limiter.currentRate()).isEqualTo(before * 0.75);
    }

    @Test
    void anAdjustmentAfterAHandSetRateStartsFromItAndTheReportedRateIsTheEnforcedOne() {
        // The racing orders (an adjustment computed before the hand-set rate and written after it) are
        // the jcstress test AdaptiveRateLimiterSetRateRace; here the sequential contract both orders keep.
        AdaptiveRateLimiter limiter = limiter(b -> {});
        limiter.setRate(100, Duration.ofSeconds(1));
        interval(limiter, ticker, 10 * MS, 2); // half the calls fail: cut from the hand-set 100
        assertThat(limiter.currentRate()).isEqualTo(75.0);
        assertThat(limiter.limit()).isEqualTo(75L);
        limiter.setRate(20, Duration.ofSeconds(1));
        assertThat(limiter.currentRate()).isEqualTo(20.0);
        assertThat(limiter.limit()).isEqualTo(20L);
    }

    @Test
    void tooFewSamplesChangeNothing() {
        AdaptiveRateLimiter limiter = limiter(b -> b.minSamples(100));
        interval(limiter, ticker, 500 * MS, 1);
        assertThat(limiter.currentRate()).isEqualTo(50.0);
    }

    @Test
    void theRateIsEnforced() {
        AdaptiveRateLimiter limiter = limiter(b -> b.initialRate(10).burst(1));
        assertThat(limiter.tryAcquire(1, ticker.read())).isTrue();
        assertThat(limiter.tryAcquire(1, ticker.read())).isFalse();
        ticker.advance(100 * MS);
        assertThat(limiter.tryAcquire(1, ticker.read())).isTrue();
    }

    @Test
    void configBounds() {
        assertThatThrownBy(() -> AdaptiveRateLimiterConfig.builder().minRate(0).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("AdaptiveRateLimiter: minRate must be > 0 and finite but was 0.0");
        assertThatThrownBy(() -> AdaptiveRateLimiterConfig.builder().minRate(10).maxRate(5).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("maxRate must be in [10.0");
        assertThatThrownBy(() -> AdaptiveRateLimiterConfig.builder().initialRate(5000).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("initialRate");
        assertThatThrownBy(() -> AdaptiveRateLimiterConfig.builder().burst(0).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("burst");
        assertThatThrownBy(() -> AdaptiveRateLimiterConfig.builder().adjustInterval(Duration.ZERO).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("adjustInterval");
        assertThatThrownBy(() -> AdaptiveRateLimiterConfig.builder().minSamples(0).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("minSamples");
        assertThatThrownBy(() -> AdaptiveRateLimiterConfig.builder().latencyTolerance(1.0).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("latencyTolerance");
        assertThatThrownBy(() -> AdaptiveRateLimiterConfig.builder().nearFloor(3.0).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("nearFloor");
        assertThatThrownBy(() -> AdaptiveRateLimiterConfig.builder().errorRateThreshold(1.5).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("errorRateThreshold");
        assertThatThrownBy(() -> AdaptiveRateLimiterConfig.builder().errorRateThreshold(5).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("AdaptiveRateLimiter: errorRateThreshold must be a fraction in [0, 1] (5.0 looks like a"
                        + " percent: write 0.05) but was 5.0");
        assertThatThrownBy(() -> AdaptiveRateLimiterConfig.builder().errorRateThreshold(101).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("in [0.0, 1.0] but was 101.0");
        AdaptiveRateLimiterConfig custom = AdaptiveRateLimiterConfig.builder().minRate(2).maxRate(50).burst(3)
                .errorRateThreshold(0.2).build();
        assertThat(custom.toBuilder().build().errorRateThreshold()).isEqualTo(0.2);
        assertThat(custom.toBuilder().build().maxRate()).isEqualTo(50.0);
        assertThatThrownBy(() -> AdaptiveRateLimiterConfig.builder().decreaseFactor(1.0).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("decreaseFactor");
        assertThatThrownBy(() -> AdaptiveRateLimiterConfig.builder().increaseStep(-1).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("increaseStep");
        assertThatThrownBy(() -> AdaptiveRateLimiterConfig.builder().ticker(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("ticker");
        assertThatThrownBy(() -> AdaptiveRateLimiterConfig.builder().sleeper(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("sleeper");
        AdaptiveRateLimiterConfig defaults = AdaptiveRateLimiterConfig.builder().build();
        assertThat(defaults.initialRate()).isEqualTo(500.0);
        assertThat(defaults.increaseStep()).isEqualTo(10.0);
    }

    @Test
    void asAPolicyItLearnsFromTheCalls() {
        AdaptiveRateLimiter limiter = limiter(b -> b.minSamples(1).adjustInterval(Duration.ofMillis(100)));
        limiter.execute(() -> {
            ticker.advance(10 * MS);
            return "fast";
        });
        ticker.advance(100 * MS);
        limiter.execute(() -> "adjusts with floor 10 ms");
        assertThat(limiter.currentRate()).isEqualTo(55.0);
    }
}
