package dev.levee.loadshed.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The seed-002 state machine, sample by sample: drop times and the count re-entry rule exactly. */
class CoDelControllerTest {
    private static final long MS = 1_000_000L;
    private static final long TARGET = 5 * MS;
    private static final long INTERVAL = 100 * MS;

    private final CoDelController codel = new CoDelController(TARGET, INTERVAL);

    private static long law(int count) {
        return (long) (INTERVAL / Math.sqrt(count));
    }

    @Test
    void scriptedSojournSequenceReproducesDropTimes() {
        // below target: nothing
        assertThat(codel.onSample(0, 4 * MS, 10)).isZero();
        assertThat(codel.congested()).isFalse();
        // first sample at target (>= target counts as above): first_above_time = now + interval
        assertThat(codel.onSample(10 * MS, TARGET, 10)).isZero();
        assertThat(codel.congested()).isTrue();
        assertThat(codel.firstAboveTime()).isEqualTo(110 * MS);
        // still inside the interval: no drop, not dropping
        assertThat(codel.onSample(109 * MS, 50 * MS, 10)).isZero();
        assertThat(codel.dropping()).isFalse();
        // interval elapsed: enter dropping, count = 1, drop_next = now + interval, no drop yet
        assertThat(codel.onSample(110 * MS, 50 * MS, 10)).isZero();
        assertThat(codel.dropping()).isTrue();
        assertThat(codel.count()).isEqualTo(1);
        assertThat(codel.dropNext()).isEqualTo(210 * MS);
        // before drop_next: no drop
        assertThat(codel.onSample(210 * MS - 1, 50 * MS, 10)).isZero();
        // at drop_next: one drop, count 2, drop_next = now + interval/sqrt(2)
        assertThat(codel.onSample(210 * MS, 50 * MS, 10)).isEqualTo(1);
        assertThat(codel.count()).isEqualTo(2);
        assertThat(codel.dropNext()).isEqualTo(210 * MS + law(2));
        assertThat(law(2)).isEqualTo(70_710_678L);
        // the seed's law sets drop_next from now, so one dequeue drops at most one even when late
        long late = 210 * MS + law(2) + 500 * MS;
        assertThat(codel.onSample(late, 50 * MS, 10)).isEqualTo(1);
        assertThat(codel.count()).isEqualTo(3);
        assertThat(codel.dropNext()).isEqualTo(late + law(3));
        // only one entry left: never drop the last one
        assertThat(codel.onSample(late + law(3), 50 * MS, 1)).isZero();
        assertThat(codel.count()).isEqualTo(3);
        assertThat(codel.onSample(late + law(3), 50 * MS, 2)).isEqualTo(1);
        assertThat(codel.count()).isEqualTo(4);
        // a sample below target leaves the dropping state at once
        assertThat(codel.onSample(late + law(3) + MS, TARGET - 1, 10)).isZero();
        assertThat(codel.dropping()).isFalse();
        assertThat(codel.congested()).isFalse();
    }

    /** Drives the controller into dropping and through drops until count reaches {@code target}. */
    private long dropUntilCount(long start, int targetCount) {
        long now = start;
        codel.onSample(now, 50 * MS, 100);
        now += INTERVAL;
        codel.onSample(now, 50 * MS, 100);
        while (codel.count() < targetCount) {
            now = codel.dropNext();
            assertThat(codel.onSample(now, 50 * MS, 100)).isEqualTo(1);
        }
        return now;
    }

    @Test
    void reEntryWithinSixteenIntervalsResumesAtCountMinusTwo() {
        long now = dropUntilCount(0, 6);
        long lastDropNext = codel.dropNext();
        codel.onSample(now + MS, MS, 100); // leave
        long reAbove = lastDropNext + 5 * INTERVAL;
        codel.onSample(reAbove, 50 * MS, 100);
        long reEnter = reAbove + INTERVAL; // now - drop_next = 6 intervals < 16
        assertThat(codel.onSample(reEnter, 50 * MS, 100)).isZero();
        assertThat(codel.count()).isEqualTo(4);
        assertThat(codel.dropNext()).isEqualTo(reEnter + law(4));
        assertThat(law(4)).isEqualTo(50 * MS);
    }

    @Test
    void reEntryAtExactlySixteenIntervalsStartsOver() {
        long now = dropUntilCount(0, 6);
        long lastDropNext = codel.dropNext();
        codel.onSample(now + MS, MS, 100);
        long reEnter = lastDropNext + 16 * INTERVAL; // not < 16 intervals
        codel.onSample(reEnter - INTERVAL, 50 * MS, 100);
        assertThat(codel.onSample(reEnter, 50 * MS, 100)).isZero();
        assertThat(codel.count()).isEqualTo(1);
        assertThat(codel.dropNext()).isEqualTo(reEnter + INTERVAL);
    }

    @Test
    void reEntryJustInsideSixteenIntervalsKeepsHistory() {
        long now = dropUntilCount(0, 6);
        long lastDropNext = codel.dropNext();
        codel.onSample(now + MS, MS, 100);
        long reEnter = lastDropNext + 16 * INTERVAL - 1;
        codel.onSample(reEnter - INTERVAL, 50 * MS, 100);
        codel.onSample(reEnter, 50 * MS, 100);
        assertThat(codel.count()).isEqualTo(4);
    }

    @Test
    void countOfTwoOrLessRestartsAtOne() {
        long now = dropUntilCount(0, 2);
        codel.onSample(now + MS, MS, 100);
        codel.onSample(now + 2 * MS, 50 * MS, 100);
        codel.onSample(now + 2 * MS + INTERVAL, 50 * MS, 100);
        assertThat(codel.count()).isEqualTo(1);
    }

    @Test
    void aBelowTargetSampleResetsTheFirstAboveClock() {
        codel.onSample(0, 10 * MS, 10);
        codel.onSample(90 * MS, 1 * MS, 10); // below: reset
        codel.onSample(95 * MS, 10 * MS, 10); // first above again: 195 ms
        assertThat(codel.firstAboveTime()).isEqualTo(195 * MS);
        assertThat(codel.onSample(150 * MS, 10 * MS, 10)).isZero();
        assertThat(codel.dropping()).isFalse();
    }

    @Test
    void worksAcrossNegativeTickerReadings() {
        long base = -10 * INTERVAL;
        codel.onSample(base, 10 * MS, 10);
        codel.onSample(base + INTERVAL, 10 * MS, 10);
        assertThat(codel.dropping()).isTrue();
        assertThat(codel.onSample(base + 2 * INTERVAL, 10 * MS, 10)).isEqualTo(1);
    }
}
