package dev.levee.core;

/**
 * A call that returns a value and may throw checked exceptions of two unrelated types, such as
 * {@code HttpClient.send} ({@code IOException} and {@code InterruptedException}) or
 * {@code Future.get} ({@code ExecutionException} and {@code InterruptedException}).
 *
 * <p>Run it through {@link Policy#throwing(Class, Class)}: the two classes fix {@code E1} and
 * {@code E2}, so each exception comes out of {@code execute} with its own type. (Java infers a single
 * type for every thrown type variable of a lambda, the least common supertype of what it throws, so
 * {@link Policy#execute(CheckedSupplier)} on such a call throws {@code Exception}.)
 *
 * @param <T> the result type
 * @param <E1> the first checked exception the call may throw
 * @param <E2> the second checked exception the call may throw
 */
@FunctionalInterface
public interface CheckedSupplier2<T, E1 extends Throwable, E2 extends Throwable> {
    /**
     * Runs the call.
     *
     * @return the call's result
     * @throws E1 whatever the call throws of the first type
     * @throws E2 whatever the call throws of the second type
     */
    T get() throws E1, E2;
}
