package dev.levee.timeout.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.testing.Concurrently;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The timer wheel's promises, on manual time: every timer fires once, never early, cancels in O(1). */
class TimerWheelTest {
    private static final long MS = 1_000_000L;

    private final ManualTicker ticker = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);

    /** Records when it fired, and how often. */
    private final class Probe extends TimerWheel.Timer {
        final long deadline;
        final long armedAt = ticker.read();
        long firedAt = -1;
        int fires;

        Probe(long deadline) {
            this.deadline = deadline;
        }

        @Override
        protected void expire() {
            fires++;
            firedAt = ticker.read();
        }
    }

    @Test
    void everyTimerFiresOnceNeverEarlyAndWithinOneTick() {
        TimerWheel wheel = new TimerWheel(ticker, scheduler, MS, 64); // 64 ms per revolution: many rounds
        SplittableRandom random = new SplittableRandom(13);
        List<Probe> probes = new ArrayList<>();
        for (int step = 0; step < 200; step++) {
            for (int i = 0; i < 20; i++) {
                // Deadlines from the past to 0.5 s ahead, at any nanosecond (not on tick boundaries).
                Probe p = new Probe(ticker.read() + random.nextLong(-5 * MS, 500 * MS));
                probes.add(p);
                wheel.schedule(p, p.deadline);
            }
            scheduler.advance(random.nextLong(0, 7 * MS));
        }
        scheduler.advance(600 * MS);
        for (Probe p : probes) {
            assertThat(p.fires).as("fires").isEqualTo(1);
            assertThat(p.firedAt).as("never early").isGreaterThanOrEqualTo(p.deadline);
            // On manual time ticks run exactly on tick boundaries: at most one tick late (a past
            // deadline armed between ticks waits for the next one).
            assertThat(p.firedAt - Math.max(p.deadline, p.armedAt)).as("lateness").isLessThanOrEqualTo(MS);
        }
        assertThat(wheel.pending()).isZero();
    }

    @Test
    void aCancelledTimerNeverFiresAndACancelAfterExpiryFails() {
        TimerWheel wheel = new TimerWheel(ticker, scheduler);
        Probe early = new Probe(5 * MS);
        Probe late = new Probe(10 * MS);
        Probe cancelledBeforeFiling = new Probe(10 * MS);
        wheel.schedule(early, early.deadline);
        wheel.schedule(late, late.deadline);
        wheel.schedule(cancelledBeforeFiling, cancelledBeforeFiling.deadline);
        assertThat(wheel.cancel(cancelledBeforeFiling)).isTrue();
        scheduler.advance(2 * MS); // filed now
        assertThat(wheel.pending()).isEqualTo(2);
        assertThat(wheel.cancel(late)).isTrue();
        assertThat(wheel.cancel(late)).as("second cancel").isFalse();
        scheduler.advance(MS);
        assertThat(wheel.pending()).as("a cancelled timer leaves at the next tick").isEqualTo(1);
        scheduler.advance(20 * MS);
        assertThat(early.fires).isEqualTo(1);
        assertThat(early.expired()).isTrue();
        assertThat(wheel.cancel(early)).as("cancel after expiry").isFalse();
        assertThat(late.fires).isZero();
        assertThat(cancelledBeforeFiling.fires).isZero();
    }

    @Test
    void holdsAMillionPendingTimersAndDoesWorkProportionalToThem() {
        TimerWheel wheel = new TimerWheel(ticker, scheduler);
        int n = 1_000_000;
        SplittableRandom random = new SplittableRandom(7);
        Probe[] probes = new Probe[n];
        for (int i = 0; i < n; i++) {
            probes[i] = new Probe(random.nextLong(3 * MS, 10_000 * MS)); // up to 10 s: beyond one revolution
            wheel.schedule(probes[i], probes[i].deadline);
        }
        scheduler.advance(MS);
        assertThat(wheel.pending()).isEqualTo(n);
        for (int i = 0; i < n; i += 2) {
            assertThat(wheel.cancel(probes[i])).isTrue();
        }
        scheduler.advance(MS);
        long firedSoFar = 0;
        for (Probe p : probes) {
            firedSoFar += p.fires;
        }
        assertThat(wheel.pending()).as("cancelled timers leave at the next tick").isEqualTo(n / 2 - firedSoFar);
        scheduler.advance(10_001 * MS);
        for (int i = 0; i < n; i++) {
            Probe p = probes[i];
            if (i % 2 == 0 && p.fires == 0) {
                continue; // cancelled in time
            }
            assertThat(p.fires).isEqualTo(1);
            assertThat(p.firedAt).isGreaterThanOrEqualTo(p.deadline);
        }
        // Filing, removing and firing look at each timer a bounded number of times (a timer past one
        // revolution is passed over once more): the work follows the timers, not the ticks or buckets.
        assertThat(wheel.visited()).isLessThanOrEqualTo(4L * n);
        // ... and at least once each: all n were filed off the armed stacks in the first tick, and the
        // half that was not cancelled was looked at again when it fired.
        assertThat(wheel.visited()).isGreaterThanOrEqualTo(n + n / 2);
        assertThat(wheel.pending()).isZero();
    }

    @Test
    void stopsTickingWhenIdleAndStartsAgainOnTheNextTimer() {
        TimerWheel wheel = new TimerWheel(ticker, scheduler);
        Probe first = new Probe(3 * MS);
        wheel.schedule(first, first.deadline);
        scheduler.advance(10 * MS);
        assertThat(first.fires).isEqualTo(1);
        assertThat(scheduler.pending()).as("no tick scheduled on an empty wheel").isZero();
        scheduler.advance(60_000 * MS);
        Probe second = new Probe(ticker.read() + 2 * MS);
        wheel.schedule(second, second.deadline);
        assertThat(scheduler.pending()).isEqualTo(1);
        scheduler.advance(MS);
        assertThat(second.fires).isZero();
        scheduler.advance(MS);
        assertThat(second.fires).isEqualTo(1);
        assertThat(second.firedAt).isEqualTo(second.deadline);
    }

    /**
     * A scheduler that fell behind by more than a revolution: the late tick sweeps every bucket once,
     * fires everything due by then and nothing that is not.
     */
    @Test
    void aTickLateByMoreThanARevolutionFiresWhatIsDueAndNothingElse() {
        List<Runnable> queued = new ArrayList<>();
        TimerWheel wheel = new TimerWheel(ticker, (task, delay) -> {
            queued.add(task);
            return () -> queued.remove(task);
        }, MS, 64);
        List<Probe> probes = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 2_000; i++) {
            Probe p = new Probe(random.nextLong(1, 400 * MS)); // up to six revolutions away
            probes.add(p);
            wheel.schedule(p, p.deadline);
        }
        ticker.advance(150 * MS); // the tick task is late by 150 ticks
        runQueued(queued);
        for (Probe p : probes) {
            assertThat(p.fires).as("due by 150 ms: fired once; later: not yet").isEqualTo(p.deadline <= 150 * MS ? 1 : 0);
        }
        ticker.advance(300 * MS);
        runQueued(queued);
        for (Probe p : probes) {
            assertThat(p.fires).isEqualTo(1);
            assertThat(p.firedAt).isGreaterThanOrEqualTo(p.deadline);
        }
    }

    private static void runQueued(List<Runnable> queued) {
        List<Runnable> now = new ArrayList<>(queued);
        queued.clear();
        now.forEach(Runnable::run);
    }

    @Test
    void aThrowingExpiryDoesNotStopTheWheel() {
        TimerWheel wheel = new TimerWheel(ticker, scheduler);
        TimerWheel.Timer bad = new TimerWheel.Timer() {
            @Override
            protected void expire() {
                throw new IllegalStateException("boom");
            }
        };
        Probe good = new Probe(2 * MS);
        wheel.schedule(bad, MS);
        wheel.schedule(good, good.deadline);
        scheduler.advance(5 * MS);
        assertThat(bad.expired()).isTrue();
        assertThat(good.fires).isEqualTo(1);
    }

    @Test
    void rejectsABadShape() {
        assertThatThrownBy(() -> new TimerWheel(ticker, scheduler, 0, 64)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TimerWheel(ticker, scheduler, MS, 100)).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * Sixteen threads arm and cancel while another drives time: every timer either was cancelled
     * (and never fired) or fired exactly once (and could not be cancelled), never before its deadline.
     */
    @Test
    void exactlyOneOfCancelAndExpiryWinsUnderContention() throws Exception {
        TimerWheel wheel = new TimerWheel(ticker, scheduler, MS, 256);
        int perThread = 5_000;
        AtomicInteger violations = new AtomicInteger();
        AtomicBoolean done = new AtomicBoolean();
        List<List<CountingTimer>> all = new ArrayList<>();
        for (int t = 0; t < Concurrently.THREADS; t++) {
            all.add(new ArrayList<>());
        }
        Thread clock = new Thread(() -> {
            while (!done.get()) {
                scheduler.advance(MS / 4);
            }
        });
        clock.start();
        Concurrently.run(Concurrently.THREADS, thread -> {
            SplittableRandom random = new SplittableRandom(thread);
            List<CountingTimer> mine = all.get(thread);
            for (int i = 0; i < perThread; i++) {
                long deadline = ticker.read() + random.nextLong(0, 3 * MS);
                CountingTimer timer = new CountingTimer(deadline);
                mine.add(timer);
                wheel.schedule(timer, deadline);
                if (random.nextBoolean()) {
                    timer.cancelled = wheel.cancel(timer);
                }
            }
        });
        done.set(true);
        clock.join();
        scheduler.advance(10 * MS);
        for (List<CountingTimer> mine : all) {
            for (CountingTimer timer : mine) {
                int fires = timer.fires.get();
                if (timer.cancelled ? fires != 0 : fires != 1) {
                    violations.incrementAndGet();
                }
                if (fires == 1 && timer.firedAt < timer.deadline) {
                    violations.incrementAndGet();
                }
            }
        }
        assertThat(violations.get()).isZero();
        assertThat(wheel.pending()).isZero();
    }

    private final class CountingTimer extends TimerWheel.Timer {
        final long deadline;
        final AtomicInteger fires = new AtomicInteger();
        volatile long firedAt;
        boolean cancelled;

        CountingTimer(long deadline) {
            this.deadline = deadline;
        }

        @Override
        protected void expire() {
            firedAt = ticker.read();
            fires.incrementAndGet();
        }
    }

    @Test
    void aTimerCancelledInTheTickItIsDueInNeverFires() {
        TimerWheel wheel = new TimerWheel(ticker, scheduler, MS, 64);
        Probe p = new Probe(5 * MS);
        assertThat(p.expired()).isFalse();
        wheel.schedule(p, p.deadline);
        scheduler.advance(4 * MS);                   // filed in its bucket
        assertThat(wheel.cancel(p)).isTrue();        // the cancel is pushed; the next tick sweeps the bucket first
        scheduler.advance(2 * MS);
        assertThat(p.fires).isZero();
        assertThat(p.expired()).isFalse();
        assertThat(wheel.pending()).isZero();
    }
}
