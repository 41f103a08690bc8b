package dev.levee.circuitbreaker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.circuitbreaker.internal.CountWindow;
import dev.levee.circuitbreaker.internal.HalfOpenProbes;
import dev.levee.circuitbreaker.internal.SlidingWindow;
import dev.levee.circuitbreaker.internal.TripRules;
import org.junit.jupiter.api.Test;

class CountWindowTest {

    @Test
    void totalsFollowTheSlots() {
        CountWindow w = new CountWindow(3, 1);
        w.record(SlidingWindow.SLOW_FAILURE, 0);
        w.record(SlidingWindow.FAILURE, 0);
        w.record(SlidingWindow.SLOW_SUCCESS, 0);
        long t = w.totals(0);
        assertThat(SlidingWindow.calls(t)).isEqualTo(3);
        assertThat(SlidingWindow.failures(t)).isEqualTo(2);
        assertThat(SlidingWindow.slowCalls(t)).isEqualTo(2);
        w.record(SlidingWindow.SUCCESS, 0); // replaces the slow failure
        t = w.totals(0);
        assertThat(SlidingWindow.calls(t)).isEqualTo(3);
        assertThat(SlidingWindow.failures(t)).isEqualTo(1);
        assertThat(SlidingWindow.slowCalls(t)).isEqualTo(1);
        assertThat(new TripRules(3, 0.34, 0.34, 0).breaches(t)).isZero();
        assertThat(new TripRules(3, 0.33, 0.33, 0).breaches(t)).isEqualTo(TripRules.FAILURE_RATE | TripRules.SLOW_CALL_RATE);
        assertThat(new TripRules(4, 0.01, 0.01, 0).breaches(t)).isZero(); // below the minimum
        assertThat(new TripRules(4, 0.01, 0.01, 1).breaches(t)).isEqualTo(TripRules.FAILURE_COUNT); // count ignores it
    }

    @Test
    void aCleanWindowSkipsSuccessesButStillEvictsAFailureAfterExactlySizeCalls() {
        CountWindow w = new CountWindow(5, 1);
        for (int i = 0; i < 5 + 1234; i++) {
            w.record(SlidingWindow.SUCCESS, 0);
        }
        w.record(SlidingWindow.FAILURE, 0);
        assertThat(SlidingWindow.failures(w.totals(0))).isEqualTo(1);
        for (int i = 0; i < 4; i++) {
            w.record(SlidingWindow.SUCCESS, 0);
        }
        assertThat(SlidingWindow.failures(w.totals(0))).as("still among the last 5").isEqualTo(1);
        w.record(SlidingWindow.SUCCESS, 0);
        assertThat(SlidingWindow.failures(w.totals(0))).isZero();
        assertThat(SlidingWindow.calls(w.totals(0))).isEqualTo(5);
        // A slow success is a change even in a clean window.
        w.record(SlidingWindow.SLOW_SUCCESS, 0);
        assertThat(SlidingWindow.slowCalls(w.totals(0))).isEqualTo(1);
    }

    @Test
    void largestWindowFitsThePackedTotals() {
        CountWindow w = new CountWindow(1_000_000, 1);
        for (int i = 0; i < 1_000_000; i++) {
            w.record(SlidingWindow.SLOW_FAILURE, 0);
        }
        long t = w.totals(0);
        assertThat(SlidingWindow.calls(t)).isEqualTo(1_000_000);
        assertThat(SlidingWindow.failures(t)).isEqualTo(1_000_000);
        assertThat(SlidingWindow.slowCalls(t)).isEqualTo(1_000_000);
    }

    @Test
    void probesAreExactAndStrayCompletionsDoNotCount() {
        HalfOpenProbes p = new HalfOpenProbes(2);
        assertThat(p.record(true, false)).isEqualTo(-1L); // nothing out
        assertThat(p.tryAdmit()).isTrue();
        assertThat(p.tryAdmit()).isTrue();
        assertThat(p.tryAdmit()).isFalse();
        p.release();
        assertThat(HalfOpenProbes.admitted(p.snapshot())).isEqualTo(1);
        long s = p.record(false, true);
        assertThat(HalfOpenProbes.completed(s)).isEqualTo(1);
        assertThat(HalfOpenProbes.slow(s)).isEqualTo(1);
        assertThat(HalfOpenProbes.good(s)).isZero();
        p.release(); // nothing out any more: no effect
        assertThat(HalfOpenProbes.admitted(p.snapshot())).isEqualTo(1);
        assertThat(p.record(false, false)).isEqualTo(-1L);
    }
}
