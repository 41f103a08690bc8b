package dev.levee.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import dev.levee.core.Sleeper;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every field: its bound (rejected with a message naming limiter, field, bound and value) and its effect. */
class RateLimiterConfigTest {
    private final ManualTicker ticker = new ManualTicker();

    private RateLimiterConfig.Builder builder() {
        return RateLimiterConfig.builder().ticker(ticker).sleeper(ticker);
    }

    @Test
    void defaults() {
        RateLimiterConfig c = RateLimiterConfig.builder().build();
        assertThat(c.algorithm()).isEqualTo(RateLimitAlgorithm.GCRA);
        assertThat(c.limit()).isEqualTo(100);
        assertThat(c.period()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.burst()).isEqualTo(100);
        assertThat(c.maxWaitNanos()).isZero();
        assertThat(c.warmUpNanos()).isZero();
        assertThat(c.coldFactor()).isEqualTo(3.0);
        assertThat(RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.LEAKY_BUCKET).build().maxWaitNanos())
                .isEqualTo(Duration.ofSeconds(1).toNanos());
        assertThat(c.toBuilder().build().toString()).isEqualTo(c.toString());
    }

    @Test
    void nameAndAlgorithm() {
        assertThatThrownBy(() -> RateLimiter.of(" ", RateLimiterConfig.defaults()))
                .isInstanceOf(InvalidConfigException.class).hasMessage("RateLimiter: name must be a non-blank string but was ' '");
        assertThatThrownBy(() -> RateLimiter.of("rl", null))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("RateLimiter 'rl': config must be set (not null) but was null");
        assertThatThrownBy(() -> AdaptiveRateLimiter.of("ad", null))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("AdaptiveRateLimiter 'ad': config must be set (not null) but was null");
        assertThat(RateLimiter.ofDefaults("d").config()).isSameAs(RateLimiterConfig.defaults());
        assertThat(AdaptiveRateLimiter.ofDefaults("a").name()).isEqualTo("a");
        assertThatThrownBy(() -> builder().algorithm(null).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("RateLimiter: algorithm must be set (not null) but was null");
    }

    @Test
    void limitBounds() {
        assertThatThrownBy(() -> builder().limit(0).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("RateLimiter: limit must be in [1, 1000000000] but was 0");
        assertThatThrownBy(() -> builder().algorithm(RateLimitAlgorithm.FIXED_WINDOW).limit(1_000_001).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("RateLimiter: limit must be in [1, 1000000] but was 1000001");
        assertThatThrownBy(() -> builder().rate(2_000, Duration.ofNanos(1_000)).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("limit must be <= period in nanoseconds");
        assertThatThrownBy(() -> builder().algorithm(RateLimitAlgorithm.TOKEN_BUCKET)
                        .rate(1_000_000_000L, Duration.ofDays(300)).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("must fit in 63 bits");
        assertThatThrownBy(() -> builder().algorithm(RateLimitAlgorithm.SLIDING_WINDOW_COUNTER)
                        .rate(1_000_000, Duration.ofDays(300)).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("must fit in 61 bits");
    }

    @Test
    void periodBounds() {
        assertThatThrownBy(() -> builder().period(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("period must be set");
        assertThatThrownBy(() -> builder().limit(1).period(Duration.ofNanos(999)).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("RateLimiter: period must be in [PT0.000001S, P366D] but was PT0.000000999S");
        assertThatThrownBy(() -> builder().period(Duration.ofDays(367)).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("period must be in");
    }

    @Test
    void burstBoundAndEffect() {
        assertThatThrownBy(() -> builder().burst(0).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("RateLimiter: burst must be in [1, 1000000000] but was 0");
        RateLimiter limiter = RateLimiter.of("cfg", builder().burst(7).build());
        int granted = 0;
        while (limiter.tryAcquire()) {
            granted++;
        }
        assertThat(granted).isEqualTo(7);
    }

    @Test
    void limitAndPeriodEffect() {
        RateLimiter limiter = RateLimiter.of("cfg", builder().rate(4, Duration.ofSeconds(2)).burst(1).build());
        assertThat(limiter.tryAcquire()).isTrue();
        ticker.advance(Duration.ofMillis(499));
        assertThat(limiter.tryAcquire()).isFalse();
        ticker.advance(Duration.ofMillis(1));
        assertThat(limiter.tryAcquire()).isTrue(); // T = 2 s / 4 = 500 ms
    }

    @Test
    void maxWaitBoundAndEffect() {
        assertThatThrownBy(() -> builder().maxWait(Duration.ofNanos(-1)).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("RateLimiter: maxWait must be >= 0 but was PT-0.000000001S");
        RateLimiter limiter = RateLimiter.of("cfg", builder().rate(1, Duration.ofSeconds(1)).burst(1)
                .maxWait(Duration.ofSeconds(1)).build());
        limiter.acquire(ticker.read());
        limiter.acquire(ticker.read()); // waits one second on the manual sleeper
        assertThat(ticker.read()).isEqualTo(Duration.ofSeconds(1).toNanos());
    }

    @Test
    void warmUpBoundAndEffect() {
        assertThatThrownBy(() -> builder().warmUp(Duration.ofNanos(-1)).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("warmUp must be >= 0");
        assertThatThrownBy(() -> builder().algorithm(RateLimitAlgorithm.TOKEN_BUCKET).warmUp(Duration.ofSeconds(1)).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("warmUp must be 0 for TOKEN_BUCKET");
        // Effect: a cold GCRA refuses the second call one T later; a warm one does not.
        RateLimiter cold = RateLimiter.of("cfg", builder().rate(10, Duration.ofSeconds(1)).burst(1)
                .warmUp(Duration.ofSeconds(10)).build());
        assertThat(cold.tryAcquire()).isTrue();
        ticker.advance(Duration.ofMillis(100));
        assertThat(cold.tryAcquire()).isFalse();
    }

    @Test
    void coldFactorBoundAndEffect() {
        assertThatThrownBy(() -> builder().coldFactor(0.5).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("RateLimiter: coldFactor must be in [1.0, 100.0] but was 0.5");
        assertThatThrownBy(() -> builder().coldFactor(101).build()).isInstanceOf(InvalidConfigException.class);
        // coldFactor 1: warm-up changes nothing about the interval.
        RateLimiter flat = RateLimiter.of("cfg", builder().rate(10, Duration.ofSeconds(1)).burst(1)
                .warmUp(Duration.ofSeconds(10)).coldFactor(1.0).build());
        assertThat(flat.tryAcquire()).isTrue();
        ticker.advance(Duration.ofMillis(100));
        assertThat(flat.tryAcquire()).isTrue();
    }

    @Test
    void tickerAndSleeperBoundsAndEffect() {
        assertThatThrownBy(() -> builder().ticker(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("ticker must be set");
        assertThatThrownBy(() -> builder().sleeper(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("sleeper must be set");
        AtomicLong slept = new AtomicLong();
        Sleeper recording = nanos -> {
            slept.addAndGet(nanos);
            ticker.advance(nanos);
        };
        RateLimiter limiter = RateLimiter.of("s", RateLimiterConfig.builder().rate(1, Duration.ofSeconds(1)).burst(1)
                .ticker(ticker).sleeper(recording).build());
        assertThat(limiter.ticker()).isSameAs(ticker);
        limiter.acquire(1, Duration.ZERO);
        limiter.acquire(1, Duration.ofSeconds(5));
        assertThat(slept.get()).isEqualTo(Duration.ofSeconds(1).toNanos());
    }

    @ParameterizedTest
    @EnumSource(RateLimitAlgorithm.class)
    void setRateTakesEffectAndIsValidated(RateLimitAlgorithm algorithm) {
        RateLimiter limiter = RateLimiter.of("cfg", builder().algorithm(algorithm).rate(2, Duration.ofSeconds(1)).burst(1).build());
        assertThatThrownBy(() -> limiter.setRate(0, Duration.ofSeconds(1)))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("limit must be in");
        limiter.setRate(1, Duration.ofSeconds(10));
        assertThat(limiter.limit()).isEqualTo(1);
        assertThat(limiter.periodNanos()).isEqualTo(Duration.ofSeconds(10).toNanos());
        ticker.advance(Duration.ofSeconds(60));
        assertThat(limiter.tryAcquire()).as(algorithm.name()).isTrue();
        ticker.advance(Duration.ofSeconds(5));
        assertThat(limiter.tryAcquire()).as(algorithm.name()).isFalse(); // now 1 per 10 s
        ticker.advance(Duration.ofSeconds(15));
        assertThat(limiter.tryAcquire()).as(algorithm.name()).isTrue();
    }

    @Test
    void theSlidingLogCannotGrowPastItsCapacity() {
        RateLimiter log = RateLimiter.of("cfg", builder().algorithm(RateLimitAlgorithm.SLIDING_LOG).limit(5).build());
        assertThatThrownBy(() -> log.setRate(6, Duration.ofSeconds(1)))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("log capacity");
    }

    @Test
    void permitsMustBePositive() {
        RateLimiter limiter = RateLimiter.of("cfg", builder().build());
        assertThatThrownBy(() -> limiter.tryAcquire(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> limiter.acquireNanos(1, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void hugeBurstsAtSlowRatesStayExact() {
        RateLimiter bucket = RateLimiter.of("cfg", builder().algorithm(RateLimitAlgorithm.TOKEN_BUCKET)
                .rate(1, Duration.ofDays(365)).burst(1_000_000_000L).build());
        assertThat(bucket.tryAcquire(1_000_000)).isTrue();
        assertThat(bucket.availablePermits()).isEqualTo(999_000_000L);
        RateLimiter gcra = RateLimiter.of("cfg", builder().rate(1_000_000, Duration.ofSeconds(1)).burst(1_000_000_000L).build());
        assertThatThrownBy(() -> gcra.setRate(1, Duration.ofDays(365)))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("fits in 61 bits");
        assertThatThrownBy(() -> builder().rate(1, Duration.ofDays(365)).burst(1_000_000_000L).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("burst must be <=");
    }
}
