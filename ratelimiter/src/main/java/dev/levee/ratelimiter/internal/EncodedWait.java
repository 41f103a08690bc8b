package dev.levee.ratelimiter.internal;

/**
 * The one encoding of a decision's outcome in a {@code long}, shared by every algorithm's decision core
 * and by {@code reserve}: a grant is its wait ({@code >= 0}, 0 for "now"), a refusal is
 * {@code ~retryAfterNanos} (bitwise complement, always negative). No allocation, one branch to read.
 */
final class EncodedWait {
    private EncodedWait() {}

    /**
     * @param waitNanos how long the caller must wait before starting, at least 0
     * @return the grant's code
     */
    static long granted(long waitNanos) {
        return waitNanos;
    }

    /**
     * @param retryAfterNanos how long until the permits could be granted, at least 0
     * @return the refusal's code
     */
    static long refused(long retryAfterNanos) {
        return ~retryAfterNanos;
    }

    /**
     * @param code a decision's code
     * @return whether it granted
     */
    static boolean isGranted(long code) {
        return code >= 0;
    }

    /**
     * @param code a refusal's code
     * @return its retryAfter in nanoseconds
     */
    static long retryAfter(long code) {
        return ~code;
    }
}
