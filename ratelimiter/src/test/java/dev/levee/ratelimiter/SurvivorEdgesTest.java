package dev.levee.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.RateLimitedException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Behaviour the mutation run of issue 19 found unpinned: an asynchronous wait under a deadline (on the
 * limiter's clock and on another clock, and the refusal's message), and the {@link RateLimiter#peek}
 * default that a limiter implemented outside this module inherits, GCRA's answer when the next
 * permit's time does not fit in a long, and GCRA's {@code burst × interval} bound on a rate change.
 */
class SurvivorEdgesTest {
    private static final long MS = 1_000_000L;
    private final ManualTicker ticker = new ManualTicker(5_000 * MS);
    private final ManualScheduler scheduler = new ManualScheduler(ticker);
    private final Queue<Runnable> handedOff = new ArrayDeque<>();

    /** GCRA, 10 per second, burst 1: after one grant the next permit is due in exactly 100 ms. */
    private RateLimiter asyncLimiter() {
        return RateLimiter.of("async", RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.GCRA)
                .rate(10, Duration.ofSeconds(1)).burst(1).maxWait(Duration.ofSeconds(1))
                .ticker(ticker).sleeper(ticker).scheduler(scheduler).asyncExecutor(handedOff::add).build());
    }

    /** The failure of a stage already completed exceptionally. */
    private static Throwable failure(CompletableFuture<Void> stage) {
        assertThat(stage).isCompletedExceptionally();
        Throwable[] seen = new Throwable[1];
        stage.whenComplete((ignored, failure) -> seen[0] = failure);
        return seen[0];
    }

    private void runDue(Duration advance) {
        scheduler.advance(advance);
        while (!handedOff.isEmpty()) {
            handedOff.poll().run();
        }
    }

    @Test
    void anAsyncWaitUnderADeadlineOnAnotherClockIsBoundedByThatClocksOwnReading() {
        RateLimiter limiter = asyncLimiter();
        assertThat(limiter.tryAcquire(1, ticker.read())).isTrue();
        ManualTicker other = new ManualTicker(0); // far behind the limiter's clock
        CompletableFuture<Void> waiting;
        try (ContextScope scope = Deadline.afterNanos(200 * MS, other).attach()) {
            waiting = limiter.acquireAsync(ticker.read()).toCompletableFuture(); // 200 ms left there: books 100 ms
        }
        assertThat(waiting).isNotDone();
        runDue(Duration.ofMillis(100));
        assertThat(waiting).isCompletedWithValue(null);

        CompletableFuture<Void> refused;
        try (ContextScope scope = Deadline.afterNanos(50 * MS, other).attach()) {
            refused = limiter.acquireAsync(ticker.read()).toCompletableFuture();
        }
        assertThat(refused).isCompletedExceptionally();
        assertThat(failure(refused)).isInstanceOfSatisfying(RateLimitedException.class, e -> {
            assertThat(e.retryAfterNanos()).isEqualTo(100 * MS);
            assertThat(e.getMessage()).contains("within the allowed wait and deadline;");
        });
    }

    @Test
    void anAsyncWaitUnderADeadlineOnTheLimitersClockIsBoundedByIt() {
        RateLimiter limiter = asyncLimiter();
        assertThat(limiter.tryAcquire(1, ticker.read())).isTrue();
        CompletableFuture<Void> refused;
        try (ContextScope scope = Deadline.afterNanos(100 * MS - 1, ticker).attach()) {
            refused = limiter.acquireAsync(ticker.read()).toCompletableFuture(); // 1 ns short
        }
        assertThat(failure(refused)).isInstanceOfSatisfying(RateLimitedException.class,
                e -> assertThat(e.getMessage()).contains("and deadline"));
        CompletableFuture<Void> waiting;
        try (ContextScope scope = Deadline.afterNanos(100 * MS, ticker).attach()) {
            waiting = limiter.acquireAsync(ticker.read()).toCompletableFuture(); // exactly enough
        }
        runDue(Duration.ofNanos(100 * MS - 1));
        assertThat(waiting).isNotDone();
        runDue(Duration.ofNanos(1));
        assertThat(waiting).isCompletedWithValue(null);
        // Without a deadline the message does not mention one; maxWait alone refuses a 1.1 s wait.
        RateLimiter slow = RateLimiter.of("slow", RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.GCRA)
                .rate(1, Duration.ofMillis(1_100)).burst(1).maxWait(Duration.ofSeconds(1))
                .ticker(ticker).scheduler(scheduler).asyncExecutor(handedOff::add).build());
        assertThat(slow.tryAcquire(1, ticker.read())).isTrue();
        assertThat(failure(slow.acquireAsync(ticker.read()).toCompletableFuture()))
                .isInstanceOfSatisfying(RateLimitedException.class, e -> assertThat(e.getMessage())
                        .contains("within the allowed wait;").doesNotContain("deadline"));
    }

    /** A limiter implemented outside this module: everything delegated except {@code peek}. */
    private static RateLimiter inheritingPeek(RateLimiter delegate) {
        InvocationHandler handler = (proxy, method, args) -> {
            if (method.getName().equals("peek")) {
                return InvocationHandler.invokeDefault(proxy, method, args);
            }
            try {
                return method.invoke(delegate, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return (RateLimiter) Proxy.newProxyInstance(RateLimiter.class.getClassLoader(),
                new Class<?>[] {RateLimiter.class}, handler);
    }

    @Test
    void theInterfacesPeekDefaultReportsWhatAvailablePermitsSays() {
        RateLimiter own = RateLimiter.of("outside", RateLimiterConfig.builder()
                .algorithm(RateLimitAlgorithm.FIXED_WINDOW).rate(2, Duration.ofSeconds(1)).ticker(ticker).build());
        RateLimiter outside = inheritingPeek(own);
        long now = ticker.read();
        RateLimitDecision into = new RateLimitDecision();
        assertThat(outside.peek(now, into)).isSameAs(into);
        assertThat(into.toString()).isEqualTo("RateLimitDecision[allowed=true, limit=2, remaining=2, retryAfter=0ns, resetAfter=0ns]");
        assertThat(own.tryAcquire(1, now)).isTrue();
        outside.peek(now, into);
        assertThat(into.allowed()).isTrue(); // one left: still allowed
        assertThat(into.remaining()).isEqualTo(1);
        assertThat(own.tryAcquire(1, now)).isTrue();
        outside.peek(now, into);
        assertThat(into.allowed()).as("none left").isFalse();
        assertThat(new long[] {into.limit(), into.remaining(), into.balance(), into.retryAfterNanos(),
                into.resetAfterNanos()}).containsExactly(2, 0, 0, 0, 0);
    }

    @Test
    void aGcraLimiterWhoseNextPermitTimeOverflowsRefusesWithAnUnboundedRetryAfter() {
        ManualTicker late = new ManualTicker(Long.MAX_VALUE - 5); // a second from now does not fit in a long
        RateLimiter limiter = RateLimiter.of("late", RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.GCRA)
                .rate(1, Duration.ofSeconds(1)).burst(1).ticker(late).sleeper(late).build());
        assertThat(limiter.tryAcquire(1, late.read())).isFalse();
        assertThatThrownBy(() -> limiter.acquire(1, Duration.ZERO))
                .isInstanceOfSatisfying(RateLimitedException.class,
                        e -> assertThat(e.retryAfterNanos()).isEqualTo(Long.MAX_VALUE));
    }

    @Test
    void aGcraRateChangeIsAcceptedExactlyUpToTheBurstTimesIntervalBound() {
        // (Long.MAX_VALUE / 4) / 2_305_843_009_213_693 is exactly 1000 (floor): a burst of 1000 fits that
        // interval; one nanosecond more and the quotient is 999.
        RateLimiter limiter = RateLimiter.of("bound", RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.GCRA)
                .rate(10, Duration.ofSeconds(1)).burst(1_000).ticker(ticker).build());
        limiter.setRate(1, Duration.ofNanos(2_305_843_009_213_693L));
        assertThat(limiter.periodNanos()).isEqualTo(2_305_843_009_213_693L);
        assertThatThrownBy(() -> limiter.setRate(1, Duration.ofNanos(2_305_843_009_213_694L)))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("limit");
        assertThat(limiter.periodNanos()).as("refused: the rate in force is kept").isEqualTo(2_305_843_009_213_693L);
    }

    /** A sliding-window counter of 8 per 4 s in four 1 s buckets, created at {@code ticker}'s reading. */
    private RateLimiter subWindows() {
        return RateLimiter.of("buckets", RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.SLIDING_WINDOW_COUNTER)
                .rate(8, Duration.ofSeconds(4)).buckets(4).ticker(ticker).build());
    }

    private long resetAfterAt(RateLimiter limiter, long now) {
        return limiter.peek(now, new RateLimitDecision()).resetAfterNanos();
    }

    @Test
    void aSubWindowResetCountsFromTheNewestBucketHoldingPermitsWhenNewerOnesAreEmpty() {
        long t0 = ticker.read();
        RateLimiter limiter = subWindows();
        assertThat(limiter.tryAcquire(2, t0)).isTrue();               // bucket 0
        assertThat(limiter.tryAcquire(3, t0 + 1_000 * MS)).isTrue();  // bucket 1; buckets 2 and 3 stay empty
        // Newest bucket holding permits: 1, which leaves the window (and its weighted tail) 5 widths after its start.
        assertThat(resetAfterAt(limiter, t0 + 3_500 * MS)).isEqualTo(2_500 * MS);
        assertThat(resetAfterAt(limiter, t0 + 2_000 * MS)).isEqualTo(4_000 * MS);
    }

    @Test
    void aSubWindowResetStillSeesTheOldestBucketInItsWeightedTail() {
        long t0 = ticker.read();
        RateLimiter limiter = subWindows();
        assertThat(limiter.tryAcquire(2, t0)).isTrue(); // bucket 0 only
        // Four buckets later bucket 0 is the weighted oldest one: still counted until 5 widths after its start.
        assertThat(resetAfterAt(limiter, t0 + 4_500 * MS)).isEqualTo(500 * MS);
        assertThat(resetAfterAt(limiter, t0 + 2_500 * MS)).isEqualTo(2_500 * MS);
        assertThat(resetAfterAt(limiter, t0 + 5_000 * MS)).isZero();
    }

    @Test
    void aSlidingLogGrantExactlyOnePeriodOldHasLeftTheWindow() {
        long t0 = ticker.read();
        RateLimiter limiter = RateLimiter.of("log", RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.SLIDING_LOG)
                .rate(3, Duration.ofSeconds(1)).ticker(ticker).build());
        assertThat(limiter.tryAcquire(1, t0)).isTrue();
        assertThat(limiter.tryAcquire(2, t0 + 400 * MS)).isTrue();
        RateLimitDecision d = new RateLimitDecision();
        limiter.peek(t0 + 1_000 * MS - 1, d); // the window is (now − 1 s, now]: the first grant is still in it
        assertThat(new long[] {d.remaining(), d.resetAfterNanos()}).containsExactly(0, 400 * MS + 1);
        limiter.peek(t0 + 1_000 * MS, d); // exactly one period old: gone
        assertThat(new long[] {d.remaining(), d.resetAfterNanos()}).containsExactly(1, 400 * MS);
        limiter.peek(t0 + 1_400 * MS, d);
        assertThat(new long[] {d.remaining(), d.resetAfterNanos()}).containsExactly(3, 0);
    }

    @Test
    void aTokenBucketRateChangeCarriesWholeTokensAndTheNextOneComesOneIntervalLater() {
        long t0 = ticker.read();
        RateLimiter limiter = RateLimiter.of("carry", RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.TOKEN_BUCKET)
                .rate(10, Duration.ofSeconds(1)).burst(5).ticker(ticker).build()); // a token every 100 ms
        assertThat(limiter.tryAcquire(3, t0)).isTrue();
        ticker.advance(Duration.ofMillis(50));
        limiter.setRate(10, Duration.ofSeconds(1)); // 2 whole tokens held; the next one 100 ms after the change
        long now = ticker.read();
        assertThat(limiter.tryAcquire(2, now)).isTrue();
        RateLimitDecision d = new RateLimitDecision();
        assertThat(limiter.tryAcquire(1, now, d)).isFalse();
        assertThat(d.retryAfterNanos()).isEqualTo(100 * MS);
        assertThat(limiter.tryAcquire(1, now + 100 * MS - 1)).isFalse();
        assertThat(limiter.tryAcquire(1, now + 100 * MS)).isTrue();
    }

    @Test
    void aCountingCurveBucketChangedWhileFullKeepsProducingFromTheChange() {
        long t0 = ticker.read();
        RateLimiter limiter = RateLimiter.of("curve", RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.TOKEN_BUCKET)
                .rate(3, Duration.ofSeconds(1)).burst(3).ticker(ticker).build()); // 1 s / 3 is not whole: the counting curve
        limiter.setRate(3, Duration.ofSeconds(1)); // full and unused: the carried state equals the old one
        assertThat(limiter.tryAcquire(3, t0)).isTrue();
        RateLimitDecision d = new RateLimitDecision();
        assertThat(limiter.tryAcquire(1, t0, d)).isFalse();
        assertThat(d.retryAfterNanos()).isEqualTo(333_333_334L); // ceil(1 s / 3)
        assertThat(limiter.tryAcquire(1, t0 + 333_333_333L)).isFalse();
        assertThat(limiter.tryAcquire(1, t0 + 333_333_334L)).isTrue();
    }

    @Test
    void aWholeIntervalBucketChangedAtItsCreationInstantStaysFull() {
        long t0 = ticker.read();
        RateLimiter limiter = RateLimiter.of("instant", RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.TOKEN_BUCKET)
                .rate(10, Duration.ofSeconds(1)).burst(5).ticker(ticker).build());
        limiter.setRate(10, Duration.ofSeconds(1)); // the carried state equals the old one: shifted 1 ns earlier
        RateLimitDecision d = new RateLimitDecision();
        assertThat(limiter.tryAcquire(5, t0, d)).isTrue();
        assertThat(d.resetAfterNanos()).isEqualTo(500 * MS);
    }

    @Test
    void aFixedWindowTellsALateReadingFromAnIdleGapByExactlyOneMinuteOfWindows() {
        long t0 = ticker.read();
        RateLimiter limiter = RateLimiter.of("lag", RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.FIXED_WINDOW)
                .rate(2, Duration.ofSeconds(1)).ticker(ticker).build()); // lag: 60 windows of 1 s
        long late = t0 + 100_000 * MS; // window 100
        assertThat(limiter.tryAcquire(2, late)).isTrue();
        // 60 windows behind: a late reading, counted in the full window 100.
        assertThat(limiter.tryAcquire(1, late - 60_000 * MS)).isFalse();
        // 61 windows behind: read as the wrapped index of a long idle gap, a fresh window.
        assertThat(limiter.tryAcquire(1, late - 61_000 * MS)).isTrue();
    }

    @Test
    void aSubWindowCounterTellsALateReadingFromAnIdleGapByExactlyOneMinuteOfBuckets() {
        long t0 = ticker.read();
        RateLimiter limiter = RateLimiter.of("lag", RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.SLIDING_WINDOW_COUNTER)
                .rate(2, Duration.ofSeconds(4)).buckets(4).ticker(ticker).build()); // buckets of 1 s, lag 60
        long late = t0 + 100_000 * MS; // bucket 100
        assertThat(limiter.tryAcquire(2, late)).isTrue();
        assertThat(limiter.tryAcquire(1, late - 60_000 * MS)).isFalse();
        assertThat(limiter.tryAcquire(1, late - 61_000 * MS)).isTrue();
    }

    @Test
    void aReadingFarBehindIsAnIdleGapAndAShortWindowsLagIsStillOneMinute() {
        long t0 = ticker.read();
        RateLimiter second = RateLimiter.of("far", RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.FIXED_WINDOW)
                .rate(2, Duration.ofSeconds(1)).ticker(ticker).build());
        long now = t0 + (1L << 26) * 1_000 * MS; // window 2^26
        assertThat(second.tryAcquire(2, now)).isTrue();
        // 2^25 windows (about a year) behind: far past the lag, the wrapped index of an idle gap.
        assertThat(second.tryAcquire(1, now - (1L << 25) * 1_000 * MS)).isTrue();

        RateLimiter tenMicros = RateLimiter.of("short", RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.FIXED_WINDOW)
                .rate(2, Duration.ofNanos(10_000)).ticker(ticker).build()); // lag: 6,000,000 windows
        long later = t0 + 10_000_000L * 10_000; // window 10^7
        assertThat(tenMicros.tryAcquire(2, later)).isTrue();
        // 5,000,000 windows (50 s) behind is still a late reading, counted in the full window.
        assertThat(tenMicros.tryAcquire(1, later - 5_000_000L * 10_000)).isFalse();
        // 6,000,001 windows behind is an idle gap.
        assertThat(tenMicros.tryAcquire(1, later - 6_000_001L * 10_000)).isTrue();
    }
}
