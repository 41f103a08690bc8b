package dev.levee.circuitbreaker;

import static dev.levee.circuitbreaker.Fixture.MS;
import static dev.levee.circuitbreaker.Fixture.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.circuitbreaker.internal.SlidingWindow;
import dev.levee.circuitbreaker.internal.TripRules;
import dev.levee.circuitbreaker.internal.TimeWindow;
import org.junit.jupiter.api.Test;

class TimeWindowBreakerTest {

    private static Fixture timeBased() {
        return new Fixture(Fixture.small().timeWindow(10, 10).minimumNumberOfCalls(10));
    }

    @Test
    void failuresAgeOutOfTheWindow() {
        Fixture f = timeBased();
        f.fail(4);
        f.succeed(5);
        assertThat(f.breaker.metrics().calls()).isEqualTo(9);
        f.advance(12 * SECOND); // older than the window plus one bucket
        assertThat(f.breaker.metrics().calls()).isZero();
        f.succeed(6);
        f.fail(4);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED); // 40%
        f.fail(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED); // 5 of 11
        f.fail(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN); // 6 of 12
    }

    @Test
    void theEstimateCoversTheWholeWindowNotATumblingPart() {
        Fixture f = timeBased();
        f.fail(4);
        // 9.5 s later the four failures are still inside the last 10 s, even though the ring has rolled
        // over most of its buckets.
        f.advance(9_500 * MS);
        assertThat(f.breaker.metrics().failedCalls()).isEqualTo(4);
        f.succeed(5);
        f.fail(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN); // 5 of 10
    }

    @Test
    void minimumNumberOfCallsCountsOnlyTheWindow() {
        Fixture f = timeBased();
        for (int i = 0; i < 5; i++) {
            f.fail(5);
            f.advance(11 * SECOND);
        }
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void windowUnit_bucketsRollAndResetLazily() {
        TimeWindow w = new TimeWindow(10 * SECOND, 10);
        assertThat(w.bucketNanos()).isEqualTo(SECOND);
        long t = -3 * SECOND; // readings may be negative
        w.record(SlidingWindow.FAILURE, t);
        w.record(SlidingWindow.SLOW_SUCCESS, t + SECOND);
        w.record(SlidingWindow.SLOW_FAILURE, t + 2 * SECOND);
        long totals = w.totals(t + 2 * SECOND);
        assertThat(SlidingWindow.calls(totals)).isEqualTo(3);
        assertThat(SlidingWindow.failures(totals)).isEqualTo(2);
        assertThat(SlidingWindow.slowCalls(totals)).isEqualTo(2);
        // 11 buckets later the first bucket's entry is reused for a new epoch and reset.
        w.record(SlidingWindow.SUCCESS, t + 11 * SECOND);
        totals = w.totals(t + 11 * SECOND);
        assertThat(SlidingWindow.calls(totals)).isEqualTo(3);
        assertThat(SlidingWindow.failures(totals)).isEqualTo(1);
        assertThat(w.exactCalls(t + 100 * SECOND)).isZero();
    }

    @Test
    void windowUnit_aLateWriterCountsInTheNewerBucket() {
        TimeWindow w = new TimeWindow(10 * SECOND, 10);
        w.record(SlidingWindow.SUCCESS, 5 * SECOND);
        w.record(SlidingWindow.FAILURE, 5 * SECOND - 16 * SECOND); // same ring entry (ring of 16), older epoch
        assertThat(SlidingWindow.calls(w.totals(5 * SECOND))).isEqualTo(2);
    }

    @Test
    void windowUnit_largeCountsKeepTheirRates() {
        TimeWindow w = new TimeWindow(SECOND, 1);
        for (int i = 0; i < 3_000_000; i++) {
            w.record(i % 4 == 0 ? SlidingWindow.FAILURE : SlidingWindow.SUCCESS, 0L);
        }
        assertThat(w.exactCalls(0L)).isEqualTo(3_000_000);
        long totals = w.totals(0L);
        double rate = SlidingWindow.failures(totals) * 100.0 / SlidingWindow.calls(totals);
        assertThat(rate).isBetween(24.99, 25.01);
        assertThat(new TripRules(1_000_000, 0.2499, 1, 0).breaches(totals)).isEqualTo(TripRules.FAILURE_RATE);
    }

    @Test
    void fewerBucketsForgetInCoarserSteps() {
        Fixture coarse = new Fixture(Fixture.small().timeWindow(10, 1).minimumNumberOfCalls(10));
        Fixture fine = new Fixture(Fixture.small().timeWindow(10, 10).minimumNumberOfCalls(10));
        for (Fixture f : new Fixture[] {coarse, fine}) {
            f.fail(3);
            f.advance(12 * SECOND);
        }
        // One 10 s bucket keeps the failures up to 20 s; ten 1 s buckets forget them after 11 s.
        assertThat(coarse.breaker.metrics().failedCalls()).isEqualTo(3);
        assertThat(fine.breaker.metrics().failedCalls()).isZero();
        coarse.advance(8 * SECOND);
        assertThat(coarse.breaker.metrics().failedCalls()).isZero();
    }
}
