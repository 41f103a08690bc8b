package dev.levee.retry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import org.junit.jupiter.api.Test;

class WindowedCounterTest {
    private static final long S = 1_000_000_000L;
    private final ManualTicker ticker = new ManualTicker();

    @Test
    void bucketsArePowersOfTwoBetweenATwentiethAndAFortiethOfTheWindow() {
        WindowedCounter c = new WindowedCounter(10 * S, ticker);
        assertThat(c.widthNanos()).isEqualTo(1L << 28);
        assertThat(c.buckets()).isEqualTo(38);
        assertThat(c.widthNanos() * c.buckets()).isBetween(10 * S, 10 * S + c.widthNanos());
        WindowedCounter exact = new WindowedCounter(20L << 20, ticker);
        assertThat(exact.buckets()).isEqualTo(20);
    }

    @Test
    void anEventCountsForTheWindowWithinOneBucket() {
        WindowedCounter c = new WindowedCounter(10 * S, ticker);
        long t0 = -3 * S; // negative readings work: the epoch is an arithmetic shift
        c.increment(t0);
        c.increment(t0);
        assertThat(c.sum(t0)).isEqualTo(2);
        assertThat(c.sum(t0 + 10 * S - c.widthNanos() - 1)).isEqualTo(2);
        assertThat(c.sum(t0 + 10 * S + c.widthNanos())).isZero();
    }

    @Test
    void theOlderBucketsAndTheCurrentOneAddUpToTheSum() {
        WindowedCounter c = new WindowedCounter(10 * S, ticker);
        long w = c.widthNanos();
        c.increment(0);
        c.increment(w);
        c.increment(3 * w);
        c.increment(3 * w);
        long now = 3 * w + w / 2;
        long raw = c.raw(now);
        assertThat(c.countIn(raw, now)).isEqualTo(2);
        assertThat(c.sumBeforeCurrent(now)).isEqualTo(2);
        assertThat(c.sumBeforeCurrent(now) + c.countIn(raw, now)).isEqualTo(c.sum(now));
        // A slot still holding a bucket a ring older counts nothing for the current one.
        long ringLater = WindowedCounter.SLOTS * w;
        assertThat(c.countIn(c.raw(ringLater), ringLater)).isZero();
        assertThat(c.sumBeforeCurrent(ringLater)).isZero();
        // The oldest bucket sum() still counts is counted by sumBeforeCurrent() too.
        // (sum() spans the current bucket and the buckets() before it: here epochs 3 to buckets() + 3.)
        long edge = (c.buckets() + 3) * w;
        assertThat(c.sum(edge)).isEqualTo(2);
        assertThat(c.sumBeforeCurrent(edge)).isEqualTo(2);
    }

    @Test
    void aStaleSlotIsReplacedNotAddedTo() {
        WindowedCounter c = new WindowedCounter(10 * S, ticker);
        c.increment(0);
        long later = WindowedCounter.SLOTS * c.widthNanos(); // same slot, a ring later
        c.increment(later);
        assertThat(c.sum(later)).isEqualTo(1);
        long raw = c.raw(later);
        assertThat(c.tryIncrement(later, raw)).isTrue();
        assertThat(c.tryIncrement(later, raw)).as("a stale expectation fails").isFalse();
        assertThat(c.sum(later)).isEqualTo(2);
    }

    @Test
    void sumCountsEveryEventOfTheLastWindowAndSumWithinNoOlderOne() {
        long window = 10 * S;
        WindowedCounter c = new WindowedCounter(window, ticker);
        long w = c.widthNanos();
        // The worst cases: an event at the very end of a bucket, and at the very start of one.
        long end = 40 * w - 1;
        c.increment(end);
        assertThat(c.sum(end + window - 1)).as("an event made just under a window ago still counts").isEqualTo(1);
        assertThat(c.sum(end + window + 2 * w)).as("and stops within two buckets after").isZero();
        WindowedCounter d = new WindowedCounter(window, ticker);
        long start = 40 * w;
        d.increment(start);
        assertThat(d.sumWithin(start + window - 2 * w)).isEqualTo(1);
        assertThat(d.sumWithin(start + window)).as("an event a window old no longer counts").isZero();
        // And at any offset (seeded).
        java.util.SplittableRandom random = new java.util.SplittableRandom(42);
        for (int i = 0; i < 10_000; i++) {
            long t = random.nextLong(-100 * w, 100 * w);
            WindowedCounter e = new WindowedCounter(window, new ManualTicker(t));
            long age = random.nextLong(0, window + 3 * w);
            e.increment(t);
            if (age < window) {
                assertThat(e.sum(t + age)).as("t=%d age=%d", t, age).isEqualTo(1);
            } else {
                assertThat(e.sumWithin(t + age)).as("t=%d age=%d", t, age).isZero();
            }
        }
    }

    @Test
    void aWriterAFullRingStaleDoesNotEraseTheNewerBucketInItsSlot() {
        WindowedCounter c = new WindowedCounter(10 * S, ticker);
        long w = c.widthNanos();
        long old = 0;
        long newer = WindowedCounter.SLOTS * w; // same slot, one ring later
        ticker.advance(newer);
        c.increment(newer);
        c.increment(newer);
        c.increment(old); // a thread that read the ticker at 0 and stalled for a ring
        assertThat(c.sum(newer)).isEqualTo(2);
        long raw = c.raw(old);
        assertThat(c.tryIncrement(old, raw)).as("a stale withdrawal is not written").isFalse();
        assertThat(c.sum(newer)).isEqualTo(2);
        assertThat(c.tryIncrement(newer, c.raw(newer))).isTrue();
        assertThat(c.sum(newer)).isEqualTo(3);
    }
}
