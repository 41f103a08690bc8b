package dev.levee.degrade;

import org.jspecify.annotations.Nullable;

/**
 * Produces a fallback value from the primary call's failure.
 *
 * <pre>{@code
 * FallbackFunction<List<Item>> popular = cause -> popularItems.snapshot();
 * }</pre>
 *
 * <p>It runs on the caller's thread. It should read an <em>independent</em> source (a local cache, a
 * static default, another service): a fallback that calls the failing dependency again fails with
 * it. Whatever it throws is added to the primary failure as suppressed and the next tier is tried.
 *
 * @param <T> the value type
 */
@FunctionalInterface
public interface FallbackFunction<T> {

    /**
     * Produces the fallback value.
     *
     * @param cause what the primary call failed with; for a bad result, a {@link BadResultException}
     * @return the value to serve, possibly null
     * @throws Exception if this fallback cannot answer either
     */
    @Nullable T apply(Throwable cause) throws Exception;
}
