package dev.levee.core;

/**
 * A call that returns a value and may throw a checked exception of type {@code E}.
 *
 * <p>This is the shape every policy executes. Because the exception type is a type parameter,
 * {@link Policy#execute(CheckedSupplier)} declares exactly what the call declares: a call that
 * throws {@code IOException} makes {@code execute} throw {@code IOException}, and a call that
 * throws nothing checked lets the compiler infer {@code RuntimeException}, so no {@code try} is
 * needed at the call site.
 *
 * @param <T> the result type
 * @param <E> the checked exception the call may throw
 */
@FunctionalInterface
public interface CheckedSupplier<T, E extends Throwable> {
    /**
     * Runs the call.
     *
     * @return the call's result
     * @throws E whatever the call throws
     */
    T get() throws E;
}
