package dev.levee.retry.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ManualTicker;
import org.junit.jupiter.api.Test;

/**
 * The striped counter's published epoch: writers count at it without reading the clock, a writer
 * refreshes it once every {@value StripedWindowedCounter#REFRESH_EVERY} events of a slot, and
 * {@code advance} raises it; the bucket width and the smallest window, exactly.
 */
class StripedWindowedCounterEpochTest {
    private static final long WINDOW = 10_000_000_000L; // 10 s
    private final ManualTicker ticker = new ManualTicker(0);

    @Test
    void theBucketWidthIsThePowerOfTwoAtOrBelowATwentiethOfTheWindow() {
        assertThat(new StripedWindowedCounter(WINDOW, ticker, 1).widthNanos()).isEqualTo(1L << 28);
        StripedWindowedCounter smallest = new StripedWindowedCounter(WindowedCounter.BUCKETS, ticker, 1);
        assertThat(smallest.widthNanos()).isEqualTo(1);
        new WindowedCounter(WindowedCounter.BUCKETS, ticker); // the smallest window is accepted
        assertThatThrownBy(() -> new StripedWindowedCounter(WindowedCounter.BUCKETS - 1, ticker, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new WindowedCounter(WindowedCounter.BUCKETS - 1, ticker))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void advanceMovesWritersToTheCurrentEpoch() {
        StripedWindowedCounter counter = new StripedWindowedCounter(WINDOW, ticker, 1);
        ticker.advance(3 * WINDOW);
        counter.advance(ticker.read());
        for (int i = 0; i < 3; i++) {
            counter.increment();
        }
        assertThat(counter.sumWithin(ticker.read())).isEqualTo(3);
    }

    /**
     * Nobody advanced the epoch for three windows: the first {@value StripedWindowedCounter#REFRESH_EVERY}
     * events go to the stale bucket (out of the window), the last of them refreshes the epoch, and the
     * events after it count.
     */
    @Test
    void everySixtyFourthEventOfASlotRefreshesAStaleEpoch() {
        StripedWindowedCounter counter = new StripedWindowedCounter(WINDOW, ticker, 1);
        ticker.advance(3 * WINDOW);
        for (int i = 0; i < StripedWindowedCounter.REFRESH_EVERY; i++) {
            counter.increment();
        }
        for (int i = 0; i < 5; i++) {
            counter.increment();
        }
        assertThat(counter.sumWithin(ticker.read())).isEqualTo(5);
    }
}
