package dev.levee.retry;

import dev.levee.core.internal.LatencyQuantile;
import dev.levee.core.Chain;
import dev.levee.core.CheckedFunction;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.ContextScope;
import dev.levee.core.IdempotencyKey;
import dev.levee.core.internal.EventListeners;
import dev.levee.core.Outcome;
import dev.levee.core.Policy;
import dev.levee.core.PolicyRegistry;
import dev.levee.core.internal.Validate;
import dev.levee.core.Subscription;
import dev.levee.core.internal.Exceptions;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Answers slowness with redundancy: if the first attempt has not answered after the hedge delay, a
 * second is started (then a third, … up to {@code maxHedges} extra), and the first acceptable answer
 * wins; the others are cancelled.
 *
 * <p><b>Model.</b> The hedge delay is fixed or a percentile (default p95) of the latencies of recent
 * acceptable answers, so only the slowest few percent of calls are hedged and the extra load stays
 * around {@code 1 - percentile} (5% at the default p95). Every hedge draws from a {@link RetryBudget}; when the budget
 * refuses, no further hedge starts for that call (an event and the {@code rejected} counter
 * say so). Each attempt runs the rest of the chain ({@code next}), so policies inside the hedge run
 * per attempt.
 *
 * <p><b>Outcomes.</b> An attempt's result is acceptable unless the {@link dev.levee.core.Classifier}
 * counts it as a failure; a thrown exception the classifier ignores (by default every {@link Error})
 * is a definitive answer too and ends the call at once, unchanged. A failed attempt does not start a new one — hedging is for slowness; put a
 * {@link Retry} outside the hedge for failures. When every started attempt has failed and no hedge is
 * pending, the call fails with the last failure, unchanged (or returns the last failed result).
 *
 * <p><b>Cancellation.</b> Losers are cancelled: asynchronous attempts through
 * {@code toCompletableFuture().cancel(true)}, synchronous ones by interrupting their thread. Cancelling
 * the stage returned by {@link #executeAsync} cancels every attempt and stops further hedges.
 *
 * <p><b>Across replicas.</b> {@link #execute(ReplicaSet, CheckedFunction)} and
 * {@link #executeAsync(ReplicaSet, Function)} give each attempt its own replica from a
 * {@link ReplicaSet}: every hedge goes to a replica this call has not tried while an eligible one
 * remains (Tail at Scale's "send the hedge to another replica"), so a hedge does not land on the node
 * that is slow. Each attempt's replica is published ({@link HedgeEvent.ReplicaPicked}) and its outcome
 * recorded in the set (a loser's time counts as a lower bound of its replica's latency).
 *
 * <p><b>Writes.</b> Declared {@link Idempotency#KEYED} ({@link HedgeConfig.Builder#idempotency}), a hedge
 * makes one {@link IdempotencyKey} per logical call (unless one is current already: the caller's, or an
 * outer keyed retry's) and every attempt, on whichever thread it runs, reads that same key; a keyed call
 * without a key is not hedged ({@link HedgeEvent.RejectedWithoutKey}). Inside a keyed {@link Retry},
 * the attempts of an {@code IDEMPOTENT} hedge carry the retry's key anyway.
 *
 * <p><b>Synchronous form.</b> {@link #execute} runs every attempt, the first included, on the config's
 * executor (with the caller's current {@link dev.levee.core.Deadline}) and waits for the winner. If the
 * caller is interrupted while waiting, the attempts are cancelled, the interrupt flag is restored and a
 * {@link CancellationException} is thrown.
 *
 * <p><b>Knobs</b> ({@link HedgeConfig}):
 * <table>
 *   <caption>Defaults</caption>
 *   <tr><th>knob</th><th>default</th></tr>
 *   <tr><td>delay</td><td>adaptive: p95 ({@value HedgeConfig#DEFAULT_PERCENTILE}) of recent latencies,
 *       100 ms until {@value HedgeConfig#MIN_SAMPLES} are known</td></tr>
 *   <tr><td>{@code maxHedges}</td><td>{@value HedgeConfig#DEFAULT_MAX_HEDGES}</td></tr>
 *   <tr><td>{@code budget}</td><td>a private default {@link RetryBudget}</td></tr>
 *   <tr><td>{@code asyncExecutor}</td><td>the default async executor (hedges never start on the timer thread)</td></tr>
 * </table>
 *
 * <p><b>Cost.</b> A hedged call allocates (a future per attempt, a timer); use it where tail latency
 * matters more than a few hundred bytes per call. Thread-safe.
 */
public final class Hedge implements Policy {
    private final String name;
    private final HedgeConfig config;
    private final @Nullable RetryBudget budget;
    private final @Nullable LatencyQuantile latencies;
    private final EventListeners<HedgeEvent> listeners = new EventListeners<>();
    private final LongAdder calls = new LongAdder();
    private final LongAdder hedges = new LongAdder();
    private final LongAdder hedgeWins = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder rejectedWithoutKey = new LongAdder();
    private final boolean keyed;

    private static final String POLICY = "Hedge";

    private Hedge(String name, HedgeConfig config) {
        this.config = config;
        this.name = name;
        this.keyed = config.idempotency() == Idempotency.KEYED;
        if (!config.budgeted()) {
            this.budget = null;
        } else if (config.budget() != null) {
            this.budget = config.budget();
        } else {
            this.budget = RetryBudget.of(name, RetryBudgetConfig.builder().ticker(config.ticker()).build());
        }
        this.latencies = Double.isNaN(config.percentile())
                ? null : new LatencyQuantile(config.percentile(), HedgeConfig.WINDOW, HedgeConfig.MIN_SAMPLES,
                        HedgeConfig.WINDOW / 10);
    }

    /**
     * Creates a hedge.
     *
     * @param name the hedge's name, used in events, logs and metrics; not blank
     * @param config the config, not null
     * @return the hedge
     * @throws dev.levee.core.InvalidConfigException on a blank name or a null config
     */
    public static Hedge of(String name, HedgeConfig config) {
        Validate.name(POLICY, name);
        Validate.notNull(Validate.describe(POLICY, name), "config", config);
        return new Hedge(name, config);
    }

    /**
     * Creates a hedge with {@link HedgeConfig#defaults()}: one hedge after the p95 of recent latencies.
     *
     * @param name the hedge's name
     * @return the hedge
     */
    public static Hedge ofDefaults(String name) {
        return of(name, HedgeConfig.defaults());
    }

    /**
     * A registry of hedges by name, created on first use from the default config or a named one.
     *
     * @param defaultConfig the config of hedges created without a named config
     * @return a new registry
     */
    public static PolicyRegistry<HedgeConfig, Hedge> registry(HedgeConfig defaultConfig) {
        return PolicyRegistry.create(defaultConfig, Hedge::of);
    }

    @Override
    public String name() {
        return name;
    }

    /** @return the config */
    public HedgeConfig config() {
        return config;
    }

    /** @return the budget hedges draw from, or null */
    public @Nullable RetryBudget budget() {
        return budget;
    }

    /**
     * The delay after which the next hedge starts now: fixed, or the current percentile estimate (a
     * histogram estimate within 1/32 ≈ 3.1 % of the nearest-rank percentile of the covered latencies).
     *
     * @return the delay in nanoseconds
     */
    public long currentDelayNanos() {
        if (latencies == null) {
            return config.delayNanos();
        }
        long estimate = latencies.quantileNanos();
        return estimate < 0 ? config.delayNanos() : estimate; // -1 until MIN_SAMPLES are known
    }

    /**
     * Subscribes to hedge events ({@link HedgeEvent.Hedged}, {@link HedgeEvent.Rejected}).
     *
     * @param listener runs on the deciding thread; must be fast
     * @return closing it unsubscribes
     */
    public Subscription onEvent(Consumer<? super HedgeEvent> listener) {
        return listeners.subscribe(listener);
    }

    /**
     * Counters since creation.
     *
     * @return a snapshot
     */
    public HedgeMetrics metrics() {
        return new HedgeMetrics(calls.sum(), hedges.sum(), hedgeWins.sum(), rejected.sum(), rejectedWithoutKey.sum());
    }

    @Override
    @SuppressWarnings("try") // the scope is held only to make the key current while the call's context is captured
    public <T, E extends Throwable> T execute(Chain next, CheckedSupplier<T, E> call) throws E {
        ContextScope scope = keyed ? KeyScopes.attach(config.keyGenerator()) : null;
        if (scope == null) {
            return await(HedgeExecution.sync(this, next, call));
        }
        try (scope) {
            return await(HedgeExecution.sync(this, next, call));
        }
    }

    private <T> T await(HedgeExecution<T> execution) {
        try {
            return execution.result().get();
        } catch (ExecutionException failed) {
            throw Exceptions.sneakyThrow(failed.getCause());
        } catch (InterruptedException interrupted) {
            execution.result().cancel(true);
            Thread.currentThread().interrupt();
            throw new CancellationException("Hedge '" + name + "': interrupted while waiting for an answer");
        }
    }

    @Override
    @SuppressWarnings("try") // the scope is held only to make the key current while the call's context is captured
    public <T> CompletionStage<T> executeAsync(Chain next, Supplier<? extends CompletionStage<T>> call) {
        ContextScope scope = keyed ? KeyScopes.attach(config.keyGenerator()) : null;
        if (scope == null) {
            return HedgeExecution.async(this, next, call).result();
        }
        try (scope) {
            return HedgeExecution.async(this, next, call).result();
        }
    }

    /**
     * Runs the call with each attempt against its own replica: the first as the set's rule chooses,
     * each hedge on a replica this call has not tried while an eligible one remains.
     *
     * <pre>{@code
     * String body = hedge.execute(replicas, replica -> client.get(replica, "/items/42"));
     * }</pre>
     *
     * @param replicas the replicas
     * @param call the call, given an attempt's replica
     * @param <R> the replica type
     * @param <T> the result type
     * @param <E> what the call may throw
     * @return the first acceptable answer
     * @throws E the last failure when every attempt failed, unchanged
     */
    public <R, T, E extends Throwable> T execute(ReplicaSet<R> replicas, CheckedFunction<? super R, ? extends T, E> call)
            throws E {
        return execute(attemptsAcross(replicas).<T, E>sync(call));
    }

    /**
     * The asynchronous form of {@link #execute(ReplicaSet, CheckedFunction)}.
     *
     * @param replicas the replicas
     * @param call starts the call against an attempt's replica
     * @param <R> the replica type
     * @param <T> the result type
     * @return the first acceptable answer's stage
     */
    public <R, T> CompletionStage<T> executeAsync(ReplicaSet<R> replicas,
                                                  Function<? super R, ? extends CompletionStage<T>> call) {
        return executeAsync(attemptsAcross(replicas).async(call));
    }

    private <R> ReplicaAttempts<R> attemptsAcross(ReplicaSet<R> replicas) {
        java.util.Objects.requireNonNull(replicas, "replicas");
        return new ReplicaAttempts<>(replicas, (failure, result) -> failure != null
                ? config.classifier().classify(failure) == Outcome.FAILURE
                : !acceptable(result), this::replicaPicked);
    }

    private void replicaPicked(int attempt, int index, Object replica) {
        if (!listeners.isEmpty()) {
            listeners.publish(new HedgeEvent.ReplicaPicked(name, config.ticker().read(), attempt, index, replica));
        }
    }

    // ---- used by HedgeExecution ----

    boolean acceptable(@Nullable Object result) {
        return !config.classifier().classifiesResults() || config.classifier().classifyResult(result) == Outcome.SUCCESS;
    }

    /** A failure the classifier ignores (a 4xx, an {@link Error}) is a definitive answer: it ends the call at once. */
    boolean definitive(Throwable failure) {
        return config.classifier().classify(failure) != Outcome.FAILURE;
    }

    void recordLatency(long nanos) {
        if (latencies != null) {
            latencies.record(nanos);
        }
    }

    void callStarted() {
        calls.increment();
    }

    /**
     * Asks the budget for hedge {@code attempt}; publishes the outcome.
     *
     * @return true if the hedge may start
     */
    boolean tryHedge(int attempt, long delayNanos) {
        if (keyed && IdempotencyKey.currentOrNull() == null) { // runs in the call's restored context
            rejectedWithoutKey.increment();
            if (!listeners.isEmpty()) {
                listeners.publish(new HedgeEvent.RejectedWithoutKey(name, config.ticker().read(), attempt));
            }
            return false;
        }
        if (budget != null && !budget.tryRetry()) {
            rejected.increment();
            if (!listeners.isEmpty()) {
                listeners.publish(new HedgeEvent.Rejected(name, config.ticker().read(), attempt, budget.name()));
            }
            return false;
        }
        hedges.increment();
        if (!listeners.isEmpty()) {
            listeners.publish(new HedgeEvent.Hedged(name, config.ticker().read(), attempt, delayNanos));
        }
        return true;
    }

    void hedgeWon() {
        hedgeWins.increment();
    }

    @Override
    public String toString() {
        return "Hedge[" + name + "]";
    }
}
