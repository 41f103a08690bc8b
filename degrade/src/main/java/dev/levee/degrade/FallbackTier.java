package dev.levee.degrade;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.internal.Validate;
import dev.levee.core.internal.Nanos;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * One step of a fallback chain: a name (reported as the {@code tier} of a {@link Degraded} value and
 * tagged on the {@code levee.degrade.fallbacks} counter), a function producing the value, and an
 * optional timeout.
 *
 * <p>Seed 000's degradation levels read as a chain of tiers, each tried only when the one before
 * failed:
 * <pre>{@code
 * Fallback<Page> search = Fallback.of("search", FallbackConfig.defaults(), List.of(
 *         FallbackTier.ofAsync("cached", cause -> resultCache.getAsync(query)).withTimeout(Duration.ofMillis(50)),
 *         FallbackTier.of("popular", cause -> popular.snapshot()),
 *         FallbackTier.ofValue("static", Page.STATIC),
 *         FallbackTier.ofValue("maintenance", Page.MAINTENANCE)));
 * }</pre>
 *
 * <p><b>Timeouts.</b> A tier's timeout is measured on the {@link Fallback}'s ticker from the moment the
 * tier starts:
 * <ul>
 *   <li>an {@linkplain #ofAsync asynchronous} tier is bounded hard: at the timeout (fired by the
 *       fallback's {@link dev.levee.core.Scheduler}) its stage is cancelled and the next tier is
 *       tried, in {@code execute} as in {@code executeAsync};</li>
 *   <li>a {@linkplain #of synchronous} tier runs on the caller's thread with its timeout attached as
 *       the current {@link dev.levee.core.Deadline} (the earlier of it and any deadline already
 *       current): Levee policies inside it and code that checks the deadline stop there, and a
 *       {@link dev.levee.core.DeadlineExceededException} it throws moves on to the next tier. A
 *       synchronous tier that never looks at the deadline is not interrupted, and a value it returns
 *       late is still served — the same cooperative contract as the timeout module's COOPERATIVE
 *       mode.</li>
 * </ul>
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th></tr>
 *   <tr><td>{@code name}</td><td>—</td><td>not blank</td></tr>
 *   <tr><td>{@code function}</td><td>—</td><td>not null</td></tr>
 *   <tr><td>{@code timeout}</td><td>none</td><td>(0, {@link #MAX_TIMEOUT}]</td></tr>
 * </table>
 *
 * <p>Immutable and thread-safe.
 *
 * @param <T> the value type
 */
public final class FallbackTier<T> {
    /** The longest tier timeout accepted. */
    public static final Duration MAX_TIMEOUT = Duration.ofHours(1);
    /** The name of the tier built by {@link #failOpen}. */
    public static final String FAIL_OPEN = "fail-open";
    /** The name of the tier built by {@link #failClosed}. */
    public static final String FAIL_CLOSED = "fail-closed";

    private final String name;
    private final @Nullable FallbackFunction<T> function;
    private final @Nullable AsyncFallbackFunction<T> asyncFunction;
    private final @Nullable Duration timeout;
    private final long timeoutNanos;

    private FallbackTier(String name, @Nullable FallbackFunction<T> function,
            @Nullable AsyncFallbackFunction<T> asyncFunction, @Nullable Duration timeout) {
        this.name = name;
        this.function = function;
        this.asyncFunction = asyncFunction;
        this.timeout = timeout;
        this.timeoutNanos = timeout == null ? 0L : Nanos.of(timeout);
    }

    /**
     * A tier that computes its value on the caller's thread.
     *
     * @param name the tier's name, e.g. {@code cached}
     * @param function produces the value
     * @param <T> the value type
     * @return the tier, without a timeout
     * @throws InvalidConfigException if the name is blank or the function null
     */
    public static <T> FallbackTier<T> of(String name, FallbackFunction<T> function) {
        Validate.name("FallbackTier", name);
        Validate.notNull(Validate.describe("FallbackTier", name), "function", function);
        return new FallbackTier<>(name, function, null, null);
    }

    /**
     * A tier whose value arrives asynchronously; its timeout, if any, is enforced hard.
     *
     * @param name the tier's name, e.g. {@code replica}
     * @param function starts producing the value
     * @param <T> the value type
     * @return the tier, without a timeout
     * @throws InvalidConfigException if the name is blank or the function null
     */
    public static <T> FallbackTier<T> ofAsync(String name, AsyncFallbackFunction<T> function) {
        Validate.name("FallbackTier", name);
        Validate.notNull(Validate.describe("FallbackTier", name), "function", function);
        return new FallbackTier<>(name, null, function, null);
    }

    /**
     * A tier that serves a constant: a static page, an empty list, a maintenance notice.
     *
     * @param name the tier's name, e.g. {@code static}
     * @param value the value served
     * @param <T> the value type
     * @return the tier
     * @throws InvalidConfigException if the name is blank
     */
    public static <T> FallbackTier<T> ofValue(String name, @Nullable T value) {
        return of(name, cause -> value);
    }

    /**
     * A tier named {@value #FAIL_OPEN} serving a permissive answer: when the dependency cannot be
     * asked, let the request through. Choose it where wrongly allowing costs less than wrongly
     * refusing (a recommendation filter, a feature flag lookup).
     *
     * @param allow the permissive answer
     * @param <T> the value type
     * @return the tier
     */
    public static <T> FallbackTier<T> failOpen(@Nullable T allow) {
        return ofValue(FAIL_OPEN, allow);
    }

    /**
     * A tier named {@value #FAIL_CLOSED} serving a restrictive answer: when the dependency cannot be
     * asked, refuse (or hold for review). Choose it where wrongly allowing costs more (a fraud check:
     * do not approve what cannot be verified).
     *
     * @param deny the restrictive answer
     * @param <T> the value type
     * @return the tier
     */
    public static <T> FallbackTier<T> failClosed(@Nullable T deny) {
        return ofValue(FAIL_CLOSED, deny);
    }

    /**
     * This tier with a timeout.
     *
     * @param timeout how long the tier may take; in (0, {@link #MAX_TIMEOUT}]
     * @return a new tier
     * @throws InvalidConfigException if the timeout is null or out of bounds
     */
    public FallbackTier<T> withTimeout(Duration timeout) {
        String policy = Validate.describe("FallbackTier", name);
        Validate.positive(policy, "timeout", timeout);
        Validate.check(timeout.compareTo(MAX_TIMEOUT) <= 0, policy, "timeout", "<= " + MAX_TIMEOUT, timeout);
        return new FallbackTier<>(name, function, asyncFunction, timeout);
    }

    /** @return the tier's name */
    public String name() {
        return name;
    }

    /** @return the timeout, or null when the tier has none */
    public @Nullable Duration timeout() {
        return timeout;
    }

    /** @return the timeout in nanoseconds; 0 when the tier has none */
    public long timeoutNanos() {
        return timeoutNanos;
    }

    /** @return whether the tier's value arrives asynchronously */
    public boolean isAsync() {
        return asyncFunction != null;
    }

    /** @return the synchronous function; null for an asynchronous tier */
    @Nullable FallbackFunction<T> function() {
        return function;
    }

    /** @return the asynchronous function; null for a synchronous tier */
    @Nullable AsyncFallbackFunction<T> asyncFunction() {
        return asyncFunction;
    }

    /** Starts an asynchronous tier, turning a throw or a null stage into a failed future. */
    CompletableFuture<T> start(Throwable cause) {
        AsyncFallbackFunction<T> async = asyncFunction;
        if (async == null) {
            throw new IllegalStateException("FallbackTier '" + name + "' is synchronous");
        }
        try {
            var stage = async.apply(cause);
            if (stage == null) {
                return CompletableFuture.failedFuture(new NullPointerException(
                        "FallbackTier '" + name + "': the function returned a null CompletionStage"));
            }
            try {
                return stage.toCompletableFuture();
            } catch (UnsupportedOperationException notConvertible) {
                // A stage that cannot be converted is followed instead; it then cannot be cancelled.
                CompletableFuture<T> copy = new CompletableFuture<>();
                stage.whenComplete((value, failure) -> {
                    if (failure == null) {
                        copy.complete(value);
                    } else {
                        copy.completeExceptionally(failure);
                    }
                });
                return copy;
            }
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public String toString() {
        return "FallbackTier[" + name + (isAsync() ? ", async" : "") + (timeout == null ? "" : ", timeout=" + timeout) + "]";
    }
}
