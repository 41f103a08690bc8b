package dev.levee.ratelimiter.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.RateLimitedException;
import dev.levee.core.Sleeper;
import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimiter;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.ratelimiter.RateLimiterEvent;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What every local algorithm owes its users, with exact values (issue 19: PIT showed these unpinned in
 * the rate limiter's hot path): each decision is counted in the metrics and each refusal published;
 * a request for no permits is illegal; a window algorithm never books the future; a rate change
 * publishes its event and releases its lock; a waiting {@code acquire} sleeps exactly until the permit
 * is due, once, and counts no refusal when it ends in a grant; the asynchronous wait re-asks with
 * what is left of its budget. Every configuration runs on a manual ticker that is also the sleeper.
 */
class LimiterExactContractTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long START = 5 * SECOND;

    /** Each decision core: the six algorithms, the token bucket's counting curve and the sub-window counter. */
    enum Kind {
        GCRA(RateLimitAlgorithm.GCRA, 10, 1, 10),
        LEAKY_BUCKET(RateLimitAlgorithm.LEAKY_BUCKET, 10, 1, 1),
        TOKEN_BUCKET(RateLimitAlgorithm.TOKEN_BUCKET, 10, 1, 10),
        /** 3 per second: the period is not a whole number of intervals, so the bucket counts on a curve. */
        TOKEN_BUCKET_CURVE(RateLimitAlgorithm.TOKEN_BUCKET, 3, 1, 3),
        SLIDING_WINDOW_COUNTER(RateLimitAlgorithm.SLIDING_WINDOW_COUNTER, 10, 1, 10),
        SUB_WINDOW_COUNTER(RateLimitAlgorithm.SLIDING_WINDOW_COUNTER, 10, 4, 10),
        FIXED_WINDOW(RateLimitAlgorithm.FIXED_WINDOW, 10, 1, 10),
        SLIDING_LOG(RateLimitAlgorithm.SLIDING_LOG, 10, 1, 10);

        final RateLimitAlgorithm algorithm;
        final long limit;
        final int buckets;
        /** Permits granted at once to a fresh limiter. */
        final long capacity;

        Kind(RateLimitAlgorithm algorithm, long limit, int buckets, long capacity) {
            this.algorithm = algorithm;
            this.limit = limit;
            this.buckets = buckets;
            this.capacity = capacity;
        }

        boolean reserves() {
            return algorithm == RateLimitAlgorithm.GCRA || algorithm == RateLimitAlgorithm.LEAKY_BUCKET
                    || algorithm == RateLimitAlgorithm.TOKEN_BUCKET;
        }

        RateLimiterConfig.Builder config(ManualTicker ticker) {
            RateLimiterConfig.Builder b = RateLimiterConfig.builder().algorithm(algorithm)
                    .rate(limit, Duration.ofSeconds(1)).ticker(ticker).sleeper(ticker);
            if (reserves()) {
                b.burst(capacity);
            }
            if (buckets > 1) {
                b.buckets(buckets);
            }
            return b;
        }
    }

    private final ManualTicker ticker = new ManualTicker(START);

    private static AbstractRateLimiter limiter(RateLimiterConfig config) {
        return (AbstractRateLimiter) RateLimiter.of("exact", config);
    }

    /** Takes single permits at {@code now} until refused; returns the refusal's retryAfter. */
    private static long drain(RateLimiter l, long now, long expectedGrants) {
        RateLimitDecision d = new RateLimitDecision();
        long granted = 0;
        while (granted <= expectedGrants && l.tryAcquire(1, now, d)) {
            granted++;
        }
        assertThat(granted).isEqualTo(expectedGrants);
        assertThat(d.allowed()).isFalse();
        return d.retryAfterNanos();
    }

    // ---------------------------------------------------------------- decisions

    @ParameterizedTest
    @EnumSource(Kind.class)
    void everyDecisionIsCountedAndEveryRefusalPublished(Kind kind) {
        AbstractRateLimiter l = limiter(kind.config(ticker).build());
        LimiterStats stats = l.context().enableStats();
        List<RateLimiterEvent.Rejected> refused = new ArrayList<>();
        l.onEvent(e -> {
            if (e instanceof RateLimiterEvent.Rejected r) {
                refused.add(r);
            }
        });
        long now = ticker.read();
        long retryAfter = drain(l, now, kind.capacity);
        assertThat(l.tryAcquire(1, now)).isFalse();
        assertThat(l.reserve(2, now, 0L)).isNegative();

        assertThat(stats.granted()).isEqualTo(kind.capacity);
        assertThat(stats.rejections()).isEqualTo(3);
        assertThat(stats.rejected()).isEqualTo(4);
        assertThat(refused).extracting(RateLimiterEvent.Rejected::permits).containsExactly(1, 1, 2);
        assertThat(refused).extracting(RateLimiterEvent.Rejected::tickerNanos).containsOnly(now);
        assertThat(refused.get(0).retryAfterNanos()).isEqualTo(retryAfter);
        assertThat(refused.get(1).retryAfterNanos()).isEqualTo(retryAfter);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aRequestForNoPermitsIsIllegal(Kind kind) {
        RateLimiter l = limiter(kind.config(ticker).build());
        long now = ticker.read();
        assertThatThrownBy(() -> l.tryAcquire(0, now)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> l.tryAcquire(0, now, new RateLimitDecision())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> l.reserve(0, now, SECOND)).isInstanceOf(IllegalArgumentException.class);
        assertThat(l.availablePermits(now)).isEqualTo(kind.capacity);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void onlyTheReservingAlgorithmsBookTheFuture(Kind kind) {
        RateLimiter l = limiter(kind.config(ticker).build());
        long now = ticker.read();
        long retryAfter = drain(l, now, kind.capacity);
        assertThat(l.reserves()).isEqualTo(kind.reserves());
        long r = l.reserve(1, now, 10 * SECOND);
        if (kind.reserves()) {
            assertThat(r).isEqualTo(retryAfter); // booked: the caller waits exactly that long
            assertThat(l.tryAcquire(1, now + retryAfter)).isFalse(); // the booked permit is taken
        } else {
            assertThat(r).isEqualTo(~retryAfter); // refused, with the same retryAfter
            assertThat(l.tryAcquire((int) kind.capacity, now + 2 * SECOND)).isTrue(); // nothing was booked
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void peekReportsTheRetryAfterOfTheNextRefusal(Kind kind) {
        RateLimiter l = limiter(kind.config(ticker).build());
        long now = ticker.read();
        long retryAfter = drain(l, now, kind.capacity);
        RateLimitDecision peeked = l.peek(now, new RateLimitDecision());
        assertThat(peeked.allowed()).isFalse();
        assertThat(peeked.remaining()).isZero();
        assertThat(peeked.retryAfterNanos()).isEqualTo(retryAfter);
    }

    // ---------------------------------------------------------------- rate changes

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aRateChangePublishesItsEventAndReleasesItsLock(Kind kind) {
        AbstractRateLimiter l = limiter(kind.config(ticker).build());
        List<RateLimiterEvent.RateChanged> changes = new ArrayList<>();
        l.onEvent(e -> {
            if (e instanceof RateLimiterEvent.RateChanged c) {
                changes.add(c);
            }
        });
        l.setRate(kind.limit - 1, Duration.ofSeconds(1)); // (a sliding log cannot grow past its log)
        l.setRate(kind.limit, Duration.ofSeconds(2));
        assertThat(l.context().rateLock.isLocked()).isFalse();
        assertThat(changes).extracting(RateLimiterEvent.RateChanged::limit).containsExactly(kind.limit - 1, kind.limit);
        assertThat(changes).extracting(RateLimiterEvent.RateChanged::periodNanos).containsExactly(SECOND, 2 * SECOND);
        assertThat(changes).extracting(RateLimiterEvent.RateChanged::tickerNanos).containsOnly(START);
        assertThat(l.limit()).isEqualTo(kind.limit);
        assertThat(l.periodNanos()).isEqualTo(2 * SECOND);
        assertThatThrownBy(() -> l.setRate(0, Duration.ofSeconds(1))).hasMessageContaining("RateLimiter 'exact'");
    }

    @org.junit.jupiter.api.Test
    void aFixedWindowCarriesWhatItsCurrentWindowGrantedIntoANewPeriod() {
        RateLimiterConfig config = Kind.FIXED_WINDOW.config(ticker).build();
        RateLimiter inWindow = limiter(config);
        assertThat(inWindow.tryAcquire(4, START)).isTrue();
        ticker.advance(SECOND / 2);
        inWindow.setRate(10, Duration.ofSeconds(2)); // a new grid from now, 4 already granted
        assertThat(inWindow.availablePermits(ticker.read())).isEqualTo(6);

        RateLimiter afterWindow = limiter(config);
        assertThat(afterWindow.tryAcquire(4, ticker.read())).isTrue(); // window [5.5 s, 6.5 s)
        ticker.advance(SECOND + SECOND / 2); // 7 s: that window has ended
        afterWindow.setRate(10, Duration.ofSeconds(2));
        assertThat(afterWindow.availablePermits(ticker.read())).isEqualTo(10);
    }

    @org.junit.jupiter.api.Test
    void aSlidingWindowCounterCarriesWhatItsWindowStillCoversIntoANewPeriod() {
        RateLimiterConfig config = Kind.SLIDING_WINDOW_COUNTER.config(ticker).build();
        RateLimiter both = limiter(config); // windows [5 s, 6 s), [6 s, 7 s)
        assertThat(both.tryAcquire(4, START + SECOND / 5)).isTrue();
        assertThat(both.tryAcquire(2, START + SECOND + SECOND / 4)).isTrue();
        ticker.advance(SECOND + SECOND / 2); // 6.5 s: curr 2, prev 4 weighted floor(4 × 0.499999999) = 1
        both.setRate(10, Duration.ofSeconds(2));
        assertThat(both.availablePermits(ticker.read())).isEqualTo(7);

        RateLimiter previousOnly = limiter(config); // windows [6.5 s, 7.5 s), ...
        assertThat(previousOnly.tryAcquire(4, ticker.read() + SECOND / 5)).isTrue();
        ticker.advance(SECOND + SECOND / 2); // 8 s: one window later, halfway
        previousOnly.setRate(10, Duration.ofSeconds(2));
        assertThat(previousOnly.availablePermits(ticker.read())).isEqualTo(9);
    }

    @org.junit.jupiter.api.Test
    void aSubWindowCounterCarriesWhatItsWindowStillCoversIntoANewPeriod() {
        RateLimiterConfig config = Kind.SUB_WINDOW_COUNTER.config(ticker).build(); // 4 buckets of 250 ms
        RateLimiter l = limiter(config);
        assertThat(l.tryAcquire(4, START + SECOND / 10)).isTrue(); // bucket 0
        ticker.advance(SECOND + SECOND / 10); // bucket 4, 100 ms in: bucket 0 weighted floor(4 × 149999999/250000000) = 2
        assertThat(l.availablePermits(ticker.read())).isEqualTo(8);
        l.setRate(10, Duration.ofSeconds(2));
        assertThat(l.availablePermits(ticker.read())).isEqualTo(8);
        assertThat(l.periodNanos()).isEqualTo(2 * SECOND);
        assertThat(l.config()).isSameAs(config);
    }

    // ---------------------------------------------------------------- waiting

    /** A sleeper that advances the ticker and records each sleep and how many callers were waiting. */
    private final class RecordingSleeper implements Sleeper {
        final List<Long> sleeps = new ArrayList<>();
        final List<Integer> waitingDuringSleep = new ArrayList<>();
        RateLimiter limiter;

        @Override
        public void sleep(long nanos) {
            sleeps.add(nanos);
            waitingDuringSleep.add(limiter.waitingCallers());
            ticker.advance(nanos);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, mode = EnumSource.Mode.EXCLUDE, names = "SUB_WINDOW_COUNTER") // retryAfter is a hint there
    void aWaitSleepsOnceExactlyUntilThePermitIsDueAndCountsNoRefusal(Kind kind) {
        RecordingSleeper sleeper = new RecordingSleeper();
        AbstractRateLimiter l = limiter(kind.config(ticker).sleeper(sleeper).build());
        sleeper.limiter = l;
        LimiterStats stats = l.context().enableStats();
        long now = ticker.read();
        l.acquire(1, Duration.ofSeconds(1)); // available: no sleep at all
        assertThat(sleeper.sleeps).isEmpty();
        long retryAfter = drain(l, now, kind.capacity - 1);
        long refusals = stats.rejections();

        l.acquire(1, Duration.ofNanos(retryAfter)); // due exactly at the end of the wait allowed
        assertThat(sleeper.sleeps).containsExactly(retryAfter);
        assertThat(sleeper.waitingDuringSleep).containsExactly(1);
        assertThat(l.waitingCallers()).isZero();
        assertThat(ticker.read()).isEqualTo(now + retryAfter);
        assertThat(stats.rejections()).isEqualTo(refusals);
        assertThat(stats.granted()).isEqualTo(kind.capacity + 1);
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, mode = EnumSource.Mode.EXCLUDE, names = "SUB_WINDOW_COUNTER") // retryAfter is a hint there
    void aWaitOneNanosecondTooShortIsRefusedAtOnceAndCounted(Kind kind) {
        RecordingSleeper sleeper = new RecordingSleeper();
        AbstractRateLimiter l = limiter(kind.config(ticker).sleeper(sleeper).build());
        sleeper.limiter = l;
        LimiterStats stats = l.context().enableStats();
        long now = ticker.read();
        long retryAfter = drain(l, now, kind.capacity);
        long refusals = stats.rejections();
        assertThatThrownBy(() -> l.acquire(1, Duration.ofNanos(retryAfter - 1)))
                .isInstanceOfSatisfying(RateLimitedException.class, e -> {
                    assertThat(e.retryAfterNanos()).isEqualTo(retryAfter);
                    assertThat(e.getMessage()).doesNotContain("deadline");
                });
        assertThat(sleeper.sleeps).isEmpty();
        assertThat(stats.rejections()).isEqualTo(refusals + 1);
        l.acquireNanos(1, retryAfter); // zero is a valid wait too: see below
        assertThat(ticker.read()).isEqualTo(now + retryAfter);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aZeroWaitTakesAnAvailablePermitWithoutSleeping(Kind kind) {
        RecordingSleeper sleeper = new RecordingSleeper();
        AbstractRateLimiter l = limiter(kind.config(ticker).sleeper(sleeper).build());
        sleeper.limiter = l;
        long now = ticker.read();
        l.acquireNanos(1, 0L);
        assertThat(l.availablePermits(now)).isEqualTo(kind.capacity - 1);
        assertThat(sleeper.sleeps).isEmpty();
    }

    @org.junit.jupiter.api.Test
    void aSubWindowWaitSleepsBucketByBucketUntilGrantedAndNeverPastItsBudget() {
        RecordingSleeper sleeper = new RecordingSleeper();
        AbstractRateLimiter l = limiter(Kind.SUB_WINDOW_COUNTER.config(ticker).sleeper(sleeper).build());
        sleeper.limiter = l;
        LimiterStats stats = l.context().enableStats();
        long now = ticker.read();
        long hint = drain(l, now, 10); // all 10 in bucket 0 (of 250 ms): free again when it leaves, at 1 s
        assertThat(hint).isEqualTo(SECOND / 4); // the next bucket boundary, a hint
        l.acquire(1, Duration.ofSeconds(1));
        assertThat(sleeper.sleeps).containsExactly(SECOND / 4, SECOND / 4, SECOND / 4, SECOND / 4);
        assertThat(ticker.read()).isEqualTo(now + SECOND);
        assertThat(stats.rejections()).isEqualTo(1); // the drain's refusal only

        RecordingSleeper short1 = new RecordingSleeper();
        AbstractRateLimiter s = limiter(Kind.SUB_WINDOW_COUNTER.config(ticker).sleeper(short1).build());
        short1.limiter = s;
        long start = ticker.read();
        drain(s, start, 10);
        assertThatThrownBy(() -> s.acquire(1, Duration.ofNanos(SECOND - 1))).isInstanceOf(RateLimitedException.class);
        // It slept while the next boundary fitted what was left, and refused when it no longer did.
        assertThat(short1.sleeps).containsExactly(SECOND / 4, SECOND / 4, SECOND / 4);
        assertThat(ticker.read()).isEqualTo(start + 3 * SECOND / 4);
    }

    @org.junit.jupiter.api.Test
    void aDeadlineOnAnotherClockBoundsTheWaitByItsOwnReading() {
        RecordingSleeper sleeper = new RecordingSleeper();
        AbstractRateLimiter l = limiter(Kind.GCRA.config(ticker).burst(1).sleeper(sleeper).build());
        sleeper.limiter = l;
        long now = ticker.read();
        assertThat(l.tryAcquire(1, now)).isTrue(); // the next permit is due in 100 ms
        ManualTicker other = new ManualTicker(0);
        try (ContextScope scope = Deadline.afterNanos(200_000_000L, other).attach()) {
            l.acquire(1, Duration.ofSeconds(1)); // 200 ms left on the deadline's own clock: waits 100 ms
        }
        assertThat(sleeper.sleeps).containsExactly(100_000_000L);
        try (ContextScope scope = Deadline.afterNanos(50_000_000L, other).attach()) {
            assertThatThrownBy(() -> l.acquire(1, Duration.ofSeconds(1)))
                    .isInstanceOfSatisfying(RateLimitedException.class, e -> {
                        assertThat(e.retryAfterNanos()).isEqualTo(100_000_000L);
                        assertThat(e.getMessage()).contains("and deadline");
                    });
        }
    }

    // ---------------------------------------------------------------- asynchronous waiting

    private final Queue<Runnable> handedOff = new ArrayDeque<>();

    private AbstractRateLimiter asyncLimiter(Kind kind, ManualScheduler scheduler, Duration maxWait) {
        return limiter(kind.config(ticker).maxWait(maxWait).scheduler(scheduler).asyncExecutor(handedOff::add).build());
    }

    private void runHandedOff() {
        while (!handedOff.isEmpty()) {
            handedOff.poll().run();
        }
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, mode = EnumSource.Mode.EXCLUDE, names = "SUB_WINDOW_COUNTER") // retryAfter is a hint there
    void anAsyncWaitOfExactlyTheBudgetIsGrantedWhenDueAndOneLongerRefusedWithItsRetryAfter(Kind kind) {
        ManualScheduler scheduler = new ManualScheduler(ticker);
        long now = ticker.read();
        AbstractRateLimiter probe = limiter(kind.config(ticker).build());
        long retryAfter = drain(probe, now, kind.capacity);

        AbstractRateLimiter fits = asyncLimiter(kind, scheduler, Duration.ofNanos(retryAfter));
        drain(fits, now, kind.capacity);
        CompletableFuture<Void> waiting = fits.acquireAsync(now).toCompletableFuture();
        assertThat(waiting).isNotDone();
        assertThat(fits.waitingCallers()).isEqualTo(1);
        scheduler.advance(retryAfter);
        runHandedOff();
        assertThat(waiting).isCompleted();
        assertThat(fits.waitingCallers()).isZero();

        AbstractRateLimiter tooShort = asyncLimiter(kind, scheduler, Duration.ofNanos(retryAfter - 1));
        long later = ticker.read();
        drain(tooShort, later, kind.capacity);
        LimiterStats stats = tooShort.context().enableStats();
        CompletableFuture<Void> refused = tooShort.acquireAsync(later).toCompletableFuture();
        assertThat(refused).isCompletedExceptionally();
        assertThatThrownBy(refused::join).isInstanceOf(CompletionException.class)
                .cause().isInstanceOfSatisfying(RateLimitedException.class,
                        e -> assertThat(e.retryAfterNanos()).isEqualTo(retryAfter));
        assertThat(stats.rejections()).isEqualTo(1);
    }

    @org.junit.jupiter.api.Test
    void anAsyncWindowWaitThatStillFitsWaitsAgainWithWhatIsLeft() {
        ManualScheduler scheduler = new ManualScheduler(ticker);
        // One permit per 100 ms window; 250 ms of waiting allowed.
        AbstractRateLimiter l = limiter(RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.FIXED_WINDOW)
                .rate(1, Duration.ofMillis(100)).maxWait(Duration.ofMillis(250)).ticker(ticker).sleeper(ticker)
                .scheduler(scheduler).asyncExecutor(handedOff::add).build());
        long now = ticker.read();
        assertThat(l.tryAcquire(1, now)).isTrue();
        CompletableFuture<Void> waiting = l.acquireAsync(now).toCompletableFuture(); // due in 100 ms
        ticker.advance(100_000_000L);
        assertThat(l.tryAcquire(1, ticker.read())).isTrue(); // someone else takes the permit first
        scheduler.runDue();
        runHandedOff();
        assertThat(waiting).isNotDone(); // 150 ms left, the next permit 100 ms away: waits again
        scheduler.advance(100_000_000L);
        runHandedOff();
        assertThat(waiting).isCompleted();
        assertThat(ticker.read()).isEqualTo(now + 200_000_000L);
    }

    @org.junit.jupiter.api.Test
    void anAsyncWindowWaitReAsksWithWhatIsLeftOfItsBudget() {
        ManualScheduler scheduler = new ManualScheduler(ticker);
        // One permit per 100 ms window; 150 ms of waiting allowed.
        AbstractRateLimiter l = limiter(RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.FIXED_WINDOW)
                .rate(1, Duration.ofMillis(100)).maxWait(Duration.ofMillis(150)).ticker(ticker).sleeper(ticker)
                .scheduler(scheduler).asyncExecutor(handedOff::add).build());
        long now = ticker.read();
        assertThat(l.tryAcquire(1, now)).isTrue();
        CompletableFuture<Void> waiting = l.acquireAsync(now).toCompletableFuture(); // due in 100 ms
        ticker.advance(100_000_000L);
        assertThat(l.tryAcquire(1, ticker.read())).isTrue(); // someone else takes the permit first
        scheduler.runDue();
        runHandedOff();
        // 50 ms of the budget left, the next permit 100 ms away: refused, not waited for.
        assertThat(waiting).isCompletedExceptionally();
        assertThatThrownBy(waiting::join).cause().isInstanceOfSatisfying(RateLimitedException.class,
                e -> assertThat(e.retryAfterNanos()).isEqualTo(100_000_000L));
    }
}
