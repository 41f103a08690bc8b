package dev.levee.core;

/**
 * A function that may throw a checked exception of type {@code E}.
 *
 * @param <A> the argument type
 * @param <R> the result type
 * @param <E> the checked exception the function may throw
 */
@FunctionalInterface
public interface CheckedFunction<A, R, E extends Throwable> {
    /**
     * Applies the function.
     *
     * @param argument the argument
     * @return the result
     * @throws E whatever the function throws
     */
    R apply(A argument) throws E;
}
