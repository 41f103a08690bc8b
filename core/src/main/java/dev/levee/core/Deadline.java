package dev.levee.core;

import dev.levee.core.internal.Nanos;
import dev.levee.core.internal.StackedScope;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * An absolute point in time on a {@link Ticker} by which work must be done.
 *
 * <p><b>Model.</b> A deadline is an instant, not a duration: handing it down a call tree keeps the
 * whole tree within the caller's limit, however long each step takes. {@link #reserve(Duration)}
 * gives a callee a shorter deadline so the caller keeps time to handle the answer, and
 * {@link #earlierOf(Deadline)} combines two limits.
 *
 * <p><b>The current deadline.</b> A deadline can be attached to the current thread for a scope:
 * <pre>{@code
 * try (ContextScope scope = Deadline.after(Duration.ofSeconds(2)).attach()) {
 *     handle(request);   // every waiting or retrying Levee policy in here respects it
 * }
 * }</pre>
 * Nested scopes keep the earlier deadline (an inner scope can shorten the limit, never extend it)
 * and closing a scope restores what was current before. {@link ContextSnapshot} carries the current
 * deadline to {@code Executor} tasks and {@code CompletionStage} continuations.
 *
 * <p><b>Arithmetic</b> saturates: a deadline very far away is clamped, never overflows into the past.
 * Two deadlines on the same ticker compare by instant; on different tickers, by remaining time.
 *
 * <p>Immutable and thread-safe.
 */
public final class Deadline implements Comparable<Deadline> {
    /** The innermost scope opened on this thread; its chain of parents is the thread's deadline stack. */
    private static final ThreadLocal<DeadlineScope> CURRENT = new ThreadLocal<>();

    private final Ticker ticker;
    private final long instantNanos;

    private Deadline(Ticker ticker, long instantNanos) {
        this.ticker = ticker;
        this.instantNanos = instantNanos;
    }

    /**
     * A deadline {@code timeout} from now on the system ticker.
     *
     * @param timeout time from now; negative or zero gives an already-expired deadline
     * @return the deadline
     */
    public static Deadline after(Duration timeout) {
        return after(timeout, Ticker.system());
    }

    /**
     * A deadline {@code timeout} from now on {@code ticker}.
     *
     * @param timeout time from now; negative or zero gives an already-expired deadline
     * @param ticker the time source
     * @return the deadline
     */
    public static Deadline after(Duration timeout, Ticker ticker) {
        Objects.requireNonNull(timeout, "timeout");
        return afterNanos(saturatedNanos(timeout), ticker);
    }

    /**
     * A deadline {@code timeoutNanos} from now on {@code ticker}.
     *
     * @param timeoutNanos time from now in nanoseconds
     * @param ticker the time source
     * @return the deadline
     */
    public static Deadline afterNanos(long timeoutNanos, Ticker ticker) {
        Objects.requireNonNull(ticker, "ticker");
        return new Deadline(ticker, Nanos.add(ticker.read(), timeoutNanos));
    }

    /**
     * A deadline at an instant of {@code ticker}.
     *
     * @param instantNanos a reading of {@code ticker}
     * @param ticker the time source
     * @return the deadline
     */
    public static Deadline at(long instantNanos, Ticker ticker) {
        return new Deadline(Objects.requireNonNull(ticker, "ticker"), instantNanos);
    }

    /**
     * The deadline attached to the current thread, if any.
     *
     * @return the current deadline
     */
    public static Optional<Deadline> current() {
        return Optional.ofNullable(currentOrNull());
    }

    /**
     * The deadline attached to the current thread, or null: the allocation-free form for hot paths.
     *
     * @return the current deadline or null
     */
    public static @Nullable Deadline currentOrNull() {
        DeadlineScope top = CURRENT.get();
        if (top == null) {
            return null;
        }
        // Fast path: no scope of the chain was closed out of order or from another thread.
        for (DeadlineScope s = top; s != null; s = s.parent()) {
            if (s.isClosed()) {
                return recompute(top);
            }
            if (s.exact) {
                break;
            }
        }
        return top.effective;
    }

    /**
     * The current deadline when a scope of the chain was closed out of turn: the earlier of the open
     * scopes' own deadlines, down to the first open exact (restored) one. Drops closed scopes from the
     * top of the chain while at it, so a misused scope is not visited again.
     */
    private static @Nullable Deadline recompute(DeadlineScope top) {
        DeadlineScope open = StackedScope.firstOpen(top);
        if (open != top) {
            CURRENT.set(open);
        }
        @Nullable Deadline result = null;
        for (DeadlineScope s = open; s != null; s = s.parent()) {
            if (s.isClosed()) {
                continue;
            }
            result = earliest(result, s.own);
            if (s.exact) {
                break;
            }
        }
        return result;
    }

    /**
     * Attaches this deadline to the current thread until the returned scope is closed. If a deadline
     * is already current, the earlier of the two becomes current. Close the scope on the same thread,
     * in reverse order of attaching (try-with-resources does both).
     *
     * @return the scope; closing restores the previous current deadline
     */
    public ContextScope attach() {
        Deadline previous = currentOrNull();
        Deadline effective = previous == null ? this : previous.earlierOf(this);
        DeadlineScope scope = new DeadlineScope(CURRENT.get(), this, effective, false);
        CURRENT.set(scope);
        return scope;
    }

    /**
     * Sets the current deadline exactly (not the earlier-of), for restoring a captured context.
     *
     * @param deadline the deadline to make current, or null for none
     * @return a scope that restores the previous value
     */
    static ContextScope restore(@Nullable Deadline deadline) {
        DeadlineScope scope = new DeadlineScope(CURRENT.get(), deadline, deadline, true);
        CURRENT.set(scope);
        return scope;
    }

    /**
     * The ticker this deadline is measured on.
     *
     * @return the ticker
     */
    public Ticker ticker() {
        return ticker;
    }

    /**
     * The instant, as a reading of {@link #ticker()}.
     *
     * @return the instant in nanoseconds
     */
    public long instantNanos() {
        return instantNanos;
    }

    /**
     * Time left, in nanoseconds; zero or negative once expired.
     *
     * @return {@code instant - now}, saturated
     */
    public long remainingNanos() {
        return remainingNanos(ticker.read());
    }

    /**
     * Time left at a given reading of {@link #ticker()}, for callers that already read the clock.
     *
     * @param nowNanos a reading of this deadline's ticker
     * @return {@code instant - now}, saturated
     */
    public long remainingNanos(long nowNanos) {
        return Nanos.subtract(instantNanos, nowNanos);
    }

    /**
     * Time left; {@link Duration#ZERO} once expired.
     *
     * @return the remaining time, never negative
     */
    public Duration remaining() {
        return Duration.ofNanos(Math.max(0L, remainingNanos()));
    }

    /**
     * Whether the deadline has passed.
     *
     * @return true if no time remains
     */
    public boolean isExpired() {
        return remainingNanos() <= 0;
    }

    /**
     * A shorter deadline that keeps {@code localWork} for the caller: {@code this - localWork}.
     *
     * @param localWork the time to reserve; not negative
     * @return the shorter deadline
     * @throws IllegalArgumentException if {@code localWork} is negative
     */
    public Deadline reserve(Duration localWork) {
        Objects.requireNonNull(localWork, "localWork");
        if (localWork.isNegative()) {
            throw new IllegalArgumentException("Deadline: reserve must be >= 0 but was " + localWork);
        }
        return new Deadline(ticker, Nanos.subtract(instantNanos, saturatedNanos(localWork)));
    }

    /**
     * The earlier of this deadline and {@code other}; {@code this} if {@code other} is null.
     *
     * @param other another deadline, or null
     * @return the earlier one
     */
    public Deadline earlierOf(@Nullable Deadline other) {
        if (other == null) {
            return this;
        }
        return compareTo(other) <= 0 ? this : other;
    }

    /**
     * The earlier of two possibly-null deadlines.
     *
     * @param a a deadline or null
     * @param b a deadline or null
     * @return the earlier one, or null if both are null
     */
    public static @Nullable Deadline earliest(@Nullable Deadline a, @Nullable Deadline b) {
        return a == null ? b : a.earlierOf(b);
    }

    @Override
    public int compareTo(Deadline other) {
        if (ticker == other.ticker) {
            return Long.compare(Nanos.subtract(instantNanos, other.instantNanos), 0L);
        }
        return Long.compare(remainingNanos(), other.remainingNanos());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Deadline
                && ((Deadline) o).ticker == ticker
                && ((Deadline) o).instantNanos == instantNanos;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(instantNanos) * 31 + System.identityHashCode(ticker);
    }

    @Override
    public String toString() {
        return "Deadline[remaining=" + remainingNanos() + "ns]";
    }

    /**
     * Converts a duration to nanoseconds, clamping instead of overflowing.
     *
     * @param d a duration
     * @return its length in nanoseconds, within {@code [Long.MIN_VALUE, Long.MAX_VALUE]}
     */
    public static long saturatedNanos(Duration d) {
        return Nanos.of(d);
    }

    /**
     * One attached (or restored) deadline on a thread's stack. Closing it in turn, on its thread, makes
     * its parent current again. Misuse is reported with an {@link IllegalStateException} and never
     * leaves a stale deadline behind:
     * <ul>
     *   <li>closed out of order (an inner scope is still open): this scope stops applying at once; the
     *       inner scopes keep their own deadlines; closing them later restores correctly;</li>
     *   <li>closed on another thread: this scope is marked closed, and the owner thread stops seeing
     *       its deadline at its next lookup (a thread-local cannot be changed from outside).</li>
     * </ul>
     */
    private static final class DeadlineScope extends StackedScope<DeadlineScope> {
        /** The deadline this scope asked for: attached, or restored exactly (null for none). */
        final @Nullable Deadline own;
        /** What became current when it opened: {@code own}, or the earlier of it and the parent's. */
        final @Nullable Deadline effective;
        /** Restored exactly: the scopes below do not apply while this one is open. */
        final boolean exact;

        DeadlineScope(@Nullable DeadlineScope parent, @Nullable Deadline own, @Nullable Deadline effective, boolean exact) {
            super(parent);
            this.own = own;
            this.effective = effective;
            this.exact = exact;
        }

        @Override
        protected ThreadLocal<DeadlineScope> stack() {
            return CURRENT;
        }

        @Override
        protected String kind() {
            return "Deadline";
        }

        @Override
        public String toString() {
            return "DeadlineScope[" + own + "]";
        }
    }
}
