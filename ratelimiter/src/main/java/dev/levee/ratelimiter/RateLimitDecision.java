package dev.levee.ratelimiter;

/**
 * The outcome of one rate-limit decision with everything an HTTP 429 response needs: whether the
 * permits were granted, how many remain, when to retry and when the limiter is fully replenished.
 *
 * <p><b>Mutable and reusable</b>, so the decision form allocates nothing: a request handler keeps one
 * per thread (or per request object) and passes it to
 * {@link RateLimiter#tryAcquire(int, long, RateLimitDecision)}, which overwrites every field.
 * {@link RateLimiter#decide(int)} is the convenient form that allocates a new one. Not thread-safe:
 * one decision belongs to one thread at a time.
 *
 * <p>Times are nanoseconds of the limiter's ticker, relative to the decision: {@code retryAfter} is
 * zero when granted; {@code resetAfter} is how long until the limiter would grant its full burst
 * again if nothing else arrived.
 */
public final class RateLimitDecision {
    private boolean allowed;
    private long limit;
    private long remaining;
    private long balance;
    private long retryAfterNanos;
    private long resetAfterNanos;

    /** An empty decision (not allowed, all zero), to be filled by a limiter. */
    public RateLimitDecision() {}

    /**
     * Overwrites every field. For {@link RateLimiter} implementations, including remote ones.
     *
     * @param allowed whether the permits were granted
     * @param limit the quota the limiter enforces per period (for {@code RateLimit-Policy})
     * @param remaining permits still available at once after this decision; a negative value is a debt
     *     (permits booked ahead by waiting callers), kept in {@link #balance()} and shown as 0 by
     *     {@link #remaining()}
     * @param retryAfterNanos when refused, how long until the permits could be granted; 0 if granted
     * @param resetAfterNanos how long until the limiter is fully replenished
     * @return this decision
     */
    public RateLimitDecision set(
            boolean allowed, long limit, long remaining, long retryAfterNanos, long resetAfterNanos) {
        this.allowed = allowed;
        this.limit = limit;
        this.remaining = Math.max(0L, remaining);
        this.balance = remaining;
        this.retryAfterNanos = allowed ? 0L : Math.max(0L, retryAfterNanos);
        this.resetAfterNanos = Math.max(0L, resetAfterNanos);
        return this;
    }

    /**
     * Whether the permits were granted.
     *
     * @return true if granted
     */
    public boolean allowed() {
        return allowed;
    }

    /**
     * The quota per period the limiter enforces.
     *
     * @return the limit
     */
    public long limit() {
        return limit;
    }

    /**
     * Permits still available at once after this decision.
     *
     * @return at least 0
     */
    public long remaining() {
        return remaining;
    }

    /**
     * The permits available at once, without clamping at 0: negative while the limiter is in debt
     * (GCRA, leaky bucket and token bucket callers that waited booked permits ahead; {@code -3} means
     * three permits are owed before anyone else is served). Equal to {@link #remaining()} otherwise.
     *
     * @return the signed balance
     */
    public long balance() {
        return balance;
    }

    /**
     * When refused: how long until the permits asked for could be granted (if nobody else takes
     * them). Zero when granted.
     *
     * @return nanoseconds, at least 0
     */
    public long retryAfterNanos() {
        return retryAfterNanos;
    }

    /**
     * How long until the limiter is fully replenished.
     *
     * @return nanoseconds, at least 0
     */
    public long resetAfterNanos() {
        return resetAfterNanos;
    }

    /**
     * {@link #retryAfterNanos()} rounded up to whole seconds, as HTTP {@code Retry-After} wants it.
     *
     * @return seconds, at least 0
     */
    public long retryAfterSeconds() {
        return ceilSeconds(retryAfterNanos);
    }

    /**
     * {@link #resetAfterNanos()} rounded up to whole seconds.
     *
     * @return seconds, at least 0
     */
    public long resetAfterSeconds() {
        return ceilSeconds(resetAfterNanos);
    }

    static long ceilSeconds(long nanos) {
        return nanos <= 0 ? 0 : (nanos - 1) / 1_000_000_000L + 1;
    }

    @Override
    public String toString() {
        return "RateLimitDecision[allowed=" + allowed + ", limit=" + limit + ", remaining=" + remaining
                + ", retryAfter=" + retryAfterNanos + "ns, resetAfter=" + resetAfterNanos + "ns]";
    }
}
