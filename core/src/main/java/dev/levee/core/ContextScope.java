package dev.levee.core;

/**
 * A scope during which some context (a current {@link Deadline}, a restored {@link ContextSnapshot})
 * is in effect on the current thread. Closing it restores what was there before. Use with
 * try-with-resources; closing twice is harmless.
 */
@FunctionalInterface
public interface ContextScope extends AutoCloseable {
    /** Restores the previous context. Never throws a checked exception. */
    @Override
    void close();
}
