package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A linear backoff with hour-long steps, exactly: the cap guard must not overflow. */
class BackoffEdgesTest {
    private static final long S = 1_000_000_000L;
    private static final long H = 3_600 * S;

    @Test
    void aLinearBackoffWithHourLongStepsIsExactAndCapped() {
        Backoff linear = Backoff.linear(Duration.ofSeconds(1), Duration.ofHours(1), Duration.ofHours(2));
        assertThat(linear.initialNanos()).isEqualTo(S);
        assertThat(linear.maxNanos()).isEqualTo(2 * H);
        assertThat(linear.delayNanos(1)).isEqualTo(S);
        assertThat(linear.delayNanos(2)).isEqualTo(H + S);
        assertThat(linear.delayNanos(3)).isEqualTo(2 * H);
        assertThat(linear.delayNanos(Integer.MAX_VALUE)).isEqualTo(2 * H);
    }
}
