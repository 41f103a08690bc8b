package dev.levee.loadshed;

/**
 * What a shedder decided for one request, with its reason: a constant, so deciding allocates
 * nothing. {@link #reason()} is the word used as the {@code reason} metric tag, the
 * {@link dev.levee.core.ShedException#reason()} and the {@code X-Shed-Reason} header.
 */
public enum ShedDecision {
    /** Admit the request. */
    ADMITTED("admitted", false),
    /** Concurrency is at the limit but the queue has room: wait for a slot (seed 002). */
    QUEUED("queued", false),
    /** Concurrency is at the limit and no waiting was possible ({@code tryAcquire}). */
    CONCURRENCY_LIMIT("concurrency_limit", true),
    /** Concurrency is at the limit and the queue is full (seed 002). */
    QUEUE_FULL("queue_full", true),
    /** Waited in the queue for its maximum time without getting a slot. */
    QUEUE_TIMEOUT("queue_timeout", true),
    /** CoDel: the standing queue delay stayed above target. */
    CODEL("codel", true),
    /** CPU above its threshold (seed 002: 0.85). */
    CPU_HIGH("cpu_high", true),
    /** Memory after GC above its threshold (seed 002: 0.90). */
    MEMORY_HIGH("memory_high", true),
    /** Not high priority while load is above the priority threshold. */
    LOW_PRIORITY_SHED("low_priority_shed", true),
    /** The PID controller's rejection probability. */
    PID("pid", true),
    /** Too little time left on the request's deadline (seed 002: under 100 ms), or it passed. */
    DEADLINE("deadline", true),
    /** The caller reports its own load above 0.9 and the request is of low priority (seed 002). */
    UPSTREAM_LOAD("upstream_load", true);

    private final String reason;
    private final boolean shed;

    ShedDecision(String reason, boolean shed) {
        this.reason = reason;
        this.shed = shed;
    }

    /** @return the reason word, e.g. {@code cpu_high} */
    public String reason() {
        return reason;
    }

    /** @return whether the request is refused */
    public boolean isShed() {
        return shed;
    }

    /**
     * The seed's detailed form, {@code <reason>:<value>} with two decimals (e.g. {@code cpu_high:0.93}),
     * for logs and response bodies. Allocates; call it only on the rejecting path.
     *
     * @param value the reading that decided
     * @return the detail
     */
    public String detail(double value) {
        return reason + ':' + String.format(java.util.Locale.ROOT, "%.2f", value);
    }
}
