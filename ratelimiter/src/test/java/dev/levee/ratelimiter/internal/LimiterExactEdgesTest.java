package dev.levee.ratelimiter.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.ManualTicker;
import dev.levee.core.RateLimitedException;
import dev.levee.core.Subscription;
import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimiter;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.ratelimiter.RateLimiterEvent;
import dev.levee.ratelimiter.internal.LimiterExactContractTest.Kind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Exact edges of the rate limiter's decision cores that PIT showed unpinned (issue 19): the reset and
 * remaining figures of a drained limiter, a request larger than the limiter, warm-up at its midpoint
 * and end, a ticker that reads negative, giving back an interrupted booking, the adaptive interval,
 * late readings in the window algorithms, the previous window's weight, and the sub-window counter's
 * weighted retry hint. Manual ticker throughout.
 */
class LimiterExactEdgesTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final long T = 100 * MS; // 10 per second
    private static final long START = 5 * SECOND;

    private final ManualTicker ticker = new ManualTicker(START);

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private static AbstractRateLimiter limiter(RateLimiterConfig config) {
        return (AbstractRateLimiter) RateLimiter.of("edges", config);
    }

    /** How long a limiter drained at one instant takes to be whole again. */
    private static long resetOfDrained(Kind kind) {
        switch (kind) {
            case LEAKY_BUCKET:
                return T; // one queued permit
            case SLIDING_WINDOW_COUNTER:
                return 2 * SECOND; // the current window, then its weight in the next
            case SUB_WINDOW_COUNTER:
                return SECOND + SECOND / 4; // the four buckets after the one that holds them
            default:
                return SECOND;
        }
    }

    // ---------------------------------------------------------------- drained

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aDrainedLimiterReportsExactRemainingResetAndRetryAfterEverywhere(Kind kind) {
        AbstractRateLimiter l = limiter(kind.config(ticker).build());
        long now = ticker.read();
        RateLimitDecision granted = new RateLimitDecision();
        for (int i = 0; i < kind.capacity; i++) {
            assertThat(l.tryAcquire(1, now, granted)).isTrue();
        }
        RateLimitDecision refused = new RateLimitDecision();
        assertThat(l.tryAcquire(1, now, refused)).isFalse();
        long reset = resetOfDrained(kind);
        assertThat(granted.remaining()).isZero();
        assertThat(granted.resetAfterNanos()).isEqualTo(reset);
        assertThat(refused.remaining()).isZero();
        assertThat(refused.resetAfterNanos()).isEqualTo(reset);
        RateLimitDecision peeked = l.peek(now, new RateLimitDecision());
        assertThat(peeked.resetAfterNanos()).isEqualTo(reset);
        assertThat(peeked.limit()).isEqualTo(kind.limit);
        assertThatThrownBy(() -> l.acquire(1, Duration.ZERO)).isInstanceOfSatisfying(RateLimitedException.class,
                e -> assertThat(e.retryAfterNanos()).isEqualTo(refused.retryAfterNanos()));
        assertThat(l.rejection(now).retryAfterNanos()).isEqualTo(refused.retryAfterNanos());
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, mode = EnumSource.Mode.EXCLUDE, names = "LEAKY_BUCKET") // it queues any size
    void aRequestLargerThanTheLimiterIsNeverGranted(Kind kind) {
        AbstractRateLimiter l = limiter(kind.config(ticker).build());
        int tooMany = (int) kind.capacity + 1;
        assertThatThrownBy(() -> l.acquire(tooMany, Duration.ZERO)).isInstanceOfSatisfying(RateLimitedException.class,
                e -> assertThat(e.retryAfterNanos()).isEqualTo(Long.MAX_VALUE));
        assertThat(l.reserve(tooMany, ticker.read(), Long.MAX_VALUE / 4)).isEqualTo(~Long.MAX_VALUE);
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, mode = EnumSource.Mode.EXCLUDE, names = "LEAKY_BUCKET") // it queues any size
    void aRequestLargerThanTheLimiterReportsThePermitsLeft(Kind kind) {
        AbstractRateLimiter l = limiter(kind.config(ticker).build());
        long now = ticker.read();
        assertThat(l.tryAcquire(1, now)).isTrue();
        RateLimitDecision refused = new RateLimitDecision();
        assertThat(l.tryAcquire((int) kind.capacity + 1, now, refused)).isFalse();
        RateLimitDecision peeked = l.peek(now, new RateLimitDecision());
        assertThat(refused.remaining()).as("what is left, as a peek reports it").isEqualTo(peeked.remaining())
                .isPositive();
        assertThat(refused.retryAfterNanos()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void closingAnEventSubscriptionStopsDelivery() {
        AbstractRateLimiter l = limiter(Kind.FIXED_WINDOW.config(ticker).build());
        List<RateLimiterEvent> events = new ArrayList<>();
        Subscription subscription = l.onEvent(events::add);
        l.setRate(5, Duration.ofSeconds(1));
        subscription.close();
        l.setRate(6, Duration.ofSeconds(1));
        assertThat(events).hasSize(1);
    }

    @Test
    void anExpiredDeadlineRefusesAtOnceAndSaysSo() {
        AbstractRateLimiter l = limiter(Kind.GCRA.config(ticker).burst(1).build());
        assertThat(l.tryAcquire(1, ticker.read())).isTrue();
        ManualTicker other = new ManualTicker(0);
        Deadline deadline = Deadline.afterNanos(MS, other);
        other.advance(2 * MS);
        try (ContextScope scope = deadline.attach()) {
            assertThatThrownBy(() -> l.acquire(1, Duration.ofSeconds(1)))
                    .isInstanceOfSatisfying(RateLimitedException.class, e -> {
                        assertThat(e.retryAfterNanos()).isEqualTo(T);
                        assertThat(e.getMessage()).contains("and deadline");
                    });
        }
    }

    // ---------------------------------------------------------------- GCRA specifics

    private RateLimiter warming() {
        return limiter(RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.GCRA).rate(10, Duration.ofSeconds(1))
                .burst(10).warmUp(Duration.ofSeconds(1)).coldFactor(3.0).ticker(ticker).sleeper(ticker).build());
    }

    @Test
    void warmUpRunsFromCreationAtTheColdIntervalFallingLinearly() {
        RateLimiter cold = warming(); // created at 5 s: interval 300 ms falling to 100 ms at 6 s
        RateLimitDecision d = new RateLimitDecision();
        assertThat(cold.tryAcquire(1, START, d)).isTrue();
        assertThat(cold.tryAcquire(1, START, d)).isFalse(); // one request of tolerance while warming
        assertThat(d.retryAfterNanos()).isEqualTo(3 * T);

        RateLimiter half = warming();
        long midpoint = START + SECOND / 2; // interval 100 + 200 × 0.5 = 200 ms
        assertThat(half.tryAcquire(2, midpoint)).isTrue(); // the tolerance of a 2-permit request is 2 intervals
        assertThat(half.tryAcquire(1, midpoint, d)).isFalse();
        assertThat(d.retryAfterNanos()).isEqualTo(4 * T); // next at 600 ms − one request's tolerance, 200 ms
    }

    @Test
    void warmUpEndsExactlyAfterItsDuration() {
        RateLimiter l = warming();
        long end = START + SECOND;
        assertThat(l.tryAcquire(1, end)).isTrue();
        assertThat(l.tryAcquire(1, end)).isTrue(); // warm: the whole burst tolerance again
    }

    @Test
    void aTickerThatReadsNegativeStillGrantsTheWholeBurst() {
        ManualTicker negative = new ManualTicker(-10 * SECOND); // System.nanoTime() may be negative
        RateLimiter l = limiter(Kind.GCRA.config(negative).build());
        long now = negative.read();
        for (int i = 0; i < 10; i++) {
            assertThat(l.tryAcquire(1, now)).as("permit %d", i).isTrue();
        }
        assertThat(l.tryAcquire(1, now)).isFalse();
    }

    @Test
    void theAdaptiveIntervalSetsTheRateDirectly() {
        GcraLimiter l = (GcraLimiter) limiter(Kind.GCRA.config(ticker).burst(1).build());
        l.setInterval(50 * MS);
        assertThat(l.limit()).isEqualTo(20);
        assertThat(l.periodNanos()).isEqualTo(SECOND);
        assertThat(l.tryAcquire(1, START)).isTrue();
        assertThat(l.tryAcquire(1, START + 50 * MS - 1)).isFalse();
        assertThat(l.tryAcquire(1, START + 50 * MS)).isTrue();
    }

    // ---------------------------------------------------------------- an interrupted booking

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"GCRA", "TOKEN_BUCKET", "TOKEN_BUCKET_CURVE"})
    void anInterruptedBookingGivesEveryBookedPermitBack(Kind kind) {
        AbstractRateLimiter l = limiter(kind.config(ticker).burst(3).sleeper(nanos -> {
            throw new InterruptedException("stop");
        }).build());
        long now = ticker.read();
        RateLimitDecision before = new RateLimitDecision();
        for (int i = 0; i < 3; i++) {
            assertThat(l.tryAcquire(1, now)).isTrue();
        }
        assertThat(l.tryAcquire(1, now, before)).isFalse();
        assertThatThrownBy(() -> l.acquire(2, Duration.ofSeconds(10))).isInstanceOf(RateLimitedException.class)
                .hasCauseInstanceOf(InterruptedException.class);
        assertThat(Thread.interrupted()).isTrue();
        RateLimitDecision after = new RateLimitDecision();
        assertThat(l.tryAcquire(1, now, after)).isFalse();
        assertThat(after.retryAfterNanos()).isEqualTo(before.retryAfterNanos());
    }

    @Test
    void anInterruptedWindowWaitRestoresTheFlag() {
        AbstractRateLimiter l = limiter(Kind.FIXED_WINDOW.config(ticker).sleeper(nanos -> {
            throw new InterruptedException("stop");
        }).build());
        assertThat(l.tryAcquire(10, ticker.read())).isTrue();
        assertThatThrownBy(() -> l.acquire(1, Duration.ofSeconds(10))).isInstanceOf(RateLimitedException.class)
                .hasCauseInstanceOf(InterruptedException.class);
        assertThat(Thread.interrupted()).isTrue();
        assertThat(l.waitingCallers()).isZero();
    }

    // ---------------------------------------------------------------- window algorithms

    @Test
    void aLateReadingInAFixedWindowDecidesInTheNewerWindow() {
        RateLimiter l = limiter(RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.FIXED_WINDOW)
                .rate(2, Duration.ofSeconds(1)).ticker(ticker).sleeper(ticker).build());
        assertThat(l.tryAcquire(2, START + SECOND + SECOND / 5)).isTrue(); // window [6 s, 7 s)
        long late = START + SECOND - SECOND / 10; // 5.9 s: read before the window moved on
        RateLimitDecision d = new RateLimitDecision();
        assertThat(l.tryAcquire(1, late, d)).isFalse();
        assertThat(d.retryAfterNanos()).isEqualTo(SECOND + SECOND / 10); // until 7 s
        assertThat(d.resetAfterNanos()).isEqualTo(SECOND + SECOND / 10);
        RateLimitDecision peeked = l.peek(late, new RateLimitDecision());
        assertThat(peeked.retryAfterNanos()).isEqualTo(SECOND + SECOND / 10);
        assertThat(peeked.resetAfterNanos()).isEqualTo(SECOND + SECOND / 10);
    }

    @Test
    void theSlidingWindowCounterWeighsThePreviousWindowInEveryReading() {
        RateLimiter l = limiter(Kind.SLIDING_WINDOW_COUNTER.config(ticker).build()); // windows from 5 s
        assertThat(l.tryAcquire(10, START)).isTrue();
        long mid = START + SECOND + SECOND / 2; // 6.5 s: the previous 10 weigh floor(10 × 0.499999999) = 4
        assertThat(l.availablePermits(mid)).isEqualTo(6);
        RateLimitDecision peeked = l.peek(mid, new RateLimitDecision());
        assertThat(peeked.remaining()).isEqualTo(6);
        assertThat(peeked.resetAfterNanos()).isEqualTo(SECOND / 2); // only the previous window is left
        assertThat(l.availablePermits(START + 2 * SECOND + SECOND / 2)).isEqualTo(10); // two windows on: nothing left

        assertThat(l.tryAcquire(1, mid)).isTrue(); // the state now holds prev 10, curr 1 at window [6 s, 7 s)
        long later = mid + SECOND / 10; // 6.6 s: weight floor(10 × 0.399999999) = 3
        assertThat(l.availablePermits(later)).isEqualTo(6);
        RateLimitDecision again = l.peek(later, new RateLimitDecision());
        assertThat(again.resetAfterNanos()).isEqualTo(SECOND + 4 * SECOND / 10); // the current window's end + 1 window
        long late = START + 8 * SECOND / 10; // 5.8 s, a late reading: counts at the start of [6 s, 7 s)
        assertThat(l.availablePermits(late)).isEqualTo(0); // 10 − 1 − floor(10 × 0.999999999)
        RateLimitDecision refused = new RateLimitDecision();
        assertThat(l.tryAcquire(1, late, refused)).isFalse();
        assertThat(refused.resetAfterNanos()).isEqualTo(2 * SECOND + 2 * SECOND / 10);
    }

    @Test
    void theSubWindowCounterHintsTheInstantTheOldestBucketsWeightAllowsARequest() {
        RateLimiter l = limiter(Kind.SUB_WINDOW_COUNTER.config(ticker).build()); // buckets of 250 ms from 5 s
        assertThat(l.tryAcquire(8, START)).isTrue(); // bucket 0
        long b4 = START + SECOND; // bucket 4: bucket 0 is the oldest, weighing floor(8 × 249999999/250000000) = 7
        assertThat(l.tryAcquire(2, b4)).isTrue();
        RateLimitDecision d = new RateLimitDecision();
        assertThat(l.tryAcquire(2, b4, d)).isFalse(); // room 10 − 2 − 2 = 6 < 7
        // floor(8 × (w − e − 1) / w) <= 6 first holds at e = w − ceil(7w / 8) = 31.25 ms.
        assertThat(d.retryAfterNanos()).isEqualTo(31_250_000L);
        assertThat(d.remaining()).isEqualTo(1);
        assertThat(l.tryAcquire(2, b4 + 31_250_000L - 1)).isFalse();
        assertThat(l.tryAcquire(2, b4 + 31_250_000L)).isTrue();
    }

    // ---------------------------------------------------------------- third-session additions after the last run

    @Test
    void aRateChangeAtTheInstantTheLimiterFallsIdleKeepsTheWholeBurst() {
        RateLimiter l = limiter(Kind.GCRA.config(ticker).build());
        assertThat(l.tryAcquire(1, START)).isTrue(); // idle again at 5.1 s
        ticker.advance(T);
        l.setRate(5, Duration.ofSeconds(1));
        assertThat(l.availablePermits(ticker.read())).isEqualTo(10);
    }

    @Test
    void aLeakyBucketCountsItsQueueInPermitsAndTakesAnySizeAtOnceWhenEmpty() {
        RateLimiter l = limiter(Kind.LEAKY_BUCKET.config(ticker).build());
        assertThat(l.tryAcquire(2, START)).isTrue(); // an empty queue takes any size: due now, ends at 5.2 s
        assertThat(l.reserve(1, START, SECOND)).isEqualTo(2 * T); // queued: ends at 5.3 s
        assertThat(l.peek(START, new RateLimitDecision()).balance()).isEqualTo(-3);
        assertThat(l.peek(START + T / 2, new RateLimitDecision()).balance()).isEqualTo(-3); // 2.5 intervals: 3 queued
        assertThat(l.peek(START + T, new RateLimitDecision()).balance()).isEqualTo(-2);
        assertThat(l.availablePermits(START + 3 * T - 1)).isZero();
        assertThat(l.availablePermits(START + 3 * T)).isEqualTo(1);
        l.setRate(10, Duration.ofSeconds(1)); // the queue is kept as a time, 1 ns earlier
        RateLimitDecision d = new RateLimitDecision();
        assertThat(l.tryAcquire(1, START, d)).isFalse();
        assertThat(d.retryAfterNanos()).isEqualTo(3 * T - 1);
    }

    @Test
    void aTokenBucketAsksARequestOfItsWholeCapacityToWaitUntilFull() {
        RateLimiter l = limiter(Kind.TOKEN_BUCKET.config(ticker).build());
        assertThat(l.tryAcquire(1, START)).isTrue();
        assertThatThrownBy(() -> l.acquire(10, Duration.ZERO)).isInstanceOfSatisfying(RateLimitedException.class,
                e -> assertThat(e.retryAfterNanos()).isEqualTo(T));
    }

    @Test
    void aSlidingLogCountsARequestLargerThanItsLog() {
        AbstractRateLimiter l = limiter(Kind.SLIDING_LOG.config(ticker).build());
        LimiterStats stats = l.context().enableStats();
        assertThat(l.tryAcquire(11, START)).isFalse();
        assertThat(stats.rejections()).isEqualTo(1);
        assertThat(stats.rejected()).isEqualTo(11);
    }

    @Test
    void aLatePeekAtASlidingWindowCounterResetsWithTheNewerWindow() {
        RateLimiter l = limiter(Kind.SLIDING_WINDOW_COUNTER.config(ticker).build()); // windows from 5 s
        assertThat(l.tryAcquire(1, START + SECOND + SECOND / 2)).isTrue(); // window [6 s, 7 s)
        long late = START + 8 * SECOND / 10; // 5.8 s
        assertThat(l.peek(late, new RateLimitDecision()).resetAfterNanos()).isEqualTo(2 * SECOND + 2 * SECOND / 10);
    }

    @Test
    void anyFourConsecutiveSubWindowBucketsHoldAtMostTheLimit() {
        RateLimiter l = limiter(Kind.SUB_WINDOW_COUNTER.config(ticker).build()); // buckets of 250 ms from 5 s
        long w = SECOND / 4;
        assertThat(l.tryAcquire(3, START)).isTrue(); // bucket 0
        assertThat(l.tryAcquire(3, START + w)).isTrue(); // bucket 1
        assertThat(l.tryAcquire(3, START + 2 * w)).isTrue(); // bucket 2
        assertThat(l.tryAcquire(1, START + 3 * w)).isTrue(); // bucket 3: 10 in the window
        assertThat(l.tryAcquire(1, START + 3 * w)).isFalse();
        // Bucket 4: buckets 1-3 hold 7, bucket 0 weighs floor(3 × 249999999/250000000) = 2.
        assertThat(l.availablePermits(START + 4 * w)).isEqualTo(1);
        assertThat(l.tryAcquire(2, START + 4 * w)).isFalse();
        assertThat(l.tryAcquire(1, START + 4 * w)).isTrue();
    }

    @Test
    void theSubWindowCounterHintsExactlyWhenTheRoomIsTakenByTheOldestBucketAlone() {
        RateLimiter l = limiter(Kind.SUB_WINDOW_COUNTER.config(ticker).build());
        long w = SECOND / 4;
        assertThat(l.tryAcquire(2, START)).isTrue(); // bucket 0
        assertThat(l.tryAcquire(8, START + w)).isTrue(); // bucket 1
        RateLimitDecision d = new RateLimitDecision();
        // Bucket 4: full part 8, a request of 2 leaves room 0, bucket 0 weighs 1 until e = w − ceil(w / 2).
        assertThat(l.tryAcquire(2, START + 4 * w, d)).isFalse();
        assertThat(d.retryAfterNanos()).isEqualTo(w / 2);
        assertThat(l.tryAcquire(2, START + 4 * w + w / 2)).isTrue();

        RateLimiter whole = limiter(Kind.SUB_WINDOW_COUNTER.config(ticker).build());
        long now = ticker.read();
        assertThat(whole.tryAcquire(1, now)).isTrue();
        assertThat(whole.tryAcquire(10, now, d)).isFalse(); // the whole limit: the next bucket boundary, a hint
        assertThat(d.retryAfterNanos()).isEqualTo(w);
    }
}
