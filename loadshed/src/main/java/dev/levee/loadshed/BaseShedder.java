package dev.levee.loadshed;

import dev.levee.core.internal.EventListeners;
import dev.levee.core.RejectedException;
import dev.levee.core.ShedException;
import dev.levee.core.Subscription;
import dev.levee.core.Ticker;
import dev.levee.core.internal.BoundedCounter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * The bookkeeping every shedder shares: counters by reason, in-flight permits, events, the
 * rejection exception. Subclasses implement {@link #decide} and may override the admit step.
 */
abstract class BaseShedder implements Shedder {
    private static final ShedDecision[] DECISIONS = ShedDecision.values();

    final String name;
    final Ticker ticker;
    private final long retryAfterNanos;
    private final LongAdder admitted = new LongAdder();
    private final LongAdder[] shed = new LongAdder[DECISIONS.length];
    /** Permits out: never below zero, so a completion without a permit is refused, not counted. */
    final BoundedCounter inFlight = new BoundedCounter();
    final EventListeners<ShedderEvent> events = new EventListeners<>();
    /** The reason of this thread's last refusal, for {@link #rejection(long)}. */
    private final ThreadLocal<ShedDecision> lastRefusal = new ThreadLocal<>();

    BaseShedder(String name, Ticker ticker, long retryAfterNanos) {
        this.name = name;
        this.ticker = ticker;
        this.retryAfterNanos = retryAfterNanos;
        for (int i = 0; i < shed.length; i++) {
            shed[i] = new LongAdder();
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Ticker ticker() {
        return ticker;
    }

    /**
     * Decides for the current thread's priority and takes a permit when admitted.
     */
    @Override
    public boolean tryAcquire(long nowNanos) {
        ShedDecision d = decide(RequestPriority.current(), nowNanos);
        if (d == ShedDecision.ADMITTED && admit()) {
            return true;
        }
        refuse(d == ShedDecision.ADMITTED || d == ShedDecision.QUEUED ? ShedDecision.CONCURRENCY_LIMIT : d, nowNanos);
        return false;
    }

    /** Takes the permit of an admitted request; false if a bound was lost to a race. */
    boolean admit() {
        takePermit();
        admitted.increment();
        return true;
    }

    /** Counts a permit out for a shedder whose bound is elsewhere (a signal, the inner gate). */
    void takePermit() {
        // No bound of its own: RETIRED is the counter's ceiling, far above any real concurrency.
        inFlight.tryIncrement(BoundedCounter.RETIRED);
    }

    /** Counts a granted permit taken by a subclass's own admission. */
    void countAdmitted() {
        admitted.increment();
    }

    /** Counts a refusal and remembers its reason for {@link #rejection(long)}. */
    void refuse(ShedDecision d, long nowNanos) {
        shed[d.ordinal()].increment();
        lastRefusal.set(d);
        if (!events.isEmpty()) {
            events.publish(new ShedderEvent.Rejected(name, nowNanos, d));
        }
    }

    @Override
    public RejectedException rejection(long nowNanos) {
        ShedDecision d = lastRefusal.get();
        return refusalOf(d == null ? ShedDecision.CONCURRENCY_LIMIT : d);
    }

    /** The rejection for {@code reason}, for a refusal that is not the current thread's last (an asynchronous one). */
    ShedException refusalOf(ShedDecision reason) {
        return new ShedException(name, reason.reason(), getClass().getSimpleName() + " '" + name + "' shed the call: "
                + reason.reason(), retryAfterNanos, null);
    }

    /**
     * A permit came back.
     *
     * @throws IllegalStateException if no permit was out (a completion without an acquire, or a
     *     second completion); the count is left unchanged
     */
    void release() {
        if (inFlight.decrement() == BoundedCounter.NOT_HELD) {
            throw new IllegalStateException(getClass().getSimpleName() + " '" + name + "': a permit was returned "
                    + "that was never acquired or was already returned (each acquire takes exactly one completion); "
                    + "the in-flight count was left unchanged");
        }
    }

    @Override
    public void onSuccess(long latencyNanos) {
        release();
    }

    @Override
    public void onFailure(long latencyNanos, Throwable error) {
        release();
    }

    @Override
    public void onIgnored() {
        release();
    }

    @Override
    public long admittedCount() {
        return admitted.sum();
    }

    @Override
    public long shedCount(ShedDecision reason) {
        return shed[reason.ordinal()].sum();
    }

    @Override
    public long shedCount() {
        long sum = 0;
        for (LongAdder a : shed) {
            sum += a.sum();
        }
        return sum;
    }

    @Override
    public int inFlight() {
        return inFlight.get();
    }

    @Override
    public double shedRate() {
        long s = shedCount();
        long total = s + admittedCount();
        return total == 0 ? 0.0 : s / (double) total;
    }

    @Override
    public ShedderMetrics metrics() {
        Map<String, Long> byReason = new LinkedHashMap<>();
        for (ShedDecision d : DECISIONS) {
            long c = shed[d.ordinal()].sum();
            if (c > 0) {
                byReason.merge(d.reason(), c, Long::sum);
            }
        }
        return new ShedderMetrics(name, admittedCount(), shedCount(), Map.copyOf(byReason), inFlight(), shedRate());
    }

    @Override
    public Subscription onEvent(Consumer<? super ShedderEvent> listener) {
        return events.subscribe(listener);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + name + ", inFlight=" + inFlight() + ", shed=" + shedCount() + "]";
    }
}
