package dev.levee.timeout;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The "seed default — Levee default" table of {@code docs/timeout.md}, read from the builders: each row
 * is the seed's number unless the page says why not.
 */
class SeedDefaultsTest {

    @Test
    void timeout() {
        TimeoutConfig c = TimeoutConfig.builder().build();
        assertThat(c.timeout()).isEqualTo(Duration.ofSeconds(5)).isEqualTo(TimeoutConfig.DEFAULT_TIMEOUT); // 003
        assertThat(c.mode()).isEqualTo(TimeoutConfig.DEFAULT_MODE).isEqualTo(TimeoutMode.THREAD);
        assertThat(c.interruptOnTimeout()).isEqualTo(TimeoutConfig.DEFAULT_INTERRUPT_ON_TIMEOUT).isTrue();
        assertThat(c.reserve()).isEqualTo(TimeoutConfig.DEFAULT_RESERVE).isZero();
        assertThat(c.minimumRemaining()).isEqualTo(TimeoutConfig.DEFAULT_MINIMUM_REMAINING)
                .isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void deadlinePropagation() {
        DeadlinePropagation p = DeadlinePropagation.builder().build();
        assertThat(p.reserve()).isEqualTo(DeadlinePropagation.DEFAULT_RESERVE).isEqualTo(Duration.ofMillis(100)); // 000
        assertThat(p.reserveRatio()).isEqualTo(DeadlinePropagation.DEFAULT_RESERVE_RATIO).isEqualTo(0.1); // 000, 002
        assertThat(p.minimumRemaining()).isEqualTo(DeadlinePropagation.DEFAULT_MINIMUM_REMAINING)
                .isEqualTo(Duration.ofMillis(100)); // 002
        assertThat(p.localMaximum()).isEqualTo(DeadlinePropagation.DEFAULT_LOCAL_MAXIMUM).isEqualTo(Duration.ofSeconds(30));
        assertThat(p.absurdAbove()).isEqualTo(DeadlinePropagation.DEFAULT_ABSURD_ABOVE).isEqualTo(Duration.ofDays(1));
    }

    @Test
    void adaptiveTimeout() {
        AdaptiveTimeoutConfig c = AdaptiveTimeoutConfig.builder().build();
        assertThat(c.percentile()).isEqualTo(AdaptiveTimeoutConfig.DEFAULT_PERCENTILE).isEqualTo(0.99); // 000
        assertThat(c.factor()).isEqualTo(AdaptiveTimeoutConfig.DEFAULT_FACTOR).isEqualTo(1.5); // 000
        assertThat(c.minTimeout()).isEqualTo(AdaptiveTimeoutConfig.DEFAULT_MIN_TIMEOUT).isEqualTo(Duration.ofMillis(10));
        assertThat(c.maxTimeout()).isEqualTo(AdaptiveTimeoutConfig.DEFAULT_MAX_TIMEOUT).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.minSamples()).isEqualTo(AdaptiveTimeoutConfig.DEFAULT_MIN_SAMPLES).isEqualTo(100); // 000
        assertThat(c.windowSize()).isEqualTo(AdaptiveTimeoutConfig.DEFAULT_WINDOW_SIZE).isEqualTo(1_000); // 000
    }

    @Test
    void timeoutBudget() {
        TimeoutBudgetConfig c = TimeoutBudgetConfig.builder().build();
        assertThat(c.total()).isEqualTo(TimeoutBudgetConfig.DEFAULT_TOTAL).isEqualTo(Duration.ofSeconds(5)); // 003
        assertThat(c.rollover()).isEqualTo(TimeoutBudgetConfig.DEFAULT_ROLLOVER).isTrue();
    }

    @Test
    void databaseProfile() {
        DatabaseTimeoutProfile db = DatabaseTimeoutProfile.ofDefaults("db");
        assertThat(db.connect()).isEqualTo(DatabaseTimeoutProfile.DEFAULT_CONNECT).isEqualTo(Duration.ofSeconds(2)); // 003
        assertThat(db.query()).isEqualTo(DatabaseTimeoutProfile.DEFAULT_QUERY).isEqualTo(Duration.ofSeconds(5)); // 003
        assertThat(db.transaction()).isEqualTo(DatabaseTimeoutProfile.DEFAULT_TRANSACTION)
                .isEqualTo(Duration.ofSeconds(30)); // 003
    }
}
