package dev.levee.degrade;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A value together with how it was obtained: for callers who must tell their own client that an
 * answer is degraded (a {@code "degraded": true} field, a banner, a response header).
 *
 * <p>Two forms exist side by side. Code that does not care takes the plain value from
 * {@link Fallback#execute}; code that must propagate the flag calls {@link Fallback#executeDegraded}
 * (or {@link LastKnownGood#executeDegraded}) and gets this record.
 *
 * <pre>{@code
 * Degraded<List<Item>> recs = recommendations.executeDegraded(() -> personalized(user));
 * response.put("items", recs.value());
 * response.put("degraded", recs.degraded());
 * }</pre>
 *
 * @param value the value served; null only if the call or the fallback returned null
 * @param degraded whether a fallback served it ({@code false}: the primary call did)
 * @param reason why the primary was not used; null when not degraded
 * @param tier the name of what served it: {@value #PRIMARY} for the primary call, else the fallback
 *     tier's name (e.g. {@code cached}, {@code static})
 * @param message a short human-readable account, e.g. {@code circuit_open: served by tier 'cached'};
 *     null when not degraded
 * @param cause what the primary call failed with (for {@link FallbackReason#RESULT}, a
 *     {@link BadResultException} holding the result); null when not degraded
 * @param age how old the value was when served, for values remembered from earlier calls
 *     ({@link LastKnownGood}); null where age does not apply
 * @param <T> the value type
 */
public record Degraded<T>(
        @Nullable T value,
        boolean degraded,
        @Nullable FallbackReason reason,
        String tier,
        @Nullable String message,
        @Nullable Throwable cause,
        @Nullable Duration age) {

    /** The {@link #tier()} of a value the primary call produced. */
    public static final String PRIMARY = "primary";

    /**
     * Checks that a degraded value has a reason and a cause, and a fresh one has neither.
     *
     * @param value the value
     * @param degraded whether a fallback served it
     * @param reason why; required iff degraded
     * @param tier what served it
     * @param message an account; may be null
     * @param cause the primary's failure; required iff degraded
     * @param age the value's age, or null
     */
    public Degraded {
        Objects.requireNonNull(tier, "tier");
        if (degraded && (reason == null || cause == null)) {
            throw new IllegalArgumentException("a degraded value needs a reason and a cause");
        }
        if (!degraded && (reason != null || cause != null)) {
            throw new IllegalArgumentException("a fresh value has no reason and no cause");
        }
    }

    /**
     * A value the primary call produced.
     *
     * @param value the value
     * @param <T> the value type
     * @return a non-degraded result served by {@value #PRIMARY}
     */
    public static <T> Degraded<T> fresh(@Nullable T value) {
        return new Degraded<>(value, false, null, PRIMARY, null, null, null);
    }

    /**
     * A value a fallback produced.
     *
     * @param value the value
     * @param reason why the primary was not used
     * @param tier the tier that served it
     * @param cause the primary's failure
     * @param <T> the value type
     * @return a degraded result with a standard message
     */
    public static <T> Degraded<T> fallback(@Nullable T value, FallbackReason reason, String tier, Throwable cause) {
        return new Degraded<>(value, true, reason, tier, reason.tag() + ": served by tier '" + tier + "'", cause, null);
    }
}
