package dev.levee.retry;

/**
 * Says why a {@link Retry} did not repeat a call declared {@link Idempotency#KEYED}: the call carried no
 * idempotency key, so a repeat could execute the write twice.
 *
 * <p>It is never thrown by itself: the call's own failure comes out unchanged (the same instance, of
 * its own type) and carries this exception as {@linkplain Throwable#getSuppressed() suppressed}, so the
 * reason shows wherever the failure is logged. (A failed result is returned as it is; the refusal is
 * then visible in {@link RetryEvent.RejectedWithoutKey}, {@link GiveUpReason#NO_IDEMPOTENCY_KEY} and
 * the {@code levee.retry.rejected} counter.) Stackless: the message says everything.
 */
public final class MissingIdempotencyKeyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The {@code kind} tag of {@code levee.retry.rejected} for these refusals. */
    public static final String REJECTED_KIND = "no_idempotency_key";

    /** The retry that refused. */
    private final String policyName;

    /**
     * @param policyName the retry that refused
     */
    public MissingIdempotencyKeyException(String policyName) {
        super("Retry '" + policyName + "': not retried: the call is declared KEYED but carries no idempotency key "
                + "(none was current and the key generator made none), so a repeat could execute it twice; attach "
                + "one (IdempotencyKey.of(orderId).attach()) or give the retry a key generator", null, false, false);
        this.policyName = policyName;
    }

    /** @return the name of the retry that refused */
    public String policyName() {
        return policyName;
    }
}
