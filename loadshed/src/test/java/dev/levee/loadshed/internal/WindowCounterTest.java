package dev.levee.loadshed.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The sliding-window count behind {@code ClientThrottle}: rollover, undo and a stale writer. */
class WindowCounterTest {
    private static final long BUCKET = 1_000;
    private final WindowCounter counter = new WindowCounter(4, BUCKET);

    @Test
    void countsEveryAddInsideTheWindowAndForgetsABucketOnceItLeaves() {
        counter.add(0, 3);
        counter.add(BUCKET, 2);
        counter.add(3 * BUCKET + 999, 1);
        assertThat(counter.sum(3 * BUCKET + 999)).isEqualTo(6);
        assertThat(counter.sum(4 * BUCKET)).as("epoch 0 has left a window of epochs 1..4").isEqualTo(3);
    }

    @Test
    void anAddToARolledOverSlotStartsTheNewBucketFromItsOwnCount() {
        counter.add(0, 5);
        counter.add(4 * BUCKET, 1); // same slot, four epochs later
        assertThat(counter.sum(4 * BUCKET)).isEqualTo(1);
    }

    @Test
    void anUndoNeverTakesABucketBelowZeroNorTouchesARolledOverOne() {
        counter.add(0, 1);
        counter.add(0, -1);
        counter.add(0, -1);
        assertThat(counter.sum(0)).isZero();
        counter.add(4 * BUCKET, 2);
        counter.add(0, -1); // the undo of an add whose bucket rolled over
        assertThat(counter.sum(4 * BUCKET)).isEqualTo(2);
    }

    @Test
    void aWriterStalledForAWholeWindowDoesNotOverwriteTheNewerBucket() {
        counter.add(4 * BUCKET, 5); // epoch 4, slot 0
        counter.add(0, 1); // a writer that read the clock in epoch 0, adding only now: slot 0 again
        assertThat(counter.sum(4 * BUCKET)).as("epoch 4 keeps its 5; epoch 0 is outside the window").isEqualTo(5);
    }

    @Test
    void tagsCompareAcrossTheirWrap() {
        long lastTag = (1L << WindowCounter.TAG_BITS) - 1; // epoch 2^24 - 1, slot 3
        counter.add(lastTag * BUCKET, 2);
        counter.add((lastTag + 4) * BUCKET, 7); // epoch 2^24 + 3: tag 3, same slot, newer
        assertThat(counter.sum((lastTag + 4) * BUCKET)).isEqualTo(7);
        counter.add(lastTag * BUCKET, 1); // the stale writer of the wrapped epoch
        assertThat(counter.sum((lastTag + 4) * BUCKET)).isEqualTo(7);
    }
}
