package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {
    private static final long MS = 1_000_000L;

    @Test
    void constantIsTheSameEveryRetry() {
        Backoff b = Backoff.constant(Duration.ofMillis(250));
        assertThat(new long[] {b.delayNanos(1), b.delayNanos(2), b.delayNanos(1000), b.delayNanos(Integer.MAX_VALUE)})
                .containsExactly(250 * MS, 250 * MS, 250 * MS, 250 * MS);
        assertThat(b.initialNanos()).isEqualTo(250 * MS);
        assertThat(b.maxNanos()).isEqualTo(250 * MS);
    }

    @Test
    void linearGrowsByTheIncrementUpToTheCap() {
        Backoff b = Backoff.linear(Duration.ofMillis(100), Duration.ofMillis(50), Duration.ofMillis(300));
        assertThat(new long[] {b.delayNanos(1), b.delayNanos(2), b.delayNanos(3), b.delayNanos(4), b.delayNanos(5), b.delayNanos(6)})
                .containsExactly(100 * MS, 150 * MS, 200 * MS, 250 * MS, 300 * MS, 300 * MS);
    }

    @Test
    void linearDoesNotOverflowAtHugeAttemptNumbers() {
        Backoff b = Backoff.linear(Duration.ofMillis(1), Duration.ofDays(365 * 200), ChronoMax.MAX);
        assertThat(b.delayNanos(Integer.MAX_VALUE)).isEqualTo(b.maxNanos());
        Backoff small = Backoff.linear(Duration.ZERO, Duration.ofNanos(1), Duration.ofSeconds(10)); // 0 first, then grows
        assertThat(small.delayNanos(Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE - 1L);
    }

    @Test
    void exponentialMultipliesUpToTheCap() {
        Backoff b = Backoff.exponential(Duration.ofMillis(100), 2.0, Duration.ofSeconds(1));
        assertThat(new long[] {b.delayNanos(1), b.delayNanos(2), b.delayNanos(3), b.delayNanos(4), b.delayNanos(5), b.delayNanos(6)})
                .containsExactly(100 * MS, 200 * MS, 400 * MS, 800 * MS, 1000 * MS, 1000 * MS);
        Backoff grpc = Backoff.exponential(Duration.ofSeconds(1), 1.6, Duration.ofSeconds(120));
        assertThat(grpc.delayNanos(2)).isEqualTo(1_600 * MS);
        assertThat(grpc.delayNanos(3)).isEqualTo(2_560 * MS);
    }

    @Test
    void exponentialSaturatesAtHugeAttemptNumbers() {
        Backoff b = Backoff.exponential(Duration.ofMillis(100), 100.0, ChronoMax.MAX);
        assertThat(b.delayNanos(1000)).isEqualTo(Long.MAX_VALUE);
        assertThat(b.delayNanos(Integer.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        Backoff capped = Backoff.defaults();
        assertThat(capped.delayNanos(Integer.MAX_VALUE)).isEqualTo(10_000 * MS);
        assertThat(capped.delayNanos(1)).isEqualTo(100 * MS);
    }

    @Test
    void boundsAreValidated() {
        assertThatThrownBy(() -> Backoff.constant(Duration.ofMillis(-1)))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("delay must be >= 0 but was PT-0.001S");
        assertThatThrownBy(() -> Backoff.linear(Duration.ofSeconds(2), Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("max must be >= initial (PT2S) but was PT1S");
        assertThatThrownBy(() -> Backoff.linear(Duration.ZERO, Duration.ofMillis(-5), Duration.ofSeconds(1)))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("increment must be >= 0");
        assertThatThrownBy(() -> Backoff.exponential(Duration.ofMillis(1), 0.5, Duration.ofSeconds(1)))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("multiplier must be in [1.0, 100.0] but was 0.5");
        assertThatThrownBy(() -> Backoff.exponential(Duration.ofMillis(1), 101, Duration.ofSeconds(1)))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("but was 101.0");
        assertThatThrownBy(() -> Backoff.exponential(Duration.ofSeconds(2), 2, Duration.ofSeconds(1)))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("max must be >= initial");
    }

    /** Bug 8 (issue 12): a zero base makes a retry loop with no delay; refused unless asked for with none(). */
    @Test
    void aZeroBaseIsRefusedUnlessAskedForWithNone() {
        assertThatThrownBy(() -> Backoff.constant(Duration.ZERO)).isInstanceOf(InvalidConfigException.class)
                .hasMessage("Backoff.constant: delay must be > 0 (a zero delay retries in a hot loop; use Backoff.none()"
                        + " to retry without delay on purpose) but was PT0S");
        assertThatThrownBy(() -> Backoff.exponential(Duration.ZERO, 2, Duration.ofSeconds(10)))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageStartingWith("Backoff.exponential: initial must be > 0 (a zero delay retries in a hot loop")
                .hasMessageEndingWith("but was PT0S");
        assertThatThrownBy(() -> Backoff.linear(Duration.ZERO, Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("Backoff.linear: initial must be > 0 when increment is 0 (a zero delay retries in a hot loop");
        Backoff none = Backoff.none();
        assertThat(new long[] {none.delayNanos(1), none.delayNanos(1000), none.initialNanos(), none.maxNanos()})
                .containsExactly(0, 0, 0, 0);
        assertThat(none).hasToString("Backoff.none()");
    }

    /** The largest duration that still converts to nanoseconds. */
    private static final class ChronoMax {
        static final Duration MAX = Duration.ofNanos(Long.MAX_VALUE);
    }
}
