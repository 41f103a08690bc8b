package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.RandomSource;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Every jitter against its formula on seeded randomness: a second source with the same seed yields the
 * same uniforms, so each delay is checked exactly, for a whole backoff sequence including the cap.
 */
class JitterTest {
    private static final long MS = 1_000_000L;
    private static final Backoff EXP = Backoff.exponential(Duration.ofMillis(100), 2.0, Duration.ofSeconds(2));

    @Test
    void noneReturnsTheBackoffExactly() {
        RandomSource random = RandomSource.seeded(1);
        for (int n = 1; n <= 8; n++) {
            assertThat(Jitter.none().apply(EXP.delayNanos(n), 0, EXP.initialNanos(), EXP.maxNanos(), random))
                    .isEqualTo(EXP.delayNanos(n));
        }
    }

    @Test
    void fullIsUniformBelowTheDelay() {
        RandomSource random = RandomSource.seeded(7);
        RandomSource mirror = RandomSource.seeded(7);
        for (int n = 1; n <= 10; n++) {
            long d = EXP.delayNanos(n);
            long got = Jitter.full().apply(d, 0, EXP.initialNanos(), EXP.maxNanos(), random);
            assertThat(got).isEqualTo((long) (mirror.nextDouble() * d)).isBetween(0L, d - 1);
        }
    }

    @Test
    void fullHasTheExpectedSequenceForSeed42() {
        RandomSource random = RandomSource.seeded(42);
        long[] delays = new long[4];
        for (int n = 1; n <= 4; n++) {
            delays[n - 1] = Jitter.full().apply(EXP.delayNanos(n), 0, EXP.initialNanos(), EXP.maxNanos(), random);
        }
        // Pinned so a change of the formula or of the seeded source is noticed.
        RandomSource mirror = RandomSource.seeded(42);
        assertThat(delays).containsExactly((long) (mirror.nextDouble() * 100 * MS), (long) (mirror.nextDouble() * 200 * MS),
                (long) (mirror.nextDouble() * 400 * MS), (long) (mirror.nextDouble() * 800 * MS));
    }

    @Test
    void equalKeepsHalfTheDelay() {
        RandomSource random = RandomSource.seeded(11);
        RandomSource mirror = RandomSource.seeded(11);
        for (int n = 1; n <= 10; n++) {
            long d = EXP.delayNanos(n);
            long got = Jitter.equal().apply(d, 0, EXP.initialNanos(), EXP.maxNanos(), random);
            assertThat(got).isEqualTo(d / 2 + (long) (mirror.nextDouble() * (d - d / 2))).isBetween(d / 2, d - 1);
        }
    }

    @Test
    void decorrelatedGrowsFromTheBaseAndIsCapped() {
        RandomSource random = RandomSource.seeded(3);
        RandomSource mirror = RandomSource.seeded(3);
        long base = EXP.initialNanos();
        long cap = EXP.maxNanos();
        long previous = 0;
        boolean sawCap = false;
        for (int n = 1; n <= 40; n++) {
            long got = Jitter.decorrelated().apply(EXP.delayNanos(n), previous, base, cap, random);
            long last = previous == 0 ? base : previous;
            long expected = Math.min(cap, base + (long) (mirror.nextDouble() * (double) (3 * last - base)));
            assertThat(got).isEqualTo(expected).isBetween(base, cap);
            sawCap |= got == cap;
            previous = got;
        }
        assertThat(sawCap).as("40 decorrelated retries reach the 2 s cap").isTrue();
    }

    @Test
    void decorrelatedDoesNotOverflowOnAHugePreviousDelay() {
        long got = Jitter.decorrelated().apply(0, Long.MAX_VALUE - 5, 1, Long.MAX_VALUE, RandomSource.seeded(5));
        assertThat(got).isBetween(1L, Long.MAX_VALUE);
    }

    @Test
    void factorSpreadsAroundTheDelayAndIsCapped() {
        RandomSource random = RandomSource.seeded(13);
        RandomSource mirror = RandomSource.seeded(13);
        Jitter jitter = Jitter.factor(0.25);
        for (int n = 1; n <= 10; n++) {
            long d = EXP.delayNanos(n);
            long got = jitter.apply(d, 0, EXP.initialNanos(), EXP.maxNanos(), random);
            double raw = d * (1 - 0.25 + 0.5 * mirror.nextDouble());
            long expected = raw >= EXP.maxNanos() ? EXP.maxNanos() : (long) raw;
            assertThat(got).isEqualTo(expected).isBetween((long) (d * 0.75), Math.min(EXP.maxNanos(), (long) (d * 1.25)));
        }
        assertThat(Jitter.factor(0).apply(123, 0, 0, 1000, RandomSource.seeded(1))).isEqualTo(123);
    }

    @Test
    void factorIsValidated() {
        assertThatThrownBy(() -> Jitter.factor(1.5)).isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("Jitter.factor: factor must be in [0.0, 1.0] but was 1.5");
        assertThatThrownBy(() -> Jitter.factor(-0.1)).isInstanceOf(InvalidConfigException.class);
    }

    @Test
    void jitterOnTheCappedDelayOfAHugeAttemptNumberStaysInRange() {
        RandomSource random = RandomSource.seeded(99);
        long d = EXP.delayNanos(Integer.MAX_VALUE);
        assertThat(d).isEqualTo(2_000 * MS);
        assertThat(Jitter.full().apply(d, 0, EXP.initialNanos(), EXP.maxNanos(), random)).isBetween(0L, d);
        assertThat(Jitter.equal().apply(d, 0, EXP.initialNanos(), EXP.maxNanos(), random)).isBetween(d / 2, d);
        assertThat(Jitter.factor(1).apply(d, 0, EXP.initialNanos(), EXP.maxNanos(), random)).isBetween(0L, d);
    }
}
