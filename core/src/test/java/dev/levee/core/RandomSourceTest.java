package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RandomSourceTest {

    @Test
    void seededIsSplitMix64AsInTheJdksSplittableRandom() {
        // SplittableRandom(seed) uses the same golden gamma and the same mix (Steele et al.): an
        // independent oracle for every output bit.
        for (long seed : new long[] {0, 1, 42, -7, Long.MAX_VALUE}) {
            RandomSource ours = RandomSource.seeded(seed);
            SplittableRandom oracle = new SplittableRandom(seed);
            for (int i = 0; i < 1_000; i++) {
                assertThat(ours.nextDouble()).as("seed %d, draw %d", seed, i).isEqualTo(oracle.nextDouble());
            }
        }
    }

    @Test
    void seededNextLongIsTheUnbiasedTopBitsModuloTheBound() {
        RandomSource ours = RandomSource.seeded(5);
        SplittableRandom oracle = new SplittableRandom(5);
        for (int i = 0; i < 1_000; i++) {
            long bound = 1 + i * 7919L;
            long raw = oracle.nextLong() >>> 1;   // no rejection: limit is within 2^-40 of 2^63 here
            assertThat(ours.nextLong(bound)).isEqualTo(raw % bound);
        }
        assertThat(RandomSource.seeded(9).nextLong(1)).isZero();
        assertThatThrownBy(() -> RandomSource.seeded(1).nextLong(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RandomSource.seeded(1).nextLong(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theDefaultNextLongScalesTheDoubleAndStaysBelowTheBound() {
        RandomSource half = () -> 0.5;
        assertThat(half.nextLong(10)).isEqualTo(5);
        assertThat(half.nextLong(1)).isZero();
        RandomSource top = () -> Math.nextDown(1.0);
        assertThat(top.nextLong(10)).isEqualTo(9);
        // A user's source that breaks the contract and returns 1.0 still yields a value below the bound.
        RandomSource one = () -> 1.0;
        assertThat(one.nextLong(10)).isEqualTo(9);
        assertThat(one.nextLong(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE - 1);
        assertThatThrownBy(() -> half.nextLong(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> half.nextLong(-3)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void threadLocalDrawsInRange() {
        RandomSource random = RandomSource.threadLocal();
        boolean sawNonZero = false;
        for (int i = 0; i < 1_000; i++) {
            double d = random.nextDouble();
            long l = random.nextLong(1L << 40);
            assertThat(d).isGreaterThanOrEqualTo(0.0).isLessThan(1.0);
            assertThat(l).isBetween(0L, (1L << 40) - 1);
            sawNonZero |= d != 0.0 && l != 0;
        }
        assertThat(sawNonZero).isTrue();
    }
}
