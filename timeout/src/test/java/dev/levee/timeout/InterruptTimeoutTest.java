package dev.levee.timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.Deadline;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * INTERRUPT mode: the call on the caller's thread, interrupted by the timer wheel at the deadline.
 * Time is manual: a test (or the call itself) advances the scheduler, whose tick task fires the timer.
 */
class InterruptTimeoutTest {
    private static final long MS = 1_000_000L;

    private final ManualTicker ticker = new ManualTicker(1_000_000_000_000L);
    private final ManualScheduler scheduler = new ManualScheduler(ticker);
    private final Timeout timeout = Timeout.of("interrupt", TimeoutConfig.builder().timeout(Duration.ofMillis(100))
            .mode(TimeoutMode.INTERRUPT).ticker(ticker).scheduler(scheduler).build());

    @AfterEach
    void cleanFlag() {
        Thread.interrupted(); // a failed test must not leak an interrupt into the next one
    }

    @Test
    void aCallThatFinishesInTimeIsUntouched() throws Exception {
        Object value = new Object();
        assertThat(timeout.execute(() -> value)).isSameAs(value);
        IOException failure = new IOException("down");
        assertThatThrownBy(() -> timeout.execute(() -> {
            throw failure;
        })).isSameAs(failure);
        scheduler.advance(Duration.ofSeconds(1)); // the disarmed timers never fire
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        assertThat(timeout.successCount()).isEqualTo(1);
        assertThat(timeout.failureCount()).isEqualTo(1);
        assertThat(timeout.timeoutCount()).isZero();
    }

    @Test
    void theCallSeesItsDeadline() throws Exception {
        long remaining = timeout.execute(() -> Deadline.currentOrNull().remainingNanos());
        assertThat(remaining).isEqualTo(100 * MS);
        assertThat(Deadline.currentOrNull()).isNull();
    }

    @Test
    void aBlockedCallIsInterruptedAtTheDeadlineNotBefore() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        AtomicBoolean flagAfterwards = new AtomicBoolean(true);
        CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
            try {
                timeout.execute(() -> {
                    started.countDown();
                    never.await();
                    return "unreachable";
                });
                return null;
            } catch (Throwable t) {
                flagAfterwards.set(Thread.currentThread().isInterrupted());
                return t;
            }
        }, runnable -> new Thread(runnable, "caller").start());
        assertThat(started.await(60, TimeUnit.SECONDS)).isTrue();
        scheduler.advance(99 * MS);
        assertThat(outcome).isNotDone(); // 1 ms before the deadline nothing fired (it would be done at once)
        scheduler.advance(MS);
        Throwable thrown = outcome.get(60, TimeUnit.SECONDS);
        assertThat(thrown).isInstanceOf(DeadlineExceededException.class).hasCauseInstanceOf(InterruptedException.class);
        assertThat(flagAfterwards).as("the caller's flag afterwards").isFalse();
        assertThat(timeout.timeoutCount()).isEqualTo(1);
    }

    /** The classic race: the timer fires after the call's work is done, just before it returns. */
    @Test
    void theTimerFiringJustAsTheCallReturnsLeavesNoInterruptBehind() {
        assertThatThrownBy(() -> timeout.execute(() -> {
            scheduler.advance(100 * MS); // the work took the whole timeout; the timer fires on this thread now
            return "late";
        })).isInstanceOf(DeadlineExceededException.class).hasNoCause();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        assertThat(timeout.timeoutCount()).isEqualTo(1);
    }

    @Test
    void anInterruptPendingWhenTheTimerFiresIsSomeoneElsesAndStays() {
        assertThatThrownBy(() -> timeout.execute(() -> {
            Thread.currentThread().interrupt(); // another party's interrupt, not consumed by the call
            scheduler.advance(100 * MS);
            return "late";
        })).isInstanceOf(DeadlineExceededException.class);
        assertThat(Thread.interrupted()).as("the other party's interrupt is kept").isTrue();
    }

    @Test
    void anInterruptPendingBeforeTheCallIsKeptWhetherOrNotTheTimerFires() throws Exception {
        Thread.currentThread().interrupt();
        assertThat(timeout.execute(() -> "quick")).isEqualTo("quick");
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
        assertThatThrownBy(() -> timeout.execute(() -> {
            scheduler.advance(100 * MS);
            return "late";
        })).isInstanceOf(DeadlineExceededException.class);
        assertThat(Thread.interrupted()).isTrue();
    }

    @Test
    void anInterruptAfterTheCallConsumedTheTimersIsKept() {
        assertThatThrownBy(() -> timeout.execute(() -> {
            scheduler.advance(100 * MS);
            assertThat(Thread.interrupted()).as("the timer's interrupt arrived").isTrue(); // consumed, as a wait would
            Thread.currentThread().interrupt(); // then someone else interrupts
            throw new InterruptedException("the call's wait was interrupted");
        })).isInstanceOf(DeadlineExceededException.class).hasCauseInstanceOf(InterruptedException.class);
        assertThat(Thread.interrupted()).isTrue();
    }

    @Test
    void aCallThatConsumesTheTimersInterruptLeavesTheFlagClean() {
        assertThatThrownBy(() -> timeout.execute(() -> {
            scheduler.advance(100 * MS);
            Thread.interrupted();
            throw new InterruptedException("sleep interrupted");
        })).isInstanceOf(DeadlineExceededException.class).hasCauseInstanceOf(InterruptedException.class);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void aCallThatRestoresTheTimersInterruptAndThrowsSomethingElseLeavesTheFlagClean() {
        assertThatThrownBy(() -> timeout.execute(() -> {
            scheduler.advance(100 * MS);
            try {
                throw new InterruptedException("a wait saw the timer's interrupt");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // the usual "restore the flag" idiom
                throw new IllegalStateException("gave up", e);
            }
        })).isInstanceOf(DeadlineExceededException.class).hasCauseInstanceOf(IllegalStateException.class);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    /** The documented limit: restoring the flag and rethrowing InterruptedException looks like a later interrupt. */
    @Test
    void aCallThatRestoresTheFlagAndRethrowsInterruptedExceptionKeepsTheFlag() {
        assertThatThrownBy(() -> timeout.execute(() -> {
            scheduler.advance(100 * MS);
            Thread.interrupted();
            Thread.currentThread().interrupt();
            throw new InterruptedException("restored and rethrown");
        })).isInstanceOf(DeadlineExceededException.class);
        assertThat(Thread.interrupted()).isTrue();
    }

    @Test
    void anErrorIsNeverSwallowedEvenAfterTheTimerFired() {
        StackOverflowError error = new StackOverflowError("deep");
        assertThatThrownBy(() -> timeout.execute(() -> {
            scheduler.advance(100 * MS);
            throw error;
        })).isSameAs(error);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void aCurrentDeadlineShorterThanTheTimeoutIsTheOneArmed() {
        try (var scope = Deadline.afterNanos(40 * MS, ticker).attach()) {
            assertThatThrownBy(() -> timeout.execute(() -> {
                scheduler.advance(39 * MS);
                assertThat(Thread.currentThread().isInterrupted()).isFalse();
                scheduler.advance(MS);
                assertThat(Thread.currentThread().isInterrupted()).isTrue();
                return "late";
            })).isInstanceOf(DeadlineExceededException.class);
        }
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void interruptOnTimeoutFalseIsRefusedInThisMode() {
        assertThatThrownBy(() -> TimeoutConfig.builder().mode(TimeoutMode.INTERRUPT).interruptOnTimeout(false).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("interruptOnTimeout").hasMessageContaining("INTERRUPT");
    }

    /** On the system ticker and scheduler, the shared wheel interrupts a call that blocks forever. */
    @Test
    void onRealTimeTheSharedWheelInterruptsABlockedCall() throws Exception {
        Timeout real = Timeout.of("real", TimeoutConfig.builder().timeout(Duration.ofMillis(20))
                .mode(TimeoutMode.INTERRUPT).build());
        AtomicReference<Boolean> flag = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            try {
                real.execute(() -> {
                    new CountDownLatch(1).await();
                    return "unreachable";
                });
            } catch (DeadlineExceededException expected) {
                flag.set(Thread.currentThread().isInterrupted());
            } catch (Exception other) {
                flag.set(null);
            }
        });
        caller.start();
        caller.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(caller.isAlive()).isFalse();
        assertThat(flag.get()).isFalse();
        assertThat(real.timeoutCount()).isEqualTo(1);
    }

    @Test
    void manyCallsInARowLeaveNoPendingTimerBehind() throws ExecutionException, InterruptedException {
        for (int i = 0; i < 1_000; i++) {
            timeout.execute(() -> "fast");
        }
        scheduler.advance(2 * MS);
        scheduler.advance(Duration.ofSeconds(1));
        assertThat(scheduler.pending()).as("the wheel stopped ticking").isZero();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }
}
