package dev.levee.degrade;

import dev.levee.core.Chain;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.internal.EventListeners;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.Policy;
import dev.levee.core.Scheduler;
import dev.levee.core.Subscription;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import dev.levee.core.internal.Exceptions;
import dev.levee.degrade.internal.Activations;
import dev.levee.degrade.internal.Trigger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers with a fallback value when the call fails or is refused: a wrapper policy, outermost in a
 * {@link dev.levee.core.Pipeline} by the recommended order, so it sees the final failure after
 * retries and every rejection of the gates inside it.
 *
 * <pre>{@code
 * Fallback<List<Item>> recommendations = Fallback.of("recommendations", FallbackConfig.defaults(),
 *         FallbackTier.of("popular", cause -> popularItems.snapshot()));
 * Pipeline pipeline = Pipeline.of(recommendations, retry, breaker, limiter, bulkhead, timeout);
 * List<Item> items = pipeline.execute(() -> recommender.forUser(user));          // plain value
 * Degraded<List<Item>> answer = recommendations.executeDegraded(inner, () -> recommender.forUser(user));
 * }</pre>
 *
 * <p><b>Model.</b> The call runs through the rest of the chain. When it throws, the failure is
 * handled in this order:
 * <ol>
 *   <li>an {@link Error} or an {@link InterruptedException} is rethrown at once, unchanged — never a
 *       fallback, whatever the classifier says;</li>
 *   <li>the {@link dev.levee.core.Classifier} must say {@link dev.levee.core.Outcome#FAILURE} (an ignored exception passes
 *       through unchanged);</li>
 *   <li>its {@link FallbackReason} ({@code CIRCUIT_OPEN}, {@code RATE_LIMITED}, {@code BULKHEAD_FULL},
 *       {@code SHED}, {@code TIMEOUT}, {@code ERROR}) must be one of the configured reasons;</li>
 *   <li>the tiers are tried in order, each only when the one before failed, each within its own
 *       timeout ({@link FallbackTier}); the first value wins and is served, reported with its tier.</li>
 * </ol>
 * When the call returns a value the classifier's result predicate counts as a failure, the same
 * happens with reason {@link FallbackReason#RESULT} and a {@link BadResultException} as the cause.
 *
 * <p><b>When every tier fails</b> the caller gets the original failure — the same instance — with
 * each tier's failure added to it as {@linkplain Throwable#getSuppressed() suppressed}, and the
 * failure is logged at ERROR. (Levee's own {@code RejectedException}s are created with suppression
 * disabled, because they are stackless and may be thrown in floods; for them the tiers' failures
 * are in the ERROR log and the {@link FallbackEvent.TierFailed} events.) After a bad result the
 * caller gets that result back. A tier that throws an {@link Error} propagates it at once.
 *
 * <p><b>Never silent.</b> Every value served by a tier increments
 * {@code levee.degrade.fallbacks{name,reason,tier}}, logs a WARN (at most one per {@code warnInterval},
 * counting the ones held back) and publishes {@link FallbackEvent.FellBack}; see
 * {@link GracefulDegrader}.
 *
 * <p><b>Types.</b> A {@code Fallback<T>} answers with a {@code T}, so it must only wrap calls that
 * return {@code T}; in a pipeline, give each result type its own pipeline. The typed methods
 * ({@link #executeDegraded(CheckedSupplier)}, {@link #get}) check this at compile time.
 *
 * <p><b>Cost.</b> On the success path: one {@code try} around the chain, and a result-predicate call
 * when the classifier has one. Nothing is allocated and no clock is read. Handling a failure reads
 * the ticker once or twice, allocates the {@link Degraded} record and the events someone listens to.
 *
 * <p>Thread-safe; build once, use for every call.
 *
 * @param <T> the type of the values it serves
 */
@SuppressWarnings("try") // a tier's deadline scope is opened for its effect on the current deadline
public final class Fallback<T> implements Policy, GracefulDegrader {
    private static final Logger LOG = LoggerFactory.getLogger(Fallback.class);
    /** The name of the tier {@link #ofDefaults} builds. */
    public static final String DEFAULT_TIER = "fallback";

    private final String name;
    private final FallbackConfig config;
    private final FallbackTier<T>[] tiers;
    private final List<String> tierNames;
    private final Trigger trigger;
    private final boolean classifiesResults;
    private final Ticker ticker;
    private final Scheduler scheduler;
    private final EventListeners<FallbackEvent> listeners = new EventListeners<>();
    private final Activations activations;

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Fallback(String name, FallbackConfig config, List<FallbackTier<T>> tiers) {
        this.name = name;
        this.config = config;
        this.tiers = tiers.toArray(new FallbackTier[0]);
        List<String> names = new ArrayList<>();
        for (FallbackTier<T> tier : tiers) {
            names.add(tier.name());
        }
        this.tierNames = List.copyOf(names);
        this.trigger = new Trigger(Validate.describe("Fallback", name), config, LOG);
        this.classifiesResults = trigger.classifiesResults();
        this.ticker = config.ticker();
        this.scheduler = config.scheduler();
        this.activations = new Activations("Fallback", name, tierNames, ticker, config.warnIntervalNanos(), LOG,
                listeners);
    }

    /**
     * A fallback trying {@code tiers} in order.
     *
     * @param name the name, for logs, events and metric tags
     * @param config the config
     * @param tiers at least one tier; names unique
     * @param <T> the value type
     * @return the fallback
     * @throws InvalidConfigException if the name is blank, the config null, or the tiers empty,
     *     null or named twice
     */
    public static <T> Fallback<T> of(String name, FallbackConfig config, List<FallbackTier<T>> tiers) {
        Validate.name("Fallback", name);
        String policy = Validate.describe("Fallback", name);
        Validate.notNull(policy, "config", config);
        Validate.notNull(policy, "tiers", tiers);
        Validate.check(!tiers.isEmpty(), policy, "tiers", "at least 1 tier", tiers);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < tiers.size(); i++) {
            FallbackTier<T> tier = tiers.get(i);
            Validate.notNull(policy, "tiers[" + i + "]", tier);
            Validate.check(seen.add(tier.name()), policy, "tiers[" + i + "].name", "unique", tier.name());
        }
        return new Fallback<>(name, config, new ArrayList<>(tiers));
    }

    /**
     * A fallback trying {@code tiers} in order.
     *
     * @param name the name, for logs, events and metric tags
     * @param config the config
     * @param tiers at least one tier; names unique
     * @param <T> the value type
     * @return the fallback
     * @throws InvalidConfigException if the name is blank, the config null, or the tiers empty,
     *     null or named twice
     */
    @SafeVarargs
    public static <T> Fallback<T> of(String name, FallbackConfig config, FallbackTier<T>... tiers) {
        Validate.notNull(Validate.describe("Fallback", name), "tiers", tiers);
        List<FallbackTier<T>> list = new ArrayList<>(tiers.length);
        for (FallbackTier<T> tier : tiers) {
            list.add(tier);
        }
        return of(name, config, list);
    }

    /**
     * A fallback with the default config and one tier named {@value #DEFAULT_TIER}.
     *
     * @param name the name
     * @param fallback produces the value
     * @param <T> the value type
     * @return the fallback
     */
    public static <T> Fallback<T> ofDefaults(String name, FallbackFunction<T> fallback) {
        return of(name, FallbackConfig.defaults(), List.of(FallbackTier.of(DEFAULT_TIER, fallback)));
    }

    @Override
    public String name() {
        return name;
    }

    /** @return the config */
    public FallbackConfig config() {
        return config;
    }

    /** @return the tiers, in the order they are tried */
    public List<FallbackTier<T>> tiers() {
        return List.of(tiers);
    }

    @Override
    public List<String> tierNames() {
        return tierNames;
    }

    @Override
    public long fallbackCount(FallbackReason reason, int tier) {
        return activations.fallbackCount(reason, tier);
    }

    @Override
    public long exhaustedCount(FallbackReason reason) {
        return activations.exhaustedCount(reason);
    }

    @Override
    public FallbackMetrics metrics() {
        return activations.metrics();
    }

    @Override
    public Subscription onEvent(Consumer<? super FallbackEvent> listener) {
        return listeners.subscribe(listener);
    }

    // ---------------------------------------------------------------- typed entry points

    /**
     * Runs {@code call}; a fallback value if it fails. The typed form of {@link #execute(CheckedSupplier)}.
     *
     * @param call the primary call
     * @param <E> the checked exception type of the call
     * @return the call's value or a tier's
     * @throws E the call's failure, unchanged, when it does not trigger a fallback or every tier failed
     */
    public <E extends Throwable> T get(CheckedSupplier<? extends T, E> call) throws E {
        return execute(Chain.direct(), call);
    }

    /**
     * Runs {@code call} and says how the answer was obtained.
     *
     * @param call the primary call
     * @param <E> the checked exception type of the call
     * @return the value, with {@code degraded}, reason, tier and cause
     * @throws E the call's failure, unchanged, when it does not trigger a fallback or every tier failed
     */
    public <E extends Throwable> Degraded<T> executeDegraded(CheckedSupplier<? extends T, E> call) throws E {
        return executeDegraded(Chain.direct(), call);
    }

    /**
     * Runs {@code call} through {@code inner} (a pipeline of the other policies) and says how the
     * answer was obtained: the {@link Degraded} form of {@code Pipeline.of(this, inner).execute(call)}.
     *
     * @param inner the policies inside this fallback
     * @param call the primary call
     * @param <E> the checked exception type of the call
     * @return the value, with {@code degraded}, reason, tier and cause
     * @throws E the call's failure, unchanged, when it does not trigger a fallback or every tier failed
     */
    public <E extends Throwable> Degraded<T> executeDegraded(Policy inner, CheckedSupplier<? extends T, E> call)
            throws E {
        Objects.requireNonNull(inner, "inner");
        return executeDegraded(new PolicyChain(inner), call);
    }

    /**
     * Runs the asynchronous {@code call} and says how the answer was obtained. Never throws.
     *
     * @param call creates the primary stage
     * @return a stage with the value and how it was obtained, or the primary's failure
     */
    public CompletionStage<Degraded<T>> executeDegradedAsync(Supplier<? extends CompletionStage<? extends T>> call) {
        return executeDegradedAsync(Chain.direct(), call);
    }

    /**
     * Runs the asynchronous {@code call} through {@code inner} and says how the answer was obtained.
     * Never throws.
     *
     * @param inner the policies inside this fallback
     * @param call creates the primary stage
     * @return a stage with the value and how it was obtained, or the primary's failure
     */
    public CompletionStage<Degraded<T>> executeDegradedAsync(Policy inner,
            Supplier<? extends CompletionStage<? extends T>> call) {
        Objects.requireNonNull(inner, "inner");
        return executeDegradedAsync(new PolicyChain(inner), call);
    }

    // ---------------------------------------------------------------- the Policy SPI

    @Override
    // A tier's value may be null, as the call's own result may be; Policy's R carries no nullness.
    @SuppressWarnings({"unchecked", "NullAway"})
    public <R, E extends Throwable> R execute(Chain next, CheckedSupplier<R, E> call) throws E {
        R result;
        try {
            result = next.proceed(call);
        } catch (Throwable failure) {
            return (R) recover(failure).value();
        }
        if (classifiesResults && trigger.isBad(result)) {
            return (R) recoverResult(result).value();
        }
        return result;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <R> CompletionStage<R> executeAsync(Chain next, Supplier<? extends CompletionStage<R>> call) {
        CompletableFuture<Degraded<T>> degraded = degradedAsync(next, (Supplier<CompletionStage<T>>) (Supplier<?>) call);
        // Not thenApply: that would wrap a passed-through failure in a CompletionException.
        CompletableFuture<R> out = new CompletableFuture<>();
        degraded.whenComplete((answer, failure) -> {
            if (failure == null) {
                out.complete((R) answer.value());
            } else {
                out.completeExceptionally(Exceptions.unwrap(failure));
            }
        });
        return out;
    }

    private <E extends Throwable> Degraded<T> executeDegraded(Chain next, CheckedSupplier<? extends T, E> call)
            throws E {
        T result;
        try {
            result = next.proceed(call);
        } catch (Throwable failure) {
            return recover(failure);
        }
        if (classifiesResults && trigger.isBad(result)) {
            return recoverResult(result);
        }
        return Degraded.fresh(result);
    }

    @SuppressWarnings("unchecked")
    private CompletionStage<Degraded<T>> executeDegradedAsync(Chain next,
            Supplier<? extends CompletionStage<? extends T>> call) {
        Objects.requireNonNull(call, "call");
        return degradedAsync(next, (Supplier<CompletionStage<T>>) (Supplier<?>) call);
    }

    // ---------------------------------------------------------------- synchronous failure path

    /** Returns a tier's value for {@code failure}, or rethrows {@code failure}. */
    private Degraded<T> recover(Throwable failure) {
        FallbackReason reason = trigger.reasonFor(failure);
        if (reason == null) {
            throw Exceptions.sneakyThrow(failure);
        }
        Degraded<T> served = runTiers(reason, failure);
        if (served == null) {
            throw Exceptions.sneakyThrow(failure);
        }
        return served;
    }

    /** Returns a tier's value for a bad result, or the result itself when every tier failed. */
    @SuppressWarnings("unchecked")
    private Degraded<T> recoverResult(Object result) {
        Degraded<T> served = runTiers(FallbackReason.RESULT, new BadResultException(name, result));
        return served != null ? served : Degraded.fresh((T) result);
    }

    /** The first tier's value, or null when every tier failed (the failure then carries theirs). */
    private @Nullable Degraded<T> runTiers(FallbackReason reason, Throwable failure) {
        for (int i = 0; i < tiers.length; i++) {
            FallbackTier<T> tier = tiers[i];
            @Nullable T value;
            try {
                value = callTier(tier, failure);
            } catch (Throwable tierFailure) {
                Exceptions.rethrowIfError(tierFailure);
                tierFailed(reason, i, failure, tierFailure);
                if (tierFailure instanceof InterruptedException || Thread.currentThread().isInterrupted()) {
                    // The caller is being cancelled: restore the flag and try no further tier.
                    Thread.currentThread().interrupt();
                    break;
                }
                continue;
            }
            activations.fellBack(reason, i, failure);
            return Degraded.fallback(value, reason, tier.name(), failure);
        }
        activations.exhausted(reason, failure);
        return null;
    }

    private @Nullable T callTier(FallbackTier<T> tier, Throwable cause) throws Exception {
        FallbackFunction<T> function = tier.function();
        if (function != null) {
            if (tier.timeoutNanos() == 0L) {
                return function.apply(cause);
            }
            try (ContextScope ignored = Deadline.afterNanos(tier.timeoutNanos(), ticker).attach()) {
                return function.apply(cause);
            }
        }
        CompletableFuture<T> stage = tier.start(cause);
        CompletableFuture<T> answer = tier.timeoutNanos() == 0L ? stage : withTimeout(tier, stage);
        try {
            return answer.get();
        } catch (ExecutionException e) {
            Throwable tierFailure = Exceptions.unwrap(e);
            if (tierFailure instanceof Exception) {
                throw (Exception) tierFailure;
            }
            throw Exceptions.sneakyThrow(tierFailure);
        } catch (InterruptedException e) {
            stage.cancel(true);
            throw e;
        }
    }

    /** {@code stage}, or a {@link DeadlineExceededException} at the tier's timeout (then the stage is cancelled). */
    private CompletableFuture<T> withTimeout(FallbackTier<T> tier, CompletableFuture<T> stage) {
        CompletableFuture<T> answer = new CompletableFuture<>();
        long timeoutNanos = tier.timeoutNanos();
        Scheduler.Cancellable timer = scheduler.schedule(() -> {
            if (answer.completeExceptionally(new DeadlineExceededException(name,
                    "Fallback '" + name + "': tier '" + tier.name() + "' did not answer within "
                            + Duration.ofNanos(timeoutNanos), 0L))) {
                stage.cancel(true);
            }
        }, timeoutNanos);
        stage.whenComplete((value, error) -> {
            timer.cancel();
            if (error == null) {
                answer.complete(value);
            } else {
                answer.completeExceptionally(Exceptions.unwrap(error));
            }
        });
        return answer;
    }

    private void tierFailed(FallbackReason reason, int tier, Throwable failure, Throwable tierFailure) {
        if (tierFailure != failure) {
            failure.addSuppressed(tierFailure);
        }
        activations.tierFailed(reason, tier, tierFailure);
    }

    // ---------------------------------------------------------------- asynchronous path

    private CompletableFuture<Degraded<T>> degradedAsync(Chain next, Supplier<CompletionStage<T>> call) {
        CompletableFuture<Degraded<T>> out = new CompletableFuture<>();
        CompletionStage<T> primary;
        try {
            primary = next.proceedAsync(call);
        } catch (RuntimeException e) {
            primary = CompletableFuture.failedFuture(e);
        }
        primary.whenComplete((value, error) -> {
            try {
                if (error == null) {
                    if (classifiesResults && trigger.isBad(value)) {
                        tryTierAsync(0, FallbackReason.RESULT, new BadResultException(name, value), value, true, out);
                    } else {
                        out.complete(Degraded.fresh(value));
                    }
                    return;
                }
                Throwable failure = Exceptions.unwrap(error);
                FallbackReason reason = trigger.reasonFor(failure);
                if (reason == null) {
                    out.completeExceptionally(failure);
                } else {
                    tryTierAsync(0, reason, failure, null, false, out);
                }
            } catch (Throwable unexpected) {
                out.completeExceptionally(unexpected);
            }
        });
        return out;
    }

    /** Tries tier {@code i} and, on its failure, the next; completes {@code out} with the first value. */
    @SuppressWarnings("unchecked")
    private void tryTierAsync(int i, FallbackReason reason, Throwable failure, @Nullable Object badResult,
            boolean isResult, CompletableFuture<Degraded<T>> out) {
        if (i == tiers.length) {
            activations.exhausted(reason, failure);
            if (isResult) {
                out.complete(Degraded.fresh((T) badResult));
            } else {
                out.completeExceptionally(failure);
            }
            return;
        }
        FallbackTier<T> tier = tiers[i];
        CompletableFuture<T> attempt;
        if (tier.isAsync()) {
            CompletableFuture<T> stage = tier.start(failure);
            attempt = tier.timeoutNanos() == 0L ? stage : withTimeout(tier, stage);
        } else {
            try {
                attempt = CompletableFuture.completedFuture(callTier(tier, failure));
            } catch (Throwable tierFailure) {
                attempt = CompletableFuture.failedFuture(tierFailure);
            }
        }
        attempt.whenComplete((value, error) -> {
            if (error == null) {
                activations.fellBack(reason, i, failure);
                out.complete(Degraded.fallback(value, reason, tier.name(), failure));
                return;
            }
            Throwable tierFailure = Exceptions.unwrap(error);
            if (tierFailure instanceof Error) {
                out.completeExceptionally(tierFailure);
                return;
            }
            tierFailed(reason, i, failure, tierFailure);
            tryTierAsync(i + 1, reason, failure, badResult, isResult, out);
        });
    }

    @Override
    public String toString() {
        return "Fallback[" + name + ", tiers=" + tierNames + "]";
    }

    /** Runs the rest of a call through a policy: lets the typed methods wrap a pipeline. */
    private static final class PolicyChain implements Chain {
        private final Policy policy;

        PolicyChain(Policy policy) {
            this.policy = policy;
        }

        @Override
        public <R, E extends Throwable> R proceed(CheckedSupplier<R, E> call) throws E {
            return policy.execute(call);
        }

        @Override
        public <R> CompletionStage<R> proceedAsync(Supplier<? extends CompletionStage<R>> call) {
            return policy.executeAsync(call);
        }
    }
}
