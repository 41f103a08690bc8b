package dev.levee.core;

import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * What runs after a policy: the next policy of a {@link Pipeline}, or the call itself.
 *
 * <p>A policy never calls the user's lambda directly; it calls {@link #proceed(CheckedSupplier)}
 * on the chain it was given. This is what lets a pipeline compose policies <em>without building
 * a lambda per call</em>: the pipeline builds one chain link per policy when it is created, and
 * a call walks those links with the user's call as an argument. A retry that calls
 * {@code next.proceed(call)} three times re-runs everything inside it three times.
 *
 * <p>Users only meet this type when they write their own policy. {@link #direct()} is the end of
 * every chain: it runs the call.
 */
public interface Chain {

    /**
     * Runs the rest of the chain, ending with the call.
     *
     * @param call the user's call
     * @param <T> the result type
     * @param <E> the checked exception type of the call
     * @return what the call returned
     * @throws E what the call threw, unchanged
     */
    <T, E extends Throwable> T proceed(CheckedSupplier<T, E> call) throws E;

    /**
     * Runs the rest of the chain asynchronously, ending with the call.
     *
     * <p>Never throws: a failure, including a rejection by an inner policy or an exception thrown
     * by {@code call} itself while creating the stage, completes the returned stage exceptionally.
     *
     * @param call the user's asynchronous call
     * @param <T> the result type
     * @return the stage of the call's result
     */
    <T> CompletionStage<T> proceedAsync(Supplier<? extends CompletionStage<T>> call);

    /**
     * The end of every chain: runs the call directly.
     *
     * @return the direct chain, a stateless singleton
     */
    static Chain direct() {
        return DirectChain.INSTANCE;
    }
}
