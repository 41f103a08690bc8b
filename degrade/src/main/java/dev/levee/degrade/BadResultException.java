package dev.levee.degrade;

import org.jspecify.annotations.Nullable;

/**
 * Stands for a returned value that the {@link dev.levee.core.Classifier} counted as a failure, so a
 * fallback receives one kind of cause whether the primary threw or returned something bad. Never
 * thrown to the caller: when every fallback tier fails after a bad result, the caller gets the
 * original result back.
 *
 * <p>Stackless: it is created on a failure path that may run in floods.
 */
public final class BadResultException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient @Nullable Object result;

    /**
     * @param policyName the fallback's name
     * @param result the value classified as a failure
     */
    public BadResultException(String policyName, @Nullable Object result) {
        super("Fallback '" + policyName + "': the call returned a value classified as a failure: " + result,
                null, true, false);
        this.result = result;
    }

    /**
     * The value the primary call returned.
     *
     * @return the result, possibly null
     */
    public @Nullable Object result() {
        return result;
    }
}
