package dev.levee.retry;

import dev.levee.core.Chain;
import dev.levee.core.CheckedFunction;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.Classifier;
import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.IdempotencyKey;
import dev.levee.core.internal.EventListeners;
import dev.levee.core.Outcome;
import dev.levee.core.Policy;
import dev.levee.core.PolicyRegistry;
import dev.levee.core.RandomSource;
import dev.levee.core.RejectedException;
import dev.levee.core.Subscription;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import dev.levee.core.internal.Exceptions;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import org.jspecify.annotations.Nullable;

/**
 * Runs a call again when it fails in a way that may be transient, waiting a backoff between attempts.
 *
 * <pre>{@code
 * Retry retry = Retry.of("payments", RetryConfig.builder()
 *         .maxAttempts(3)
 *         .backoff(Backoff.exponential(Duration.ofMillis(100), 2.0, Duration.ofSeconds(2)))
 *         .build());
 * Receipt receipt = retry.execute(() -> payments.charge(key, amount));
 * }</pre>
 *
 * <p><b>Model.</b> Retry is a wrapper: each attempt is {@code next.proceed(call)}, so inside a
 * {@link dev.levee.core.Pipeline} every attempt re-runs the policies inside the retry (a breaker
 * records each attempt, a timeout bounds each attempt). After a failed attempt the retry decides, in
 * this order:
 * <ol>
 *   <li>an {@link Error}, an interrupt ({@link InterruptedException} or the thread's flag), a failure
 *       the {@link Classifier} does not count as a {@link Outcome#FAILURE}, one the retry rule does not
 *       accept (by default {@link TransientFailure#isTransient}: timeouts, connection errors,
 *       rejections with a {@code retryAfter} hint, {@link Retryable} types), or one matching an abort
 *       rule, is returned at once, unchanged;</li>
 *   <li>after {@code maxAttempts} attempts, the last outcome is returned;</li>
 *   <li>the delay is the backoff (per failure type if configured) with jitter, or the interval
 *       function, raised to at least the failure's {@code retryAfter} hint; a hint above
 *       {@code maxRetryAfter} gives up at once;</li>
 *   <li>a delay that would end past {@code maxDuration} from the start, or past the current
 *       {@link Deadline}, is not started: the retry gives up;</li>
 *   <li>the {@link RetryBudget}, if any, must allow the retry, else the retry gives up;</li>
 *   <li>the retry is logged, published ({@link RetryEvent.Retried}), waited for (the
 *       {@link dev.levee.core.Sleeper}, or the {@link dev.levee.core.Scheduler} for
 *       {@link #executeAsync}) and attempted.</li>
 * </ol>
 *
 * <p><b>Across replicas.</b> {@link #execute(ReplicaSet, CheckedFunction)} and
 * {@link #executeAsync(ReplicaSet, Function)} give each attempt its own replica from a
 * {@link ReplicaSet}, preferring one this call has not tried yet (Envoy's "previous hosts" rule), so a
 * retry does not go back to the replica that just failed while another is eligible. Each attempt's
 * replica is published ({@link RetryEvent.ReplicaPicked}) and its outcome recorded in the set, which
 * ejects replicas that keep failing.
 *
 * <p><b>Writes: idempotency keys.</b> A retry is told whether its call may be repeated
 * ({@link RetryConfig.Builder#idempotency}, {@link Idempotency}). A {@link Idempotency#KEYED} retry makes
 * one {@link IdempotencyKey} per logical call before the first attempt — or takes the one already
 * current: the caller's own ({@code IdempotencyKey.of(orderId).attach()}) or an outer keyed layer's — and
 * keeps it current for every attempt, on every thread the call's attempts run on (asynchronous
 * attempts, hedges and thread-mode timeouts inside restore it): the call reads it with
 * {@link IdempotencyKey#current()} and sends it ({@code levee-http} writes the {@code Idempotency-Key}
 * field). A keyed call that has no key (the generator made none) is never repeated: the retry is refused
 * at the first retry decision ({@link GiveUpReason#NO_IDEMPOTENCY_KEY}, {@link RetryEvent.RejectedWithoutKey},
 * {@code levee.retry.rejected{kind=no_idempotency_key}}) and the first failure comes out unchanged, with a
 * {@link MissingIdempotencyKeyException} as suppressed. A {@link Idempotency#NOT_IDEMPOTENT} config with
 * more than one attempt is refused by {@code build()}.
 *
 * <p><b>Guarantees.</b>
 * <ul>
 *   <li>Giving up rethrows the last failure, the same instance, or returns the last result when the
 *       last attempt returned a value the classifier counts as a failure. No new exception type.</li>
 *   <li>An {@link Error} is never retried or swallowed; an interrupt during a backoff ends the call at
 *       once with the last outcome and the interrupt flag restored.</li>
 *   <li>A user callback that throws an {@link Exception} (abort predicate, classifier, interval
 *       function, retry-after extractor) stops the retrying and keeps the call's own outcome, the
 *       callback's exception added as suppressed and logged at WARN.</li>
 *   <li>Asynchronous attempts after a backoff run on {@link RetryConfig#executor()}, never on the
 *       scheduler's thread; cancelling the returned stage cancels the pending backoff and the attempt
 *       in flight.</li>
 * </ul>
 *
 * <p><b>Knobs</b> (defaults, see {@link RetryConfig} for bounds):
 * <table>
 *   <caption>Defaults</caption>
 *   <tr><th>knob</th><th>default</th></tr>
 *   <tr><td>{@code maxAttempts}</td><td>{@value RetryConfig#DEFAULT_MAX_ATTEMPTS}</td></tr>
 *   <tr><td>{@code backoff}</td><td>exponential 100 ms ×2, cap 10 s</td></tr>
 *   <tr><td>{@code jitter}</td><td>full</td></tr>
 *   <tr><td>which failures</td><td>transient ones ({@code retryAll()} for every failure)</td></tr>
 *   <tr><td>{@code maxRetryAfter}</td><td>10 s</td></tr>
 *   <tr><td>{@code budget}</td><td>one of the retry's own (20%, 10/s, 10 s)</td></tr>
 * </table>
 *
 * <p><b>Cost.</b> A call that succeeds at the first attempt allocates nothing and takes no lock: one
 * call of the chain and one {@code LongAdder} increment; with a budget (the default), also a
 * thread-local read and one CAS on a striped counter to deposit, no clock read. Everything else (delay computation, events, logs) happens only
 * on the retry path. A retry that is not {@code KEYED} never touches the idempotency key; a {@code KEYED}
 * one pays per call one thread-local read, and, when it makes the key, the generator (a 36-character
 * UUID string) and one scope object.
 *
 * <p>Thread-safe; build once, use for every call.
 */
public final class Retry implements Policy {
    /*
     * Implementation notes (for maintainers).
     *
     * - decide() is shared by the synchronous loop and AsyncRetry. It answers a delay (>= 0) after
     *   having withdrawn from the budget, published and logged, or a give-up reason encoded as
     *   -(ordinal + 1), so the hot decision returns a primitive and allocates nothing itself.
     * - Each non-negative answer is one withdrawal; the caller must call retryEnded() exactly once
     *   for it (after the attempt, or when the attempt never starts: an interrupt during the backoff,
     *   a cancelled async call, an executor that refuses the attempt).
     * - Budget nesting: enterNested()/exitNested() keep a per-thread depth so that nested layers
     *   sharing one budget deposit once per request. AsyncRetry deposits unless the calling thread is
     *   already inside a request of that budget.
     * - AsyncRetry keeps only the newest scheduled backoff (PendingBackoff, tagged with its attempt)
     *   so that a slow store of an older handle cannot hide a newer one from cancellation.
     */
    private static final Logger LOG = LoggerFactory.getLogger(Retry.class);
    private static final String POLICY = "Retry";
    /** The depth placeholder of a retry without a budget (never written). */
    private static final int[] NO_DEPTH = new int[0];

    private final String name;
    private final RetryConfig config;
    private final int maxAttempts;
    private final long maxDurationNanos;
    private final Backoff backoff;
    private final Jitter jitter;
    private final @Nullable IntervalFunction intervalFunction;
    private final Classifier classifier;
    private final boolean classifiesResults;
    private final @Nullable Predicate<? super Throwable> abortPredicate;
    private final @Nullable Predicate<? super Throwable> retryPredicate;
    private final @Nullable Predicate<Object> abortResultPredicate;
    private final RetryConfig.TypedBackoff[] typedBackoffs;
    private final @Nullable RetryAfterExtractor retryAfterExtractor;
    private final long maxRetryAfterNanos;
    private final @Nullable RetryBudget budget;
    private final Level logLevel;
    private final Ticker ticker;
    private final RandomSource random;
    private final EventListeners<RetryEvent> listeners = new EventListeners<>();
    /** Declared {@link Idempotency#KEYED}: each call carries a key, made by {@link #keyGenerator} if needed. */
    private final boolean keyed;
    private final IdempotencyKeyGenerator keyGenerator;
    private final AtomicBoolean warnedWithoutKey = new AtomicBoolean();

    private final LongAdder successWithoutRetry = new LongAdder();
    private final LongAdder successWithRetry = new LongAdder();
    private final LongAdder failedWithoutRetry = new LongAdder();
    private final LongAdder failedWithRetry = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder rejectedWithoutKey = new LongAdder();

    private Retry(String name, RetryConfig config) {
        this.config = config;
        this.name = name;
        this.maxAttempts = config.maxAttempts();
        this.maxDurationNanos = config.maxDurationNanos();
        this.backoff = config.backoff();
        this.jitter = config.jitter();
        this.intervalFunction = config.intervalFunction();
        this.classifier = config.classifier();
        this.classifiesResults = classifier.classifiesResults();
        this.abortPredicate = config.abortPredicate();
        this.retryPredicate = config.retryPredicate();
        this.abortResultPredicate = config.abortResultPredicate();
        this.typedBackoffs = config.typedBackoffs().toArray(new RetryConfig.TypedBackoff[0]);
        this.retryAfterExtractor = config.retryAfterExtractor();
        this.maxRetryAfterNanos = config.maxRetryAfterNanos();
        this.logLevel = config.logLevel();
        this.ticker = config.ticker();
        this.random = config.random();
        this.keyed = config.idempotency() == Idempotency.KEYED;
        this.keyGenerator = config.keyGenerator();
        if (!config.budgeted()) {
            this.budget = null;
        } else if (config.budget() != null) {
            this.budget = config.budget();
        } else {
            this.budget = RetryBudget.of(name, RetryBudgetConfig.builder().ticker(ticker).build());
        }
    }

    /**
     * Creates a retry.
     *
     * @param name the retry's name, used in events, logs and metric tags; not blank
     * @param config the config, not null
     * @return the retry
     * @throws dev.levee.core.InvalidConfigException on a blank name or a null config
     */
    public static Retry of(String name, RetryConfig config) {
        Validate.name(POLICY, name);
        Validate.notNull(Validate.describe(POLICY, name), "config", config);
        return new Retry(name, config);
    }

    /**
     * Creates a retry with {@link RetryConfig#defaults()}: 3 attempts, exponential backoff from 100 ms
     * with full jitter, transient failures only, a retry budget of its own.
     *
     * @param name the name
     * @return the retry
     */
    public static Retry ofDefaults(String name) {
        return of(name, RetryConfig.defaults());
    }

    /**
     * A registry of retries by name, created on first use from the default config or a named one
     * ({@link PolicyRegistry#addConfig}).
     *
     * @param defaultConfig the config of retries created without a named config
     * @return a new registry
     */
    public static PolicyRegistry<RetryConfig, Retry> registry(RetryConfig defaultConfig) {
        return PolicyRegistry.create(defaultConfig, Retry::of);
    }

    @Override
    public String name() {
        return name;
    }

    /** @return the config */
    public RetryConfig config() {
        return config;
    }

    /** @return the budget retries draw from, or null without a budget */
    public @Nullable RetryBudget budget() {
        return budget;
    }

    /**
     * Subscribes to this retry's events: retries, successes, give-ups, budget refusals.
     *
     * @param listener runs on the deciding thread; must be fast
     * @return closing it unsubscribes
     */
    public Subscription onEvent(Consumer<? super RetryEvent> listener) {
        return listeners.subscribe(listener);
    }

    /**
     * Counters since creation.
     *
     * @return a snapshot
     */
    public RetryMetrics metrics() {
        return new RetryMetrics(successWithoutRetry.sum(), successWithRetry.sum(), failedWithoutRetry.sum(),
                failedWithRetry.sum(), retries.sum(), rejected.sum(), rejectedWithoutKey.sum());
    }

    @Override
    public <T, E extends Throwable> T execute(Chain next, CheckedSupplier<T, E> call) throws E {
        if (keyed) {
            return executeKeyed(next, call);
        }
        return executeAttempts(next, call);
    }

    /** A {@link Idempotency#KEYED} call: its key is current for the whole call, every attempt included. */
    @SuppressWarnings("try") // the scope is held only to make the key current
    private <T, E extends Throwable> T executeKeyed(Chain next, CheckedSupplier<T, E> call) throws E {
        ContextScope scope = KeyScopes.attach(keyGenerator);
        if (scope == null) {
            return executeAttempts(next, call);
        }
        try (scope) {
            return executeAttempts(next, call);
        }
    }


    private <T, E extends Throwable> T executeAttempts(Chain next, CheckedSupplier<T, E> call) throws E {
        RetryBudget budget = this.budget;
        int[] depth = budget != null ? budget.enterNested() : NO_DEPTH;
        try {
            long start = maxDurationNanos > 0 ? ticker.read() : 0L;
            T result;
            try {
                result = next.proceed(call);
            } catch (Throwable failure) {
                return retrying(next, call, failure, null, start);
            }
            if (classifiesResults && isFailedResult(result)) {
                return retrying(next, call, null, result, start);
            }
            successWithoutRetry.increment();
            if (!listeners.isEmpty()) {
                listeners.publish(new RetryEvent.Succeeded(name, ticker.read(), 1));
            }
            return result;
        } finally {
            if (budget != null) {
                budget.exitNested(depth);
            }
        }
    }

    /**
     * Runs the call with each attempt against its own replica, preferring one this call has not tried.
     *
     * <pre>{@code
     * Receipt receipt = retry.execute(replicas, replica -> payments.charge(replica, key, amount));
     * }</pre>
     *
     * @param replicas the replicas
     * @param call the call, given an attempt's replica
     * @param <R> the replica type
     * @param <T> the result type
     * @param <E> what the call may throw
     * @return the call's value
     * @throws E the last failure, unchanged, when the retry gives up
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
     * @return the call's stage
     */
    public <R, T> CompletionStage<T> executeAsync(ReplicaSet<R> replicas,
                                                  Function<? super R, ? extends CompletionStage<T>> call) {
        return executeAsync(attemptsAcross(replicas).async(call));
    }

    private <R> ReplicaAttempts<R> attemptsAcross(ReplicaSet<R> replicas) {
        Objects.requireNonNull(replicas, "replicas");
        return new ReplicaAttempts<>(replicas, (failure, result) -> failure != null
                ? classifier.classify(failure) == Outcome.FAILURE
                : isFailedResult(result), this::replicaPicked);
    }

    private void replicaPicked(int attempt, int index, Object replica) {
        if (!listeners.isEmpty()) {
            listeners.publish(new RetryEvent.ReplicaPicked(name, ticker.read(), attempt, index, replica));
        }
    }

    /**
     * The retry path: only reached after a failed first attempt, so it may allocate. A call's result
     * may be null whatever {@code T} is (the caller's type), so NullAway's non-null reading of an
     * unannotated type variable does not apply to {@code result}.
     */
    @SuppressWarnings("NullAway") // result: the call's value of the caller's type T, which may be null
    private <T, E extends Throwable> T retrying(Chain next, CheckedSupplier<T, E> call, @Nullable Throwable failure,
                                                @Nullable T result, long start) throws E {
        if (maxDurationNanos <= 0) {
            start = ticker.read();
        }
        int attempt = 1;
        long previousDelay = 0L;
        while (true) {
            long delay = decide(attempt, previousDelay, failure, result, start, true);
            if (delay < 0) {
                return giveUp(reasonOf(delay), attempt, failure, result);
            }
            try {
                config.sleeper().sleep(delay);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                retryEnded();
                return giveUp(GiveUpReason.INTERRUPTED, attempt, failure, result);
            }
            attempt++;
            previousDelay = delay;
            try {
                result = next.proceed(call);
                failure = null;
            } catch (Throwable t) {
                failure = t;
                result = null;
            } finally {
                retryEnded();
            }
            if (failure == null && !isFailedResult(result)) {
                succeededAfterRetry(attempt);
                return result;
            }
        }
    }

    // ---- decisions shared by the synchronous and asynchronous paths ----

    /**
     * Decides what follows a failed attempt; on a non-negative answer a retry was withdrawn from the
     * budget, published and logged, and the caller must wait that long, attempt again and then call
     * {@link #retryEnded()}.
     *
     * @return the delay in ns, or {@code -(reason.ordinal() + 1)} to give up
     */
    long decide(int attempt, long previousDelay, @Nullable Throwable failure, @Nullable Object result, long start,
                boolean sync) {
        long delay;
        long hint;
        try {
            GiveUpReason reason = failure == null ? nonRetryableResult(result) : nonRetryable(failure, sync);
            if (reason != null) {
                return code(reason);
            }
            if (attempt >= maxAttempts) {
                return code(GiveUpReason.MAX_ATTEMPTS);
            }
            if (keyed && IdempotencyKey.currentOrNull() == null) {
                return refusedWithoutKey(attempt, failure, result);
            }
            delay = -1L;
            if (intervalFunction != null) {
                // A negative answer falls back to the backoff: never a silent zero (a hot loop).
                delay = Deadline.saturatedNanos(Objects.requireNonNull(
                        intervalFunction.delay(attempt, failure, result), "intervalFunction returned null"));
            }
            if (delay < 0) {
                Backoff b = backoffFor(failure);
                delay = jitter.apply(b.delayNanos(attempt), previousDelay, b.initialNanos(), b.maxNanos(), random);
            }
            hint = retryAfterNanos(failure, result);
        } catch (Exception callbackFailure) {
            return callbackFailed(callbackFailure, failure, result);
        }
        if (hint > maxRetryAfterNanos) {
            return code(GiveUpReason.RETRY_AFTER_TOO_LONG);
        }
        delay = Math.max(delay, hint);
        long now = ticker.read();
        if (maxDurationNanos > 0 && delay > maxDurationNanos - (now - start)) {
            return code(GiveUpReason.MAX_DURATION);
        }
        Deadline deadline = Deadline.currentOrNull();
        if (deadline != null && delay >= deadline.remainingNanos()) {
            return code(GiveUpReason.DEADLINE);
        }
        if (budget != null && !budget.tryRetry()) {
            rejected.increment();
            if (!listeners.isEmpty()) {
                listeners.publish(new RetryEvent.Rejected(name, now, attempt, budget.name()));
            }
            return code(GiveUpReason.BUDGET);
        }
        retries.increment();
        if (LOG.isEnabledForLevel(logLevel)) {
            LOG.atLevel(logLevel).log("Retry '{}': attempt {} failed ({}); retry {} in {} ms", name, attempt,
                    failure != null ? failure.toString() : "result " + result, attempt, delay / 1_000_000.0);
        }
        if (!listeners.isEmpty()) {
            listeners.publish(new RetryEvent.Retried(name, now, attempt, delay, failure, result));
        }
        return delay;
    }

    /**
     * A user callback (abort predicate, classifier, interval function, retry-after extractor) threw
     * while deciding: the call's own outcome is kept — its failure carries the callback's exception as
     * suppressed — and the callback's exception is logged at WARN.
     */
    private long callbackFailed(Exception callbackFailure, @Nullable Throwable failure, @Nullable Object result) {
        if (failure != null && failure != callbackFailure) {
            failure.addSuppressed(callbackFailure);
        }
        LOG.warn("Retry '{}': a retry callback threw; not retrying, the call's own outcome is kept ({})", name,
                failure != null ? failure.toString() : "result " + result, callbackFailure);
        return code(GiveUpReason.NOT_RETRYABLE);
    }

    /**
     * A keyed call without a key would be repeated: refuse. The call's failure comes out unchanged, with
     * the reason as suppressed (added once, so a failure instance thrown again and again does not grow);
     * the first refusal of this retry is logged at WARN (a missing key is a bug to fix, not a state to
     * report per call).
     */
    private long refusedWithoutKey(int attempt, @Nullable Throwable failure, @Nullable Object result) {
        rejectedWithoutKey.increment();
        if (failure != null && !carriesRefusal(failure)) {
            failure.addSuppressed(new MissingIdempotencyKeyException(name));
        }
        if (warnedWithoutKey.compareAndSet(false, true)) {
            LOG.warn("Retry '{}': a call declared KEYED carried no idempotency key; not retried, its first outcome "
                    + "is returned ({}). Attach the caller's key or configure a key generator; logged once",
                    name, failure != null ? failure.toString() : "result " + result);
        }
        if (!listeners.isEmpty()) {
            listeners.publish(new RetryEvent.RejectedWithoutKey(name, ticker.read(), attempt, failure, result));
        }
        return code(GiveUpReason.NO_IDEMPOTENCY_KEY);
    }

    private static boolean carriesRefusal(Throwable failure) {
        for (Throwable suppressed : failure.getSuppressed()) {
            if (suppressed instanceof MissingIdempotencyKeyException) {
                return true;
            }
        }
        return false;
    }

    /** The backoff for this failure: the first matching per-type backoff, else the config's. */
    private Backoff backoffFor(@Nullable Throwable failure) {
        if (failure != null) {
            for (RetryConfig.TypedBackoff typed : typedBackoffs) {
                if (typed.type().isInstance(failure)) {
                    return typed.backoff();
                }
            }
        }
        return backoff;
    }

    private @Nullable GiveUpReason nonRetryableResult(@Nullable Object result) {
        return abortResultPredicate != null && abortResultPredicate.test(result) ? GiveUpReason.ABORTED : null;
    }

    private @Nullable GiveUpReason nonRetryable(Throwable failure, boolean sync) {
        if (failure instanceof Error || failure instanceof InterruptedException
                || (sync && Thread.currentThread().isInterrupted())) {
            return GiveUpReason.NOT_RETRYABLE;
        }
        if (abortPredicate != null && abortPredicate.test(failure)) {
            return GiveUpReason.ABORTED;
        }
        if (classifier.classify(failure) != Outcome.FAILURE) {
            return GiveUpReason.NOT_RETRYABLE;
        }
        return retryPredicate == null || retryPredicate.test(failure) ? null : GiveUpReason.NOT_RETRYABLE;
    }

    /** The longest of the Levee rejection's hint and the extractor's, in ns; 0 when none. */
    private long retryAfterNanos(@Nullable Throwable failure, @Nullable Object result) {
        long hint = failure instanceof RejectedException ? ((RejectedException) failure).retryAfterNanos() : 0L;
        if (retryAfterExtractor != null) {
            Duration extracted = retryAfterExtractor.retryAfter(failure, result);
            if (extracted != null) {
                hint = Math.max(hint, Deadline.saturatedNanos(extracted));
            }
        }
        return hint;
    }

    private static long code(GiveUpReason reason) {
        return -(reason.ordinal() + 1L);
    }

    static GiveUpReason reasonOf(long code) {
        return GiveUpReason.values()[(int) (-code - 1)];
    }

    /** A retry attempt allowed by {@link #decide} ended (or was abandoned). */
    void retryEnded() {
        if (budget != null) {
            budget.onRetryEnd();
        }
    }

    void succeededAfterRetry(int attempts) {
        successWithRetry.increment();
        if (!listeners.isEmpty()) {
            listeners.publish(new RetryEvent.Succeeded(name, ticker.read(), attempts));
        }
    }

    void succeededFirstTime() {
        successWithoutRetry.increment();
        if (!listeners.isEmpty()) {
            listeners.publish(new RetryEvent.Succeeded(name, ticker.read(), 1));
        }
    }

    /** Records giving up; rethrows the failure unchanged or returns the failed result. */
    @SuppressWarnings("unchecked")
    private <T> T giveUp(GiveUpReason reason, int attempts, @Nullable Throwable failure, T result) {
        recordGiveUp(reason, attempts, failure, result);
        if (failure != null) {
            throw Exceptions.sneakyThrow(failure);
        }
        return result;
    }

    void recordGiveUp(GiveUpReason reason, int attempts, @Nullable Throwable failure, @Nullable Object result) {
        (attempts > 1 ? failedWithRetry : failedWithoutRetry).increment();
        if (attempts > 1 && LOG.isEnabledForLevel(logLevel)) {
            LOG.atLevel(logLevel).log("Retry '{}': giving up after {} attempts ({}): {}", name, attempts, reason,
                    failure != null ? failure.toString() : "result " + result);
        }
        if (!listeners.isEmpty()) {
            listeners.publish(new RetryEvent.GaveUp(name, ticker.read(), attempts, reason, failure, result));
        }
    }

    /** A classifier that throws on a result counts it as a success: the call's value is kept (and the exception logged). */
    boolean isFailedResult(@Nullable Object result) {
        if (!classifiesResults) {
            return false;
        }
        try {
            return classifier.classifyResult(result) == Outcome.FAILURE;
        } catch (Exception callbackFailure) {
            LOG.warn("Retry '{}': the classifier threw on result {}; the result is returned as it is", name, result,
                    callbackFailure);
            return false;
        }
    }

    Ticker ticker() {
        return ticker;
    }

    @Override
    @SuppressWarnings("try") // the scope is held only to make the key current while the context is captured
    public <T> CompletionStage<T> executeAsync(Chain next, Supplier<? extends CompletionStage<T>> call) {
        if (!keyed) {
            return AsyncRetry.start(this, next, call);
        }
        // The first attempt starts here, and the call's context (key included) is captured here for the
        // later attempts, which restore it on the executor's threads.
        ContextScope scope = KeyScopes.attach(keyGenerator);
        if (scope == null) {
            return AsyncRetry.start(this, next, call);
        }
        try (scope) {
            return AsyncRetry.start(this, next, call);
        }
    }

    @Override
    public String toString() {
        return "Retry[" + name + "]";
    }
}
