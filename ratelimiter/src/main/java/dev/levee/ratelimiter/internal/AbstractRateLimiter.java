package dev.levee.ratelimiter.internal;

import dev.levee.core.Deadline;
import dev.levee.core.Gate;
import dev.levee.core.KeyedRegistry;
import dev.levee.core.internal.AsyncWaitQueue;
import dev.levee.core.RateLimitedException;
import dev.levee.core.RejectedException;
import dev.levee.core.Subscription;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimiter;
import dev.levee.ratelimiter.RateLimiterEvent;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * What every local algorithm shares: naming, events, and the waiting logic of {@code acquire} on top
 * of the algorithm's {@link #reserve}.
 *
 * <p><b>Waiting.</b> The wait budget is {@code min(maxWait, time left on the current Deadline)}. A
 * reserving algorithm is asked once: it either grants with a wait that fits the budget (the caller
 * then sleeps exactly that long) or refuses at once. A window algorithm is asked, and while the
 * permits are due within the budget the caller sleeps until they are due and asks again; it never
 * sleeps past the budget and refuses as soon as the next due time would exceed it.
 */
public abstract class AbstractRateLimiter extends KeyedRegistry.Entry implements RateLimiter {

    AbstractRateLimiter() {}

    /**
     * The context shared with sibling limiters. An abstract accessor, not a field, so the per-key
     * algorithms (GCRA, token bucket) can keep it in their shared parameters: a key of a keyed limiter
     * then costs one reference and its state words.
     *
     * @return the context
     */
    abstract LimiterContext ctx();

    @Override
    public final String name() {
        return ctx().name;
    }

    @Override
    public final Ticker ticker() {
        return ctx().ticker;
    }

    @Override
    public final int waitingCallers() {
        return ctx().waiting.get();
    }

    @Override
    public final Subscription onEvent(Consumer<? super RateLimiterEvent> listener) {
        return ctx().events.subscribe(listener);
    }

    /**
     * The context shared with sibling limiters (for the metrics binder).
     *
     * @return the context
     */
    public final LimiterContext context() {
        return ctx();
    }

    @Override
    public final RejectedException rejection(long nowNanos) {
        long wait = reservePeek(1, nowNanos);
        return new RateLimitedException(ctx().name, "RateLimiter '" + ctx().name + "' has no permit", wait);
    }

    /**
     * How long until {@code permits} could be granted, without taking anything.
     *
     * @param permits how many
     * @param nowNanos now
     * @return nanoseconds, 0 if available now
     */
    abstract long reservePeek(int permits, long nowNanos);

    @Override
    public final RateLimitDecision peek(long nowNanos, RateLimitDecision into) {
        long balance = balancePeek(nowNanos);
        long retryAfter = balance > 0 ? 0L : reservePeek(1, nowNanos);
        return into.set(balance > 0 && retryAfter == 0L, limit(), balance, retryAfter, resetAfterPeek(nowNanos));
    }

    /**
     * Permits available at once now, negative while in debt; nothing is taken.
     *
     * @param nowNanos now
     * @return the signed balance
     */
    long balancePeek(long nowNanos) {
        return availablePermits(nowNanos);
    }

    /**
     * How long until the limiter is fully replenished if nothing else is taken.
     *
     * @param nowNanos now
     * @return nanoseconds, at least 0
     */
    abstract long resetAfterPeek(long nowNanos);

    @Override
    public final void acquire(long nowNanos) {
        acquire(1, nowNanos, config().maxWaitNanos());
    }

    @Override
    public final void acquire(int permits, Duration maxWait) {
        long wait = Deadline.saturatedNanos(Validate.nonNegative("RateLimiter '" + ctx().name + "'", "maxWait", maxWait));
        acquire(permits, ctx().ticker.read(), wait);
    }

    @Override
    public final void acquireNanos(int permits, long maxWaitNanos) {
        if (maxWaitNanos < 0) {
            throw new IllegalArgumentException("maxWaitNanos must be >= 0 but was " + maxWaitNanos);
        }
        acquire(permits, ctx().ticker.read(), maxWaitNanos);
    }

    private void acquire(int permits, long now, long maxWaitNanos) {
        long budget = maxWaitNanos;
        Deadline deadline = Deadline.currentOrNull();
        if (deadline != null) {
            long left = deadline.ticker() == ctx().ticker ? deadline.remainingNanos(now) : deadline.remainingNanos();
            budget = Math.min(budget, Math.max(0L, left));
        }
        if (budget == 0) {
            if (!tryAcquire(permits, now)) {
                throw refused(permits, reservePeek(permits, now), deadline != null);
            }
            return;
        }
        while (true) {
            if (!reserves()) {
                // A window algorithm cannot book the future: look first (without counting a refusal),
                // sleep until the permits are due if that fits, and only then ask.
                long due = reservePeek(permits, now);
                if (due > budget) {
                    ctx().rejected(permits, due, now);
                    throw refused(permits, due, deadline != null);
                }
                if (due > 0) {
                    sleep(due, permits);
                    long later = ctx().ticker.read();
                    budget = Math.max(0L, budget - (later - now));
                    now = later;
                    continue;
                }
            }
            long r = reserve(permits, now, budget);
            if (EncodedWait.isGranted(r)) {
                InterruptedException interruption = r > 0 ? sleepBooked(r) : null;
                if (interruption != null) {
                    // The permits were booked for this caller and will never be used: give them back.
                    giveBack(permits, now);
                    throw interrupted(permits, interruption);
                }
                return;
            }
            long retryAfter = EncodedWait.retryAfter(r);
            if (reserves() || retryAfter > budget) {
                throw refused(permits, retryAfter, deadline != null);
            }
            // A window algorithm cannot reserve: sleep until the permits are due, then ask again.
            sleep(Math.max(1L, retryAfter), permits);
            long later = ctx().ticker.read();
            budget -= later - now;
            now = later;
            if (budget < 0) {
                budget = 0;
            }
        }
    }

    /**
     * The asynchronous form of {@link #acquire(long)}: the same budget ({@code maxWait} and the current
     * deadline), but the wait is scheduled on the config's {@code scheduler}, never slept on the
     * caller's thread, and the caller resumes on the config's {@code asyncExecutor}. A reserving
     * algorithm books the permit now and completes the stage when it is due; a window algorithm asks
     * again when the permits are due.
     */
    @Override
    public final CompletionStage<Void> acquireAsync(long nowNanos) {
        Deadline deadline = Deadline.currentOrNull();
        long budget = config().maxWaitNanos();
        if (deadline != null) {
            long left = deadline.ticker() == ctx().ticker ? deadline.remainingNanos(nowNanos) : deadline.remainingNanos();
            budget = Math.min(budget, Math.max(0L, left));
        }
        return acquireAsync(1, nowNanos, budget, deadline != null);
    }

    private CompletionStage<Void> acquireAsync(int permits, long now, long budget, boolean deadline) {
        if (budget == 0) {
            return tryAcquire(permits, now) ? Gate.granted()
                    : CompletableFuture.failedFuture(refused(permits, reservePeek(permits, now), deadline));
        }
        long wait;
        if (reserves()) {
            long r = reserve(permits, now, budget);
            if (r < 0) {
                return CompletableFuture.failedFuture(refused(permits, ~r, deadline));
            }
            if (r == 0) {
                return Gate.granted();
            }
            return waitAsync(r); // booked: due after r
        }
        long due = reservePeek(permits, now);
        if (due > budget) {
            ctx().rejected(permits, due, now);
            return CompletableFuture.failedFuture(refused(permits, due, deadline));
        }
        if (due == 0 && tryAcquire(permits, now)) {
            return Gate.granted();
        }
        wait = Math.max(1L, due);
        // A window algorithm cannot book: ask again when the permits are due, with what is left.
        return waitAsync(wait).thenCompose(ignored -> {
            long later = ctx().ticker.read();
            return acquireAsync(permits, later, Math.max(0L, budget - (later - now)), deadline);
        });
    }

    private CompletionStage<Void> waitAsync(long nanos) {
        ctx().waiting.incrementAndGet();
        CompletableFuture<Void> due = AsyncWaitQueue.after(config().scheduler(), config().asyncExecutor(), nanos);
        due.whenComplete((ignored, failure) -> ctx().waiting.decrementAndGet());
        return due;
    }

    private RateLimitedException refused(int permits, long retryAfter, boolean deadline) {
        return new RateLimitedException(ctx().name, "RateLimiter '" + ctx().name + "': " + permits
                + " permit(s) cannot be granted within the allowed wait" + (deadline ? " and deadline" : "")
                + "; retry after " + retryAfter + " ns", retryAfter);
    }

    private void sleep(long nanos, int permits) {
        ctx().waiting.incrementAndGet();
        try {
            ctx().sleeper.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw interrupted(permits, e);
        } finally {
            ctx().waiting.decrementAndGet();
        }
    }

    /** Sleeps out a booked wait; the interruption (flag restored) if interrupted, else null. */
    private @Nullable InterruptedException sleepBooked(long nanos) {
        ctx().waiting.incrementAndGet();
        try {
            ctx().sleeper.sleep(nanos);
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return e;
        } finally {
            ctx().waiting.decrementAndGet();
        }
    }

    private RateLimitedException interrupted(int permits, InterruptedException cause) {
        return new RateLimitedException(ctx().name, "RateLimiter '" + ctx().name + "': interrupted while waiting for "
                + permits + " permit(s)", 0L, cause);
    }

    /**
     * Returns {@code permits} booked by {@link #reserve} at {@code bookedAtNanos} and never used (the
     * waiter was interrupted), so the next caller may have them. Only reserving algorithms book the
     * future; for the others this does nothing.
     *
     * @param permits how many were booked
     * @param bookedAtNanos the reading the booking was made with
     */
    void giveBack(int permits, long bookedAtNanos) {}

    static void checkPermits(int permits) {
        if (permits < 1) {
            throw new IllegalArgumentException("permits must be >= 1 but was " + permits);
        }
    }

    final String policy() {
        return Validate.describe("RateLimiter", ctx().name);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + ctx().name + ", " + limit() + " per " + periodNanos() + "ns]";
    }
}
