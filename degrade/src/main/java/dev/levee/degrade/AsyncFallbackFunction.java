package dev.levee.degrade;

import java.util.concurrent.CompletionStage;

/**
 * Produces a fallback value asynchronously from the primary call's failure: for a tier that is
 * itself a remote call (a cache cluster, a replica in another region). A tier of this kind can be
 * bounded by a hard timeout even in the synchronous {@link Fallback#execute} path: at the timeout
 * the caller stops waiting and the stage is cancelled.
 *
 * @param <T> the value type
 */
@FunctionalInterface
public interface AsyncFallbackFunction<T> {

    /**
     * Starts producing the fallback value. Must not block.
     *
     * @param cause what the primary call failed with; for a bad result, a {@link BadResultException}
     * @return a stage completing with the value, or exceptionally if this tier cannot answer
     */
    CompletionStage<T> apply(Throwable cause);
}
