package dev.levee.core;

import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Runs a call under one resilience concern: a limit, a breaker, a retry, a timeout.
 *
 * <p><b>Model.</b> A policy is built once, from an immutable config, and reused for every call;
 * it is thread-safe. Policies compose with {@link Pipeline#of(Policy...)}: the first policy is the
 * outermost. There are two families behind this one interface: {@linkplain Gate gates}, which
 * decide whether a call may start and learn from how it ended, and <em>wrappers</em> (retry,
 * timeout, fallback), which change how a call runs.
 *
 * <p><b>Guarantees every implementation keeps.</b>
 * <ul>
 *   <li><em>Exception transparency:</em> what the call throws comes out of {@code execute}
 *       unchanged — the same instance, not wrapped. A policy's own refusal is a
 *       {@link RejectedException}.</li>
 *   <li>An {@link Error} thrown by the call is never swallowed.</li>
 *   <li>An interrupt is never lost: a policy that waits and is interrupted either throws
 *       {@link InterruptedException} through a call that declares it, or restores the thread's
 *       interrupt flag before it returns or throws.</li>
 *   <li>{@code executeAsync} never throws; every failure arrives through the returned stage.</li>
 * </ul>
 *
 * <p><b>Decorating.</b> {@code decorate} returns a {@code Supplier}, {@code Callable},
 * {@code Runnable} or {@code Function} of the same type that runs through this policy;
 * {@code decorateChecked} does the same for Levee's checked forms ({@code CheckedSupplier},
 * {@code CheckedRunnable}, {@code CheckedFunction}). The two names keep a lambda such as
 * {@code x -> load(x)} from fitting two overloads at once. With a lambda literal {@code () -> x} still
 * fits both {@code Supplier} and {@code Callable}: decorate a variable of the wanted type, or call
 * {@link #execute} directly.
 *
 * <p><b>Writing a policy.</b> Implement {@link #name()}, {@link #execute(Chain, CheckedSupplier)} and
 * {@link #executeAsync(Chain, Supplier)}, and reach the call only through the given {@link Chain}.
 */
public interface Policy {

    /**
     * The policy's name, used in rejections, events, logs and metric tags.
     *
     * @return the name, never null
     */
    String name();

    /**
     * Runs {@code call} under this policy, continuing through {@code next}. This is the composition
     * SPI; users call {@link #execute(CheckedSupplier)}.
     *
     * @param next the rest of the chain
     * @param call the user's call
     * @param <T> the result type
     * @param <E> the checked exception type of the call
     * @return the call's result
     * @throws E what the call threw, unchanged
     * @throws RejectedException if this policy refused the call
     */
    <T, E extends Throwable> T execute(Chain next, CheckedSupplier<T, E> call) throws E;

    /**
     * Runs the asynchronous {@code call} under this policy, continuing through {@code next}. This is
     * the composition SPI; users call {@link #executeAsync(Supplier)}.
     *
     * @param next the rest of the chain
     * @param call the user's asynchronous call
     * @param <T> the result type
     * @return a stage completing with the call's result or failure, or with a rejection
     */
    <T> CompletionStage<T> executeAsync(Chain next, Supplier<? extends CompletionStage<T>> call);

    /**
     * Runs {@code call} under this policy.
     *
     * @param call the call
     * @param <T> the result type
     * @param <E> the checked exception type of the call
     * @return the call's result
     * @throws E what the call threw, unchanged
     * @throws RejectedException if this policy refused the call
     */
    default <T, E extends Throwable> T execute(CheckedSupplier<T, E> call) throws E {
        return execute(Chain.direct(), call);
    }

    /**
     * This policy seen through two declared checked exception types, for a call that throws both:
     * {@code policy.throwing(IOException.class, InterruptedException.class).execute(() ->
     * client.send(request, handler))} throws exactly {@code IOException} and
     * {@code InterruptedException}, each unchanged. ({@link #execute(CheckedSupplier)} would declare
     * their common supertype, {@code Exception}.) See {@link Throwing}.
     *
     * @param first the first checked exception type
     * @param second the second checked exception type
     * @param <E1> the first checked exception type
     * @param <E2> the second checked exception type
     * @return a view of this policy whose {@code execute} declares {@code E1} and {@code E2}
     */
    default <E1 extends Throwable, E2 extends Throwable> Throwing<E1, E2> throwing(Class<E1> first, Class<E2> second) {
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(second, "second");
        return new Throwing<>(this);
    }

    /**
     * Runs {@code call}, which returns nothing, under this policy.
     *
     * @param call the call
     * @param <E> the checked exception type of the call
     * @throws E what the call threw, unchanged
     * @throws RejectedException if this policy refused the call
     */
    @SuppressWarnings("NullAway") // the Void result is null by definition
    default <E extends Throwable> void run(CheckedRunnable<E> call) throws E {
        execute(Chain.direct(), () -> {
            call.run();
            return null;
        });
    }

    /**
     * Runs the asynchronous {@code call} under this policy. Never throws.
     *
     * @param call creates the stage; called once per attempt
     * @param <T> the result type
     * @return a stage completing with the call's result or failure, or with a rejection
     */
    default <T> CompletionStage<T> executeAsync(Supplier<? extends CompletionStage<T>> call) {
        return executeAsync(Chain.direct(), call);
    }

    /**
     * Returns a supplier that runs {@code supplier} through this policy.
     *
     * @param supplier the call
     * @param <T> the result type
     * @return the decorated supplier
     */
    default <T> Supplier<T> decorate(Supplier<T> supplier) {
        return () -> execute(supplier::get);
    }

    /**
     * Returns a callable that runs {@code callable} through this policy.
     *
     * @param callable the call
     * @param <T> the result type
     * @return the decorated callable
     */
    default <T> Callable<T> decorate(Callable<T> callable) {
        return () -> execute(callable::call);
    }

    /**
     * Returns a runnable that runs {@code runnable} through this policy.
     *
     * @param runnable the call
     * @return the decorated runnable
     */
    default Runnable decorate(Runnable runnable) {
        return () -> run(runnable::run);
    }

    /**
     * Returns a function that applies {@code function} through this policy.
     *
     * @param function the call
     * @param <A> the argument type
     * @param <R> the result type
     * @return the decorated function
     */
    default <A, R> Function<A, R> decorate(Function<A, R> function) {
        return argument -> execute(() -> function.apply(argument));
    }

    /**
     * Returns a checked supplier that runs {@code supplier} through this policy.
     *
     * @param supplier the call
     * @param <T> the result type
     * @param <E> the checked exception type
     * @return the decorated supplier
     */
    default <T, E extends Throwable> CheckedSupplier<T, E> decorateChecked(CheckedSupplier<T, E> supplier) {
        return () -> execute(supplier);
    }

    /**
     * Returns a checked runnable that runs {@code runnable} through this policy.
     *
     * @param runnable the call
     * @param <E> the checked exception type
     * @return the decorated runnable
     */
    default <E extends Throwable> CheckedRunnable<E> decorateChecked(CheckedRunnable<E> runnable) {
        return () -> run(runnable);
    }

    /**
     * Returns a checked function that applies {@code function} through this policy. Named apart from
     * {@link #decorate(Function)} so that a lambda literal is never ambiguous between the two.
     *
     * @param function the call
     * @param <A> the argument type
     * @param <R> the result type
     * @param <E> the checked exception type
     * @return the decorated function
     */
    default <A, R, E extends Throwable> CheckedFunction<A, R, E> decorateChecked(CheckedFunction<A, R, E> function) {
        return argument -> execute(() -> function.apply(argument));
    }

    /**
     * Returns an asynchronous supplier that runs {@code supplier} through this policy.
     *
     * @param supplier creates the stage
     * @param <T> the result type
     * @return the decorated asynchronous supplier
     */
    default <T> Supplier<CompletionStage<T>> decorateAsync(Supplier<? extends CompletionStage<T>> supplier) {
        return () -> executeAsync(supplier);
    }
}
