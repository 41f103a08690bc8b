package dev.levee.retry;

import dev.levee.core.Chain;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.Classifier;
import dev.levee.core.Deadline;
import dev.levee.core.EventListeners;
import dev.levee.core.Outcome;
import dev.levee.core.Policy;
import dev.levee.core.RandomSource;
import dev.levee.core.RejectedException;
import dev.levee.core.Subscription;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Exceptions;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * Runs a call again when it fails in a way that may be transient, waiting a backoff between attempts.
 *
 * <p><b>Model.</b> Retry is a wrapper: each attempt is {@code next.proceed(call)}, so inside a
 * {@link dev.levee.core.Pipeline} every attempt re-runs the policies inside the retry (a breaker
 * records each attempt, a timeout bounds each attempt). After a failed attempt the retry decides, in
 * this order:
 * <ol>
 *   <li>an {@link Error}, an interrupt ({@link InterruptedException} or the thread's flag), a failure
 *       matching an abort predicate, or one the {@link Classifier} does not count as a
 *       {@link Outcome#FAILURE} is returned at once, unchanged;</li>
 *   <li>after {@code maxAttempts} attempts, the last outcome is returned;</li>
 *   <li>the delay is the backoff with jitter (or the interval function), raised to at least the
 *       failure's {@code retryAfter} hint; a hint above {@code maxRetryAfter} gives up at once;</li>
 *   <li>a delay that would end past {@code maxDuration} from the start, or past the current
 *       {@link Deadline} ({@link Deadline#currentOrNull()}), is not started: the retry gives up;</li>
 *   <li>the {@link RetryBudget} must allow the retry, else the retry gives up;</li>
 *   <li>the retry is logged, published, waited for (the {@link dev.levee.core.Sleeper}, or the
 *       {@link dev.levee.core.Scheduler} for {@link #executeAsync}) and attempted.</li>
 * </ol>
 * Giving up rethrows the last failure, the same instance, or returns the last result when the last
 * attempt returned a value the classifier counts as a failure. No new exception type is introduced.
 *
 * <p><b>Callbacks that throw.</b> If the abort predicate, the classifier, the interval function (or its
 * null answer) or the retry-after extractor throws an {@link Exception}, the retry does not retry and
 * keeps the call's own outcome: its failure is rethrown with the callback's exception added as
 * suppressed ({@link GiveUpReason#NOT_RETRYABLE}), or its value is returned; the callback's exception
 * is logged at WARN. An {@link Error} thrown by a callback propagates.
 *
 * <p><b>Rejections are retried by default.</b> Levee's {@link RejectedException}s count as failures in
 * the default classifier, and their {@code retryAfter} hint sets the minimum wait: a rate-limited call
 * waits until a permit is due, an open breaker's call waits for half-open — unless that is longer than
 * {@code maxRetryAfter} or ends past the deadline, in which case the rejection is returned at once.
 * Use {@code abortOn(RejectedException.class)} to never retry them.
 *
 * <p><b>Interrupts.</b> If the thread is interrupted during a backoff, the retry restores the interrupt
 * flag and rethrows the last failure (or returns the last failed result) at once.
 *
 * <p><b>Cost.</b> A call that succeeds at the first attempt allocates nothing and takes no lock: one
 * call of the chain and one {@code LongAdder} increment; with a budget, also a thread-local read, one
 * ticker read and one CAS to deposit. Everything else (delay computation, events, logs) happens only on the retry path.
 *
 * <p>Thread-safe; build once, use for every call.
 */
@SuppressWarnings("NullAway") // NullAway debt (issue 11): annotate this class's nullable fields and parameters, then remove
public final class Retry implements Policy {
    private static final Logger LOG = LoggerFactory.getLogger(Retry.class);

    private final String name;
    private final RetryConfig config;
    private final int maxAttempts;
    private final long maxDurationNanos;
    private final Backoff backoff;
    private final Jitter jitter;
    private final IntervalFunction intervalFunction;
    private final Classifier classifier;
    private final boolean classifiesResults;
    private final Predicate<? super Throwable> abortPredicate;
    private final Predicate<? super Throwable> retryPredicate;
    private final Predicate<Object> abortResultPredicate;
    private final RetryConfig.TypedBackoff[] typedBackoffs;
    private final RetryAfterExtractor retryAfterExtractor;
    private final long maxRetryAfterNanos;
    private final RetryBudget budget;
    private final Level logLevel;
    private final Ticker ticker;
    private final RandomSource random;
    private final EventListeners<RetryEvent> listeners = new EventListeners<>();

    private final LongAdder successWithoutRetry = new LongAdder();
    private final LongAdder successWithRetry = new LongAdder();
    private final LongAdder failedWithoutRetry = new LongAdder();
    private final LongAdder failedWithRetry = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder budgetRefusals = new LongAdder();

    private Retry(RetryConfig config) {
        this.config = config;
        this.name = config.name();
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
        if (!config.budgeted()) {
            this.budget = null;
        } else if (config.budget() != null) {
            this.budget = config.budget();
        } else {
            this.budget = RetryBudget.of(RetryBudgetConfig.builder(name).ticker(ticker).build());
        }
    }

    /**
     * Creates a retry.
     *
     * @param config the config
     * @return the retry
     */
    public static Retry of(RetryConfig config) {
        return new Retry(Objects.requireNonNull(config, "config"));
    }

    /**
     * Creates a retry with the defaults: 3 attempts, exponential backoff from 100 ms with full jitter,
     * no budget.
     *
     * @param name the name
     * @return the retry
     */
    public static Retry ofDefaults(String name) {
        return of(RetryConfig.ofDefaults(name));
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
    public RetryBudget budget() {
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
                failedWithRetry.sum(), retries.sum(), budgetRefusals.sum());
    }

    @Override
    public <T, E extends Throwable> T execute(Chain next, CheckedSupplier<T, E> call) throws E {
        RetryBudget budget = this.budget;
        boolean outermost = budget != null && budget.enterNested();
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
                budget.exitNested(outermost);
            }
        }
    }

    /** The retry path: only reached after a failed first attempt, so it may allocate. */
    private <T, E extends Throwable> T retrying(Chain next, CheckedSupplier<T, E> call, Throwable failure, T result,
                                                long start) throws E {
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
    long decide(int attempt, long previousDelay, Throwable failure, Object result, long start, boolean sync) {
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
            budgetRefusals.increment();
            if (!listeners.isEmpty()) {
                listeners.publish(new RetryEvent.BudgetRefused(name, now, attempt, budget.name()));
            }
            return code(GiveUpReason.BUDGET);
        }
        retries.increment();
        if (LOG.isEnabledForLevel(logLevel)) {
            LOG.atLevel(logLevel).log("Retry '{}': attempt {} failed ({}); retry {} in {} ms", name, attempt,
                    failure != null ? failure.toString() : "result " + result, attempt, delay / 1_000_000.0);
        }
        if (!listeners.isEmpty()) {
            listeners.publish(new RetryEvent.Retrying(name, now, attempt, delay, failure, result));
        }
        return delay;
    }

    /**
     * A user callback (abort predicate, classifier, interval function, retry-after extractor) threw
     * while deciding: the call's own outcome is kept — its failure carries the callback's exception as
     * suppressed — and the callback's exception is logged at WARN.
     */
    private long callbackFailed(Exception callbackFailure, Throwable failure, Object result) {
        if (failure != null && failure != callbackFailure) {
            failure.addSuppressed(callbackFailure);
        }
        LOG.warn("Retry '{}': a retry callback threw; not retrying, the call's own outcome is kept ({})", name,
                failure != null ? failure.toString() : "result " + result, callbackFailure);
        return code(GiveUpReason.NOT_RETRYABLE);
    }

    /** The backoff for this failure: the first matching per-type backoff, else the config's. */
    private Backoff backoffFor(Throwable failure) {
        if (failure != null) {
            for (RetryConfig.TypedBackoff typed : typedBackoffs) {
                if (typed.type().isInstance(failure)) {
                    return typed.backoff();
                }
            }
        }
        return backoff;
    }

    private GiveUpReason nonRetryableResult(Object result) {
        return abortResultPredicate != null && abortResultPredicate.test(result) ? GiveUpReason.ABORTED : null;
    }

    private GiveUpReason nonRetryable(Throwable failure, boolean sync) {
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
    private long retryAfterNanos(Throwable failure, Object result) {
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
    private <T> T giveUp(GiveUpReason reason, int attempts, Throwable failure, T result) {
        recordGiveUp(reason, attempts, failure, result);
        if (failure != null) {
            throw Exceptions.sneakyThrow(failure);
        }
        return result;
    }

    void recordGiveUp(GiveUpReason reason, int attempts, Throwable failure, Object result) {
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
    boolean isFailedResult(Object result) {
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

    long maxDurationNanos() {
        return maxDurationNanos;
    }

    @Override
    public <T> CompletionStage<T> executeAsync(Chain next, Supplier<? extends CompletionStage<T>> call) {
        return AsyncRetry.start(this, next, call);
    }

    @Override
    public String toString() {
        return "Retry[" + name + "]";
    }
}
