package dev.levee.ratelimiter.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ManualTicker;
import dev.levee.ratelimiter.RateLimiterConfig;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, bug 16 (second half): a throw between sealing and publishing a limiter's state on a rate
 * change must not leave it sealed (every decider would spin forever).
 */
class RateChangePublishTest {

    @Test
    void aThrowWhileRescalingLeavesTheOldStateUsable() throws InterruptedException {
        ManualTicker ticker = new ManualTicker(0);
        RateLimiterConfig config = RateLimiterConfig.builder().rate(10, Duration.ofSeconds(1)).burst(2)
                .ticker(ticker).sleeper(ticker).build();
        GcraLimiter limiter = new GcraLimiter(new LimiterContext("g", ticker, ticker), config) {
            @Override
            long carried(Params old, long tat, long now, long from, long to) {
                throw new IllegalStateException("rescaling failed");
            }
        };
        assertThat(limiter.tryAcquire(1, 0)).isTrue();
        assertThatThrownBy(() -> limiter.setRate(20, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalStateException.class);

        // On the old code the limiter stays sealed and this decision spins forever: run it on a daemon
        // thread and only wait for it (a hang guard, not a timing assertion).
        AtomicBoolean granted = new AtomicBoolean();
        Thread decider = new Thread(() -> granted.set(limiter.tryAcquire(1, 0)));
        decider.setDaemon(true);
        decider.start();
        decider.join(30_000);
        assertThat(decider.isAlive()).as("the decision returned (the state was published)").isFalse();
        assertThat(granted).isTrue(); // the second of the burst of 2: the old state, unchanged
        assertThat(limiter.limit()).isEqualTo(10); // the old parameters stay with the old state
        assertThat(limiter.tryAcquire(1, 0)).isFalse();
    }
}
