package dev.levee.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Seed 002's adaptive rate rule as {@link AdaptiveLaw#RTT_RATIO}, against a transcription of the seed's code. */
class AdaptiveRttLawTest {
    private static final long MS = 1_000_000L;
    private final ManualTicker ticker = new ManualTicker();

    /** The seed's Go code, line for line (durations as int64 nanoseconds), minus its token bucket. */
    private static final class SeedOracle {
        final double minRate;
        final double maxRate;
        double currentRate;
        long baseRtt;
        final List<Long> recentRtts = new ArrayList<>();

        SeedOracle(double baseRate, double minRate, double maxRate) {
            this.currentRate = baseRate;
            this.minRate = minRate;
            this.maxRate = maxRate;
        }

        void recordRtt(long rtt) {
            recentRtts.add(rtt);
            if (recentRtts.size() > 100) {
                recentRtts.remove(0);
            }
            if (baseRtt == 0 || rtt < baseRtt) {
                baseRtt = rtt;
            }
            adjustRate();
        }

        void adjustRate() {
            if (recentRtts.size() < 10 || baseRtt == 0) {
                return;
            }
            long sum = 0;
            for (long rtt : recentRtts.subList(recentRtts.size() - 10, recentRtts.size())) {
                sum += rtt;
            }
            long avgRtt = sum / 10;
            double ratio = (double) baseRtt / (double) avgRtt;
            if (ratio > 0.9) {
                currentRate = Math.min(maxRate, currentRate * 1.1);
            } else if (ratio < 0.5) {
                currentRate = Math.max(minRate, currentRate * 0.5);
            } else if (ratio < 0.7) {
                currentRate = Math.max(minRate, currentRate * 0.9);
            }
        }
    }

    private AdaptiveRateLimiter limiter(double initial, double min, double max) {
        return AdaptiveRateLimiter.of("rtt", AdaptiveRateLimiterConfig.builder().law(AdaptiveLaw.RTT_RATIO)
                .minRate(min).maxRate(max).initialRate(initial).ticker(ticker).sleeper(ticker).build());
    }

    @Test
    void aScriptedSequenceMovesTheRateExactlyAsTheSeed() {
        AdaptiveRateLimiter limiter = limiter(100, 10, 1_000);
        // 9 samples: nothing; the 10th at base: ×1.1; then congestion (mean 1.6× base: ratio 0.625 → ×0.9),
        // heavy congestion (ratio < 0.5 → ×0.5), a band that keeps the rate (0.7..0.9), recovery.
        long[] script = new long[40];
        for (int i = 0; i < 10; i++) {
            script[i] = 10 * MS;
        }
        for (int i = 10; i < 16; i++) {
            script[i] = 20 * MS;
        }
        for (int i = 16; i < 24; i++) {
            script[i] = 40 * MS;
        }
        for (int i = 24; i < 34; i++) {
            script[i] = 12 * MS;
        }
        for (int i = 34; i < 40; i++) {
            script[i] = 10 * MS;
        }
        SeedOracle seed = new SeedOracle(100, 10, 1_000);
        List<Double> rates = new ArrayList<>();
        for (long rtt : script) {
            limiter.onSuccess(rtt);
            seed.recordRtt(rtt);
            assertThat(limiter.currentRate()).isEqualTo(seed.currentRate);
            rates.add(limiter.currentRate());
        }
        assertThat(rates.get(8)).isEqualTo(100.0);
        assertThat(rates.get(9)).isEqualTo(100 * 1.1);
        // sample 11 (20 ms): mean = (9·10 + 20)/10 = 11 ms, ratio 0.909 → ×1.1 again
        assertThat(rates.get(10)).isEqualTo(100 * 1.1 * 1.1);
        assertThat(rates).contains(10.0); // driven to the minimum by heavy congestion
        assertThat(rates.get(39)).isGreaterThan(rates.get(33)); // and back up once at base
    }

    @Test
    void randomSequencesMatchTheSeedExactlyWithinTheBounds() {
        Random random = new Random(2);
        for (int run = 0; run < 20; run++) {
            AdaptiveRateLimiter limiter = limiter(50, 5, 500);
            SeedOracle seed = new SeedOracle(50, 5, 500);
            for (int i = 0; i < 2_000; i++) {
                long rtt = MS + random.nextInt(50) * MS / (1 + random.nextInt(3));
                if (random.nextBoolean()) {
                    limiter.onSuccess(rtt);
                } else {
                    limiter.onFailure(rtt, new RuntimeException("a round trip all the same"));
                }
                seed.recordRtt(rtt);
                assertThat(limiter.currentRate()).isEqualTo(seed.currentRate).isBetween(5.0, 500.0);
            }
        }
    }

    @Test
    void theGcraStateIsKeptAcrossAChangeNoFreshBurst() {
        AdaptiveRateLimiter limiter = limiter(10, 1, 100);
        int granted = 0;
        while (limiter.tryAcquire(1, ticker.read())) {
            granted++;
        }
        assertThat(granted).isEqualTo(10); // the burst (default 10) is spent
        for (int i = 0; i < 10; i++) {
            limiter.onSuccess(10 * MS); // the 10th sample raises the rate; the seed would refill its bucket here
        }
        assertThat(limiter.currentRate()).isEqualTo(11.0);
        assertThat(limiter.tryAcquire(1, ticker.read())).isFalse();
    }

    @Test
    void theDefaultLawIsTheIntervalAimdAndANullLawIsRefused() {
        assertThat(AdaptiveRateLimiterConfig.defaults().law()).isEqualTo(AdaptiveLaw.LATENCY_AIMD)
                .isEqualTo(AdaptiveRateLimiterConfig.DEFAULT_LAW);
        assertThatThrownBy(() -> AdaptiveRateLimiterConfig.builder().law(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("law");
        AdaptiveRateLimiterConfig c = AdaptiveRateLimiterConfig.builder().law(AdaptiveLaw.RTT_RATIO).build();
        assertThat(c.toBuilder().build().law()).isEqualTo(AdaptiveLaw.RTT_RATIO);
    }

    @Test
    void setRateMovesTheRateTheLawStartsFrom() {
        AdaptiveRateLimiter limiter = limiter(100, 10, 1_000);
        limiter.setRate(200, java.time.Duration.ofSeconds(1));
        for (int i = 0; i < 10; i++) {
            limiter.onSuccess(10 * MS);
        }
        assertThat(limiter.currentRate()).isEqualTo(200 * 1.1);
    }
}
