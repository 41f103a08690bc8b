package dev.levee.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.Gate;
import dev.levee.core.ManualTicker;
import dev.levee.core.Ticker;
import dev.levee.core.TimeNeed;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A rate limiter needs the start reading only: one clock read per call, none after it. */
class LimiterTimeNeedTest {
    private final ManualTicker time = new ManualTicker(1_000);
    private final AtomicInteger reads = new AtomicInteger();
    private final Ticker counting = () -> {
        reads.incrementAndGet();
        return time.read();
    };

    @Test
    void everyAlgorithmNeedsTheStartOnlyAndExecuteReadsTheClockOnce() throws Exception {
        for (RateLimitAlgorithm algorithm : RateLimitAlgorithm.values()) {
            RateLimiter limiter = RateLimiter.of("l", RateLimiterConfig.builder().algorithm(algorithm)
                    .rate(1_000, Duration.ofSeconds(1)).ticker(counting).build());
            assertThat(limiter.timeNeed()).as("%s", algorithm).isEqualTo(TimeNeed.START);
            reads.set(0);
            assertThat(limiter.execute(() -> "ok")).isEqualTo("ok");
            assertThat(reads.get()).as("%s: reads per execute", algorithm).isEqualTo(1);
            time.advance(Duration.ofSeconds(1)); // a full period later: the next permit is due
            long start = limiter.readStart();
            assertThat(limiter.tryAcquire(start)).isTrue();
            assertThat(limiter.latencySince(start)).isEqualTo(Gate.NO_READING);
            assertThat(reads.get()).as("%s: reads per hand protocol", algorithm).isEqualTo(2);
        }
    }

    @Test
    void theAdaptiveLimiterNeedsLatencies() {
        AdaptiveRateLimiter adaptive = AdaptiveRateLimiter.ofDefaults("a");
        assertThat(adaptive.timeNeed()).isEqualTo(TimeNeed.LATENCY);
    }
}
