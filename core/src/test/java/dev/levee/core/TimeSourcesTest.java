package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The tickers, sleepers and schedulers of core: manual ones exactly, real ones by what they promise. */
class TimeSourcesTest {

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void manualTickerAdvancesByZeroAndRefusesNegativeAmounts() {
        ManualTicker ticker = new ManualTicker(10);
        assertThat(ticker.advance(0)).isEqualTo(10);
        assertThatThrownBy(() -> ticker.advance(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(ticker.read()).isEqualTo(10);
    }

    @Test
    void manualTickerSleepOfZeroOrLessDoesNotMoveTimeAndHonoursTheInterrupt() throws InterruptedException {
        ManualTicker ticker = new ManualTicker(10);
        ticker.sleep(0);
        ticker.sleep(-5);
        assertThat(ticker.read()).isEqualTo(10);
        ticker.sleep(7);
        assertThat(ticker.read()).isEqualTo(17);
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> ticker.sleep(5)).isInstanceOf(InterruptedException.class);
        assertThat(ticker.read()).isEqualTo(17);
    }

    @Test
    void sleepRestoringInterruptReportsAndKeepsTheInterrupt() {
        ManualTicker ticker = new ManualTicker();
        assertThat(ticker.sleepRestoringInterrupt(5)).isTrue();
        Thread.currentThread().interrupt();
        assertThat(ticker.sleepRestoringInterrupt(5)).isFalse();
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
        assertThat(ticker.read()).isEqualTo(5);
    }

    @Test
    void systemSleeperChecksTheInterruptEvenForAZeroSleep() throws InterruptedException {
        Sleeper sleeper = Sleeper.system();
        sleeper.sleep(0);
        sleeper.sleep(-1);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> sleeper.sleep(0)).isInstanceOf(InterruptedException.class);
        assertThat(Thread.currentThread().isInterrupted()).isFalse(); // the exception consumed the flag
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> sleeper.sleep(-1)).isInstanceOf(InterruptedException.class);
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> sleeper.sleep(1_000_000_000L)).isInstanceOf(InterruptedException.class);
    }

    @Test
    void manualSchedulerRunsATaskOnlyWhenItsDelayHasPassed() {
        ManualTicker ticker = new ManualTicker(1_000);
        ManualScheduler scheduler = new ManualScheduler(ticker);
        assertThat(scheduler.ticker()).isSameAs(ticker);
        List<String> ran = new ArrayList<>();
        scheduler.schedule(() -> ran.add("late"), 100);
        scheduler.schedule(() -> ran.add("now"), -5);
        assertThat(scheduler.runDue()).isEqualTo(1);
        assertThat(ran).containsExactly("now");
        assertThat(scheduler.advance(99)).isZero();
        assertThat(scheduler.advance(1)).isEqualTo(1);
        assertThat(ran).containsExactly("now", "late");
        assertThat(ticker.read()).isEqualTo(1_100);
        assertThatThrownBy(() -> scheduler.advance(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void manualSchedulerRunsEqualTimeTasksInSchedulingOrderAtTheirDueTime() {
        ManualTicker ticker = new ManualTicker();
        ManualScheduler scheduler = new ManualScheduler(ticker);
        List<String> ran = new ArrayList<>();
        scheduler.schedule(() -> ran.add("b@20 " + ticker.read()), 20);
        scheduler.schedule(() -> ran.add("a@10 " + ticker.read()), 10);
        scheduler.schedule(() -> ran.add("c@20 " + ticker.read()), 20);
        assertThat(scheduler.advance(50)).isEqualTo(3);
        assertThat(ran).containsExactly("a@10 10", "b@20 20", "c@20 20");
        assertThat(ticker.read()).isEqualTo(50);
    }

    @Test
    void cancellingRemovesTheTaskOnceAndReleasesTheLock() throws Exception {
        ManualScheduler scheduler = new ManualScheduler(new ManualTicker());
        List<String> ran = new ArrayList<>();
        Scheduler.Cancellable task = scheduler.schedule(() -> ran.add("x"), 10);
        assertThat(task.cancel()).isTrue();
        assertThat(task.cancel()).isFalse();
        // Another thread can still use the scheduler: the cancel released its lock.
        assertThat(CompletableFuture.supplyAsync(scheduler::pending, Executors.newSingleThreadExecutor())
                .get(60, TimeUnit.SECONDS)).isZero();
        scheduler.advance(20);
        assertThat(ran).isEmpty();
    }

    @Test
    void schedulerOfAnExecutorRunsAndCancelsThroughIt() throws Exception {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
        try {
            Scheduler scheduler = Scheduler.of(executor);
            CountDownLatch ran = new CountDownLatch(1);
            assertThat(scheduler.schedule(ran::countDown, -1)).isNotNull();
            assertThat(ran.await(60, TimeUnit.SECONDS)).isTrue();
            Scheduler.Cancellable later = scheduler.schedule(() -> {}, TimeUnit.HOURS.toNanos(1));
            assertThat(later.cancel()).isTrue();
            assertThat(later.cancel()).isFalse();
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void theSystemSchedulerRunsAndCancels() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        Scheduler.system().schedule(ran::countDown, 0);
        assertThat(ran.await(60, TimeUnit.SECONDS)).isTrue();
        Scheduler.Cancellable later = Scheduler.system().schedule(() -> {}, TimeUnit.HOURS.toNanos(1));
        assertThat(later.cancel()).isTrue();
        assertThat(later.cancel()).isFalse();
    }
}
