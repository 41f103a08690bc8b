package dev.levee.core.internal;

/**
 * Which stripe of a striped structure (a counter, a stack) the calling thread uses: the low bits of its
 * thread id. Not for users: may change without notice.
 *
 * <p><b>Why the id, not a hash.</b> The threads that hit a shared gate together are usually a pool's
 * workers, created one after another, so their ids are consecutive: the low bits give {@code n}
 * consecutive threads {@code n} different stripes (for {@code n} up to the stripe count), and two
 * threads never share a stripe by bad luck. A hash (the identity hash, or any mixing of the id) makes
 * two threads share one of {@code s} stripes with probability {@code 1/s}, and then every write of one
 * takes the cache line from the other for as long as both live: on a 2-core machine with 4 stripes,
 * one run in four. Reading the id is one field load; the identity hash may also have to be computed
 * and installed in the thread's header on first use.
 *
 * <p>A thread keeps its stripe for its whole life, which lock-free structures rely on (a timer wheel
 * pops a timer only off the stripe its arming thread pushed it on).
 */
public final class ThreadStripe {
    private ThreadStripe() {}

    /**
     * The calling thread's stripe.
     *
     * @param mask the number of stripes minus one; the number of stripes must be a power of two
     * @return {@code threadId & mask}, in {@code [0, mask]}
     */
    @SuppressWarnings("deprecation") // Thread.getId() is deprecated from JDK 19 for threadId(), which 17 lacks
    public static int of(int mask) {
        return (int) Thread.currentThread().getId() & mask;
    }
}
