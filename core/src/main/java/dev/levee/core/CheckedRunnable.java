package dev.levee.core;

/**
 * A call that returns nothing and may throw a checked exception of type {@code E}.
 *
 * @param <E> the checked exception the call may throw
 */
@FunctionalInterface
public interface CheckedRunnable<E extends Throwable> {
    /**
     * Runs the call.
     *
     * @throws E whatever the call throws
     */
    void run() throws E;
}
