package dev.levee.retry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WindowedCounterTest {
    private static final long S = 1_000_000_000L;

    @Test
    void bucketsArePowersOfTwoBetweenATenthAndATwentiethOfTheWindow() {
        WindowedCounter c = new WindowedCounter(10 * S);
        assertThat(c.widthNanos()).isEqualTo(1L << 29);
        assertThat(c.buckets()).isEqualTo(19);
        assertThat(c.widthNanos() * c.buckets()).isBetween(10 * S, 10 * S + c.widthNanos());
        WindowedCounter exact = new WindowedCounter(10L << 20);
        assertThat(exact.buckets()).isEqualTo(10);
    }

    @Test
    void anEventCountsForTheWindowWithinOneBucket() {
        WindowedCounter c = new WindowedCounter(10 * S);
        long t0 = -3 * S; // negative readings work: the epoch is an arithmetic shift
        c.increment(t0);
        c.increment(t0);
        assertThat(c.sum(t0)).isEqualTo(2);
        assertThat(c.sum(t0 + 10 * S - c.widthNanos() - 1)).isEqualTo(2);
        assertThat(c.sum(t0 + 10 * S + c.widthNanos())).isZero();
    }

    @Test
    void aStaleSlotIsReplacedNotAddedTo() {
        WindowedCounter c = new WindowedCounter(10 * S);
        c.increment(0);
        long later = 32 * c.widthNanos(); // same slot, 32 epochs later
        c.increment(later);
        assertThat(c.sum(later)).isEqualTo(1);
        long raw = c.raw(later);
        assertThat(c.tryIncrement(later, raw)).isTrue();
        assertThat(c.tryIncrement(later, raw)).as("a stale expectation fails").isFalse();
        assertThat(c.sum(later)).isEqualTo(2);
    }
}
