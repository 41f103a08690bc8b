package dev.levee.retry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.core.Ticker;
import dev.levee.testing.Concurrently;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The deposit counter of the retry budget: no clock read per event, never over-counted, exact under contention. */
class StripedWindowedCounterTest {
    private static final long WINDOW = 10_000_000_000L; // 10 s


    @Test
    void countingReadsTheClockOncePerRefreshIntervalAtMost() {
        ManualTicker time = new ManualTicker();
        AtomicLong reads = new AtomicLong();
        Ticker ticker = () -> {
            reads.incrementAndGet(); // every read is counted
            return time.read();
        };
        StripedWindowedCounter counter = new StripedWindowedCounter(WINDOW, ticker, 1);
        long before = reads.get();
        for (int i = 0; i < StripedWindowedCounter.REFRESH_EVERY - 1; i++) {
            counter.increment();
        }
        assertThat(reads.get() - before).as("no clock read per event").isZero();
        for (int i = 0; i < 100 * StripedWindowedCounter.REFRESH_EVERY; i++) {
            counter.increment();
        }
        assertThat(reads.get() - before).isLessThanOrEqualTo(101);
    }

    /**
     * Over seeded random schedules of events, time steps and readings: the count never exceeds the
     * events younger than the window (true ages), and, while readers keep the epoch current, it
     * includes every event up to 0.9 of the window old.
     */
    @Test
    void neverOverCountsAndCountsEverythingRecentWhileTheEpochIsCurrent() {
        for (int seed = 0; seed < 20; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            ManualTicker ticker = new ManualTicker(random.nextLong(0, 1L << 40));
            StripedWindowedCounter counter = new StripedWindowedCounter(WINDOW, ticker, 4);
            List<Long> times = new ArrayList<>();
            boolean readersActive = random.nextBoolean();
            for (int step = 0; step < 500; step++) {
                int events = random.nextInt(0, 50);
                for (int i = 0; i < events; i++) {
                    counter.increment();
                    times.add(ticker.read());
                }
                ticker.advance(random.nextLong(0, WINDOW / 50));
                if (readersActive) {
                    counter.advance(ticker.read()); // a withdrawal or a metrics read publishes its reading
                }
                long now = ticker.read();
                long counted = counter.sumWithin(now);
                long younger = times.stream().filter(t -> now - t < WINDOW).count();
                assertThat(counted).as("seed %d step %d: never over-counted", seed, step).isLessThanOrEqualTo(younger);
                if (readersActive) {
                    long recent = times.stream().filter(t -> now - t <= WINDOW * 9 / 10).count();
                    assertThat(counted).as("seed %d step %d: everything recent counted", seed, step)
                            .isGreaterThanOrEqualTo(recent);
                }
            }
        }
    }

    @Test
    void eventsOfALongQuietSpellAreUnderCountedNeverOverCounted() {
        ManualTicker ticker = new ManualTicker();
        StripedWindowedCounter counter = new StripedWindowedCounter(WINDOW, ticker, 1);
        ticker.advance(WINDOW * 100); // nobody reads: the published epoch stays 100 windows old
        for (int i = 0; i < 10; i++) {
            counter.increment(); // fewer than REFRESH_EVERY: tagged with the stale epoch
        }
        assertThat(counter.sumWithin(ticker.read())).as("tagged too old: out of the window, the safe way").isZero();
        counter.increment(); // now the epoch is current
        assertThat(counter.sumWithin(ticker.read())).isEqualTo(1);
    }

    @Test
    void exactUnderSixteenThreads() throws InterruptedException {
        ManualTicker ticker = new ManualTicker();
        StripedWindowedCounter counter = new StripedWindowedCounter(WINDOW, ticker, 8);
        int perThread = 50_000;
        Concurrently.run(Concurrently.THREADS, thread -> {
            for (int i = 0; i < perThread; i++) {
                counter.increment();
            }
        });
        assertThat(counter.sumWithin(ticker.read())).isEqualTo((long) Concurrently.THREADS * perThread);
    }

    @Test
    void stripesAreAPowerOfTwo() {
        assertThat(new StripedWindowedCounter(WINDOW, new ManualTicker(), 1).stripes()).isEqualTo(1);
        assertThat(new StripedWindowedCounter(WINDOW, new ManualTicker(), 3).stripes()).isEqualTo(4);
        assertThat(new StripedWindowedCounter(WINDOW, new ManualTicker(), 16).stripes()).isEqualTo(16);
        assertThat(new StripedWindowedCounter(WINDOW, new ManualTicker(), 1000).stripes()).isEqualTo(64);
    }
}
