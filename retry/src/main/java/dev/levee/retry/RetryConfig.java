package dev.levee.retry;

import dev.levee.core.Classifier;
import dev.levee.core.Deadline;
import dev.levee.core.RandomSource;
import dev.levee.core.Scheduler;
import dev.levee.core.Sleeper;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import org.jspecify.annotations.Nullable;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Predicate;
import org.slf4j.event.Level;

/**
 * The immutable, nameless configuration of a {@link Retry}: one config can serve many retries
 * ({@code Retry.of(name, config)}). Built by {@link #builder()} (or {@link #toBuilder()} from another
 * config); validated in {@link Builder#build()} with an {@link dev.levee.core.InvalidConfigException}
 * naming the policy ({@code Retry}), the field, the bound and the value.
 *
 * <table>
 *   <caption>Fields, defaults and bounds</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th></tr>
 *   <tr><td>{@code maxAttempts} (first attempt included)</td><td>3</td><td>[1, 1000], or
 *       {@code unlimitedAttempts()} with a {@code maxDuration}</td></tr>
 *   <tr><td>which failures are retried ({@code retryIf}, {@code retryOn}, {@code retryAll()})</td>
 *       <td>transient ones: {@link TransientFailure#isTransient(Throwable)}</td><td>—</td></tr>
 *   <tr><td>{@code maxDuration} from the first attempt's start</td><td>none</td><td>(0, 1 day]</td></tr>
 *   <tr><td>{@code backoff}</td><td>exponential 100 ms ×2, cap 10 s</td><td>not null</td></tr>
 *   <tr><td>{@code jitter}</td><td>full</td><td>not null</td></tr>
 *   <tr><td>{@code intervalFunction} (replaces backoff and jitter)</td><td>none</td><td>—</td></tr>
 *   <tr><td>{@code classifier}</td><td>{@link Classifier#defaults()}</td><td>not null</td></tr>
 *   <tr><td>{@code abortOn} / {@code abortIf} / {@code abortOnResult}</td><td>none</td><td>—</td></tr>
 *   <tr><td>{@code backoffFor(type, backoff)}</td><td>none</td><td>—</td></tr>
 *   <tr><td>{@code retryOnStatus(type, status)}</td><td>none</td><td>—</td></tr>
 *   <tr><td>{@code retryAfterExtractor}</td><td>none (Levee rejections are always read)</td><td>—</td></tr>
 *   <tr><td>{@code maxRetryAfter}</td><td>10 s</td><td>[0, 1 day]</td></tr>
 *   <tr><td>{@code budget}</td><td>a {@link RetryBudget} of the retry's own, seed 003's 20%, 10/s, 10 s
 *       ({@link #DEFAULT_BUDGETED}); better: one shared budget per downstream</td><td>—</td></tr>
 *   <tr><td>{@code logLevel} of each retry</td><td>DEBUG</td><td>not null</td></tr>
 *   <tr><td>{@code ticker}, {@code sleeper}, {@code scheduler}, {@code random}</td>
 *       <td>system ones, thread-local randomness</td><td>not null</td></tr>
 *   <tr><td>{@code executor} of asynchronous attempts after a backoff</td>
 *       <td>the first attempt's stage's default async executor</td><td>—</td></tr>
 *   <tr><td>{@code idempotency}: may the call be repeated ({@link Idempotency})</td>
 *       <td>{@link Idempotency#IDEMPOTENT}</td><td>not null; {@code NOT_IDEMPOTENT} needs
 *       {@code maxAttempts} 1</td></tr>
 *   <tr><td>{@code keyGenerator}: a {@code KEYED} call's key when none is current</td>
 *       <td>{@link IdempotencyKeyGenerator#randomUuid()}</td><td>not null</td></tr>
 * </table>
 * The defaults follow published practice: three attempts (resilience4j, Polly), exponential backoff
 * with full jitter (the AWS Architecture Blog's recommendation), and a retry budget: the seeds treat
 * the budget as part of the default retry policy (seed 003: "if more than 20% of requests are
 * retries, stop retrying"), and a deposit now costs one CAS on a striped counter and no clock read,
 * so every retry gets one unless {@link Builder#withoutBudget()} says otherwise. The default budget
 * belongs to the retry (named after it, on its ticker): one per retry name when retries come from a
 * {@link Retry#registry registry}. Layers and hedges that call the same downstream should share one
 * explicitly ({@link Builder#budget(RetryBudget)}); Levee keeps no process-wide budget by name.
 */
public final class RetryConfig {
    /** Default attempts, the first included: 3 (seed 000; seed 003's "3 retries" would be 4). */
    public static final int DEFAULT_MAX_ATTEMPTS = 3;
    /** {@code maxAttempts} of {@link Builder#unlimitedAttempts()}: bounded by {@code maxDuration} and the deadline only. */
    public static final int UNLIMITED_ATTEMPTS = Integer.MAX_VALUE;
    /** Default delay before the first retry: 100 ms (seed 000; seed 003 says 0.5 s). */
    public static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofMillis(100);
    /** Default growth of the delay per retry: ×2 (seeds 000 and 003). */
    public static final double DEFAULT_BACKOFF_MULTIPLIER = 2.0;
    /** Default cap on any delay: 10 s (seed 000; seed 003 says 30 s). */
    public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(10);
    /**
     * Default backoff: exponential from {@link #DEFAULT_INITIAL_BACKOFF}, ×{@link #DEFAULT_BACKOFF_MULTIPLIER},
     * capped at {@link #DEFAULT_MAX_BACKOFF}.
     */
    public static final Backoff DEFAULT_BACKOFF = Backoff.defaults();
    /** Default jitter: full (seed 000 says ±20%, seed 003 equal jitter; see docs/retry.md for why full). */
    public static final Jitter DEFAULT_JITTER = Jitter.full();
    /** Default rule for which failures are retried: {@link TransientFailure#isTransient(Throwable)} (seeds 000, 003). */
    public static final Predicate<Throwable> DEFAULT_RETRY_PREDICATE = TransientFailure.PREDICATE;
    /**
     * Default: retries draw from a budget ({@link RetryBudgetConfig#defaults()}, seed 003), a private
     * one unless {@link Builder#budget(RetryBudget)} shares one.
     */
    public static final boolean DEFAULT_BUDGETED = true;
    /** Default longest {@code retryAfter} hint worth waiting for. */
    public static final Duration DEFAULT_MAX_RETRY_AFTER = Duration.ofSeconds(10);
    /**
     * Default declaration: {@link Idempotency#IDEMPOTENT}, the call may be repeated (the seeds' rule is to
     * retry only such calls; Levee cannot see a call, so writes must be declared {@code KEYED} or
     * {@code NOT_IDEMPOTENT}).
     */
    public static final Idempotency DEFAULT_IDEMPOTENCY = Idempotency.IDEMPOTENT;
    /** Default key generator of {@link Idempotency#KEYED} calls: random version-4 UUIDs (Stripe's advice). */
    public static final IdempotencyKeyGenerator DEFAULT_KEY_GENERATOR = IdempotencyKeyGenerator.randomUuid();

    private static final String POLICY = "Retry";
    private static final RetryConfig DEFAULTS = new Builder().build();

    private final int maxAttempts;
    private final long maxDurationNanos;
    private final Backoff backoff;
    private final Jitter jitter;
    private final @Nullable IntervalFunction intervalFunction;
    private final Classifier classifier;
    private final @Nullable Predicate<? super Throwable> abortPredicate;
    private final @Nullable Predicate<? super Throwable> retryPredicate;
    private final @Nullable Predicate<Object> abortResultPredicate;
    private final java.util.List<TypedBackoff> typedBackoffs;
    private final @Nullable RetryAfterExtractor retryAfterExtractor;
    private final long maxRetryAfterNanos;
    private final @Nullable RetryBudget budget;
    private final boolean budgeted;
    private final Level logLevel;
    private final Ticker ticker;
    private final Sleeper sleeper;
    private final Scheduler scheduler;
    private final RandomSource random;
    private final @Nullable Executor executor;
    private final Idempotency idempotency;
    private final IdempotencyKeyGenerator keyGenerator;

    private RetryConfig(Builder b, Classifier classifier) {
        this.maxAttempts = b.maxAttempts;
        this.maxDurationNanos = b.maxDuration == null ? 0L : Deadline.saturatedNanos(b.maxDuration);
        this.backoff = b.backoff;
        this.jitter = b.jitter;
        this.intervalFunction = b.intervalFunction;
        this.classifier = classifier;
        this.abortPredicate = b.abortPredicate;
        this.retryPredicate = b.retryPredicate;
        this.abortResultPredicate = b.abortResultPredicate;
        this.typedBackoffs = java.util.List.copyOf(b.typedBackoffs);
        this.retryAfterExtractor = b.retryAfterExtractor;
        this.maxRetryAfterNanos = Deadline.saturatedNanos(b.maxRetryAfter);
        this.budget = b.budget;
        this.budgeted = b.budgeted;
        this.logLevel = b.logLevel;
        this.ticker = b.ticker;
        this.sleeper = b.sleeper;
        this.scheduler = b.scheduler;
        this.random = b.random;
        this.executor = b.executor;
        this.idempotency = b.idempotency;
        this.keyGenerator = b.keyGenerator;
    }

    /**
     * Starts a config holding the defaults. Configs are nameless: the name goes to
     * {@link Retry#of(String, RetryConfig)}, so one config can serve many retries.
     *
     * @return a builder holding the defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The default config: every {@code DEFAULT_*} constant.
     *
     * @return the config
     */
    public static RetryConfig defaults() {
        return DEFAULTS;
    }

    /**
     * A builder holding this config's values, to derive a variant.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** @return attempts, the first included */
    public int maxAttempts() {
        return maxAttempts;
    }

    /** @return the longest time from the first attempt's start to the last attempt's start, in ns; 0 = none */
    public long maxDurationNanos() {
        return maxDurationNanos;
    }

    /** @return the backoff */
    public Backoff backoff() {
        return backoff;
    }

    /** @return the jitter */
    public Jitter jitter() {
        return jitter;
    }

    /** @return the custom interval function, or null */
    public @Nullable IntervalFunction intervalFunction() {
        return intervalFunction;
    }

    /** @return what counts as a retryable failure, exceptions and results */
    public Classifier classifier() {
        return classifier;
    }

    /** @return the abort predicate, or null */
    public @Nullable Predicate<? super Throwable> abortPredicate() {
        return abortPredicate;
    }

    /**
     * @return which failures are retried (on top of the classifier counting them as failures), or
     *         null for every one ({@link Builder#retryAll()}); by default {@link #DEFAULT_RETRY_PREDICATE}
     */
    public @Nullable Predicate<? super Throwable> retryPredicate() {
        return retryPredicate;
    }

    /** @return the predicate on failed results that gives up at once, or null */
    public @Nullable Predicate<Object> abortResultPredicate() {
        return abortResultPredicate;
    }

    /** @return the per-exception-type backoffs, first match wins; empty when none */
    public java.util.List<TypedBackoff> typedBackoffs() {
        return typedBackoffs;
    }

    /** @return true if attempts are bounded only by {@code maxDuration} and the deadline */
    public boolean unlimitedAttempts() {
        return maxAttempts == UNLIMITED_ATTEMPTS;
    }

    /**
     * A backoff used for failures of one type instead of the config's backoff.
     *
     * @param type the failure type (subclasses match too)
     * @param backoff the backoff for it
     */
    public record TypedBackoff(Class<? extends Throwable> type, Backoff backoff) {
        /**
         * @param type the failure type, not null
         * @param backoff the backoff, not null
         */
        public TypedBackoff {
            Validate.notNull(POLICY, "backoffFor.type", type);
            Validate.notNull(POLICY, "backoffFor.backoff", backoff);
        }
    }

    /** @return the retry-after extractor, or null */
    public @Nullable RetryAfterExtractor retryAfterExtractor() {
        return retryAfterExtractor;
    }

    /** @return the longest retry-after hint worth waiting for, in ns */
    public long maxRetryAfterNanos() {
        return maxRetryAfterNanos;
    }

    /** @return the longest retry-after hint worth waiting for */
    public Duration maxRetryAfter() {
        return Duration.ofNanos(maxRetryAfterNanos);
    }

    /** @return the shared budget given to the builder, or null (then see {@link #budgeted()}) */
    public @Nullable RetryBudget budget() {
        return budget;
    }

    /** @return true if retries draw from a budget: a shared one ({@link #budget()}) or a private default one */
    public boolean budgeted() {
        return budgeted;
    }

    /** @return the level of the log line written for each retry */
    public Level logLevel() {
        return logLevel;
    }

    /** @return the ticker */
    public Ticker ticker() {
        return ticker;
    }

    /** @return the sleeper for synchronous backoffs */
    public Sleeper sleeper() {
        return sleeper;
    }

    /** @return the scheduler for asynchronous backoffs */
    public Scheduler scheduler() {
        return scheduler;
    }

    /** @return the randomness for jitter */
    public RandomSource random() {
        return random;
    }

    /**
     * @return where asynchronous attempts after a backoff run, or null for the default: the first
     *         attempt's stage's default async executor ({@link CompletableFuture#defaultExecutor()},
     *         usually {@link java.util.concurrent.ForkJoinPool#commonPool()})
     */
    public @Nullable Executor executor() {
        return executor;
    }

    /** @return whether the call may be repeated, and how ({@link Idempotency}) */
    public Idempotency idempotency() {
        return idempotency;
    }

    /** @return what makes a {@link Idempotency#KEYED} call's key when none is current */
    public IdempotencyKeyGenerator keyGenerator() {
        return keyGenerator;
    }

    /** Builds a {@link RetryConfig}. Not thread-safe. */
    public static final class Builder {
        private int maxAttempts = DEFAULT_MAX_ATTEMPTS;
        private @Nullable Duration maxDuration;
        private Backoff backoff = DEFAULT_BACKOFF;
        private Jitter jitter = DEFAULT_JITTER;
        private @Nullable Predicate<? super Throwable> retryPredicate = DEFAULT_RETRY_PREDICATE;
        private @Nullable Predicate<Object> abortResultPredicate;
        private final java.util.List<TypedBackoff> typedBackoffs = new java.util.ArrayList<>();
        private @Nullable IntervalFunction intervalFunction;
        private Classifier classifier = Classifier.defaults();
        private @Nullable Predicate<Object> retryOnResult;
        private @Nullable Predicate<? super Throwable> abortPredicate;
        private @Nullable RetryAfterExtractor retryAfterExtractor;
        private Duration maxRetryAfter = DEFAULT_MAX_RETRY_AFTER;
        private @Nullable RetryBudget budget;
        private boolean budgeted = DEFAULT_BUDGETED;
        private Level logLevel = Level.DEBUG;
        private Ticker ticker = Ticker.system();
        private Sleeper sleeper = Sleeper.system();
        private Scheduler scheduler = Scheduler.system();
        private RandomSource random = RandomSource.threadLocal();
        private @Nullable Executor executor;
        private Idempotency idempotency = DEFAULT_IDEMPOTENCY;
        private IdempotencyKeyGenerator keyGenerator = DEFAULT_KEY_GENERATOR;

        private Builder() {
        }

        private Builder(RetryConfig c) {
            this.maxAttempts = c.maxAttempts;
            this.maxDuration = c.maxDurationNanos == 0 ? null : Duration.ofNanos(c.maxDurationNanos);
            this.backoff = c.backoff;
            this.jitter = c.jitter;
            this.retryPredicate = c.retryPredicate;
            this.abortResultPredicate = c.abortResultPredicate;
            this.typedBackoffs.addAll(c.typedBackoffs);
            this.intervalFunction = c.intervalFunction;
            this.classifier = c.classifier; // the result predicate is already part of it
            this.abortPredicate = c.abortPredicate;
            this.retryAfterExtractor = c.retryAfterExtractor;
            this.maxRetryAfter = Duration.ofNanos(c.maxRetryAfterNanos);
            this.budget = c.budget;
            this.budgeted = c.budgeted;
            this.logLevel = c.logLevel;
            this.ticker = c.ticker;
            this.sleeper = c.sleeper;
            this.scheduler = c.scheduler;
            this.random = c.random;
            this.executor = c.executor;
            this.idempotency = c.idempotency;
            this.keyGenerator = c.keyGenerator;
        }

        /**
         * Whether the call may be repeated ({@link Idempotency}): {@code IDEMPOTENT} (the default) is
         * retried freely; {@code KEYED} is retried under one idempotency key per logical call, made by
         * {@link #keyGenerator} unless the caller attached one; {@code NOT_IDEMPOTENT} is never repeated
         * ({@code build()} refuses {@code maxAttempts} above 1).
         *
         * <pre>{@code
         * RetryConfig charges = RetryConfig.builder().idempotency(Idempotency.KEYED).build();
         * }</pre>
         *
         * @param idempotency not null
         * @return this builder
         */
        public Builder idempotency(Idempotency idempotency) {
            this.idempotency = idempotency;
            return this;
        }

        /**
         * What makes a {@link Idempotency#KEYED} call's key, once per logical call, when none is current
         * (the default: {@link IdempotencyKeyGenerator#randomUuid()};
         * {@link IdempotencyKeyGenerator#callerSupplied()} requires the caller's own). Ignored unless
         * {@code KEYED}.
         *
         * @param keyGenerator not null
         * @return this builder
         */
        public Builder keyGenerator(IdempotencyKeyGenerator keyGenerator) {
            this.keyGenerator = keyGenerator;
            return this;
        }

        /**
         * Attempts, the first included: 3 means one call and up to two retries.
         *
         * @param maxAttempts in [1, 1000]
         * @return this builder
         */
        public Builder maxAttempts(int maxAttempts) {
            this.maxAttempts = maxAttempts;
            return this;
        }

        /**
         * The longest time from the start of the first attempt to the start of the last: a backoff
         * that would end later is not started. Combines with {@code maxAttempts} (first limit wins).
         *
         * @param maxDuration in (0, 1 day], or null for none
         * @return this builder
         */
        public Builder maxDuration(@Nullable Duration maxDuration) {
            this.maxDuration = maxDuration;
            return this;
        }

        /**
         * The delay before each retry, before jitter.
         *
         * @param backoff not null
         * @return this builder
         */
        public Builder backoff(Backoff backoff) {
            this.backoff = backoff;
            return this;
        }

        /**
         * The randomization of each delay.
         *
         * @param jitter not null; {@link Jitter#none()} for exact delays
         * @return this builder
         */
        public Builder jitter(Jitter jitter) {
            this.jitter = jitter;
            return this;
        }

        /**
         * A custom delay that replaces backoff and jitter.
         *
         * @param intervalFunction the function, or null to use backoff and jitter
         * @return this builder
         */
        public Builder intervalFunction(@Nullable IntervalFunction intervalFunction) {
            this.intervalFunction = intervalFunction;
            return this;
        }

        /**
         * Which exceptions and results count as failures at all: {@code IGNORED} is returned at once;
         * a {@code FAILURE} is retried if it also matches the retry rule ({@link #retryIf}, by default
         * transient failures only). The default classifier counts every exception and no
         * {@link Error}; a result is a failure only with {@link #retryOnResult}.
         *
         * @param classifier not null
         * @return this builder
         */
        public Builder classifier(Classifier classifier) {
            this.classifier = classifier;
            return this;
        }

        /**
         * Also retries returned values matching {@code predicate}: sets the classifier's result predicate
         * (replacing one it had), so the exception rules stay as they are.
         *
         * @param predicate receives the result, possibly null
         * @return this builder
         */
        public Builder retryOnResult(Predicate<Object> predicate) {
            this.retryOnResult = predicate;
            return this;
        }

        /**
         * Retries only failures matching {@code predicate} (replacing the default rule,
         * {@link TransientFailure#isTransient(Throwable)}). A failure must also be a
         * {@code FAILURE} for the classifier and match no abort rule.
         *
         * @param predicate the rule, not null
         * @return this builder
         */
        public Builder retryIf(Predicate<? super Throwable> predicate) {
            this.retryPredicate = Validate.notNull(POLICY, "retryIf", predicate);
            return this;
        }

        /**
         * Also retries failures of these types (and subclasses), on top of the current rule (the
         * transient failures by default): {@code retryOn(IOException.class)} for a downstream whose
         * every I/O error is worth another try. After {@link #retryAll()} it changes nothing.
         *
         * @param types the types
         * @return this builder
         */
        @SafeVarargs
        @SuppressWarnings("varargs") // the array is only copied into an immutable list
        public final Builder retryOn(Class<? extends Throwable>... types) {
            Validate.check(types != null, POLICY, "retryOn", "set (not null)", null);
            java.util.List<Class<? extends Throwable>> copy = new java.util.ArrayList<>();
            for (Class<? extends Throwable> type : types) { // copied here: the array never escapes (@SafeVarargs)
                copy.add(Validate.notNull(POLICY, "retryOn type", type));
            }
            Predicate<? super Throwable> previous = retryPredicate;
            if (previous == null) {
                return this; // every failure is retried already
            }
            return retryIf(t -> {
                for (Class<? extends Throwable> type : copy) {
                    if (type.isInstance(t)) {
                        return true;
                    }
                }
                return previous.test(t);
            });
        }

        /**
         * Retries every failure the classifier counts as one (any exception but an {@link Error} by
         * default), not only transient ones: the rule before issue 12, and resilience4j's default.
         * Abort rules still apply.
         *
         * @return this builder
         */
        public Builder retryAll() {
            this.retryPredicate = null;
            return this;
        }

        /**
         * Retries results of type {@code type} whose status code is transient
         * ({@link TransientFailure#isTransientStatus(int)}: 408, 425, 429, 500, 502, 503, 504; never
         * 400, 401, 404 or 422). Sets the classifier's result predicate, like {@link #retryOnResult}.
         *
         * @param type the result type, e.g. {@code HttpResponse.class}
         * @param status reads the status code of a result
         * @param <R> the result type
         * @return this builder
         */
        public <R> Builder retryOnStatus(Class<R> type, java.util.function.ToIntFunction<? super R> status) {
            Validate.notNull(POLICY, "retryOnStatus.type", type);
            Validate.notNull(POLICY, "retryOnStatus.status", status);
            return retryOnResult(r -> type.isInstance(r) && TransientFailure.isTransientStatus(status.applyAsInt(type.cast(r))));
        }

        /**
         * Gives up at once when an attempt returns a failed result (see {@link #retryOnResult}) that
         * matches {@code predicate}; that result is returned. Combined with an earlier rule by "or".
         *
         * @param predicate receives the result, possibly null
         * @return this builder
         */
        public Builder abortOnResult(Predicate<Object> predicate) {
            Validate.notNull(POLICY, "abortOnResult", predicate);
            Predicate<Object> previous = abortResultPredicate;
            this.abortResultPredicate = previous == null ? predicate : r -> previous.test(r) || predicate.test(r);
            return this;
        }

        /**
         * Uses {@code backoff} instead of the config's backoff after failures of {@code type} (and
         * subclasses); the jitter still applies. Rules are checked in the order added, first match wins.
         * Example: a short backoff after a lost optimistic-lock race, a long one after a 503.
         *
         * @param type the failure type
         * @param backoff its backoff
         * @return this builder
         */
        public Builder backoffFor(Class<? extends Throwable> type, Backoff backoff) {
            typedBackoffs.add(new TypedBackoff(type, backoff));
            return this;
        }

        /**
         * No limit on attempts: the retry stops only when the next backoff would end past
         * {@code maxDuration} (required) or past the current deadline, when a failure is not retryable,
         * or when the budget refuses.
         *
         * @return this builder
         */
        public Builder unlimitedAttempts() {
            this.maxAttempts = UNLIMITED_ATTEMPTS;
            return this;
        }

        /**
         * Gives up at once on these exception types (and subclasses): failures that retrying cannot fix.
         *
         * @param types the types
         * @return this builder
         */
        @SafeVarargs
        @SuppressWarnings("varargs") // the array is only copied into an immutable list
        public final Builder abortOn(Class<? extends Throwable>... types) {
            Validate.check(types != null, POLICY, "abortOn", "set (not null)", null);
            java.util.List<Class<? extends Throwable>> copy = new java.util.ArrayList<>();
            for (Class<? extends Throwable> type : types) { // copied here: the array never escapes (@SafeVarargs)
                copy.add(Validate.notNull(POLICY, "abortOn type", type));
            }
            return abortIf(t -> {
                for (Class<? extends Throwable> type : copy) {
                    if (type.isInstance(t)) {
                        return true;
                    }
                }
                return false;
            });
        }

        /**
         * Gives up at once on failures matching {@code predicate}, e.g. an HTTP 4xx. Combined with an
         * earlier abort rule by "or".
         *
         * @param predicate the test
         * @return this builder
         */
        public Builder abortIf(Predicate<? super Throwable> predicate) {
            Validate.notNull(POLICY, "abortIf", predicate);
            Predicate<? super Throwable> previous = abortPredicate;
            this.abortPredicate = previous == null ? predicate : t -> previous.test(t) || predicate.test(t);
            return this;
        }

        /**
         * Reads retry-after hints from the application's failures or results (Levee rejections are
         * read anyway).
         *
         * @param extractor the extractor, or null
         * @return this builder
         */
        public Builder retryAfterExtractor(@Nullable RetryAfterExtractor extractor) {
            this.retryAfterExtractor = extractor;
            return this;
        }

        /**
         * The longest retry-after hint worth waiting for; a longer hint gives up at once (an open
         * breaker's 60 s is better reported than slept through).
         *
         * @param maxRetryAfter in [0, 1 day]
         * @return this builder
         */
        public Builder maxRetryAfter(Duration maxRetryAfter) {
            this.maxRetryAfter = maxRetryAfter;
            return this;
        }

        /**
         * Draws retries from a shared budget (recommended: one per downstream).
         *
         * @param budget the budget, not null
         * @return this builder
         */
        public Builder budget(RetryBudget budget) {
            this.budget = Validate.notNull(POLICY, "budget", budget);
            this.budgeted = true;
            return this;
        }

        /**
         * Draws retries from a budget of this retry's own, with the {@link RetryBudgetConfig} defaults
         * (20% of requests, 10/s, 10 s) on this retry's ticker: the default.
         *
         * @return this builder
         */
        public Builder defaultBudget() {
            this.budget = null;
            this.budgeted = true;
            return this;
        }

        /**
         * Retries without any budget: only {@code maxAttempts}, {@code maxDuration} and the deadline bound
         * them. Beware of retry storms when retries are layered.
         *
         * @return this builder
         */
        public Builder withoutBudget() {
            this.budget = null;
            this.budgeted = false;
            return this;
        }

        /**
         * The level of the line logged for each retry (attempt, delay, cause).
         *
         * @param logLevel not null
         * @return this builder
         */
        public Builder logLevel(Level logLevel) {
            this.logLevel = logLevel;
            return this;
        }

        /**
         * The time source.
         *
         * @param ticker not null
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = ticker;
            return this;
        }

        /**
         * How synchronous backoffs wait.
         *
         * @param sleeper not null
         * @return this builder
         */
        public Builder sleeper(Sleeper sleeper) {
            this.sleeper = sleeper;
            return this;
        }

        /**
         * How asynchronous backoffs wait.
         *
         * @param scheduler not null
         * @return this builder
         */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = scheduler;
            return this;
        }

        /**
         * Where an asynchronous attempt after a backoff runs. The scheduler's thread only hands the
         * attempt over: a Levee timer thread never runs user code, so one slow attempt cannot delay
         * every other timer. By default (null) the executor is the first attempt's stage's default
         * async executor ({@link CompletableFuture#defaultExecutor()}: the common fork-join pool, or a
         * thread per task when that pool has no parallelism). Tests pass {@code Runnable::run} to run
         * attempts on the thread that advances a {@link dev.levee.core.ManualScheduler}.
         *
         * @param executor the executor, or null for the default
         * @return this builder
         */
        public Builder executor(@Nullable Executor executor) {
            this.executor = executor;
            return this;
        }

        /**
         * The randomness for jitter.
         *
         * @param random not null
         * @return this builder
         */
        public Builder random(RandomSource random) {
            this.random = random;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the config
         * @throws dev.levee.core.InvalidConfigException naming the field, bound and value
         */
        public RetryConfig build() {
            String policy = POLICY;
            if (maxAttempts == UNLIMITED_ATTEMPTS) {
                Validate.check(maxDuration != null, policy, "maxDuration",
                        "set when attempts are unlimited (nothing else bounds a call made without a deadline)", null);
            } else {
                Validate.inRange(policy, "maxAttempts", maxAttempts, 1, 1000);
            }
            if (maxDuration != null) {
                Validate.positive(policy, "maxDuration", maxDuration);
                Validate.check(maxDuration.compareTo(Duration.ofDays(1)) <= 0, policy, "maxDuration", "<= PT24H", maxDuration);
            }
            Validate.notNull(policy, "backoff", backoff);
            Validate.notNull(policy, "jitter", jitter);
            Validate.notNull(policy, "classifier", classifier);
            Validate.nonNegative(policy, "maxRetryAfter", maxRetryAfter);
            Validate.check(maxRetryAfter.compareTo(Duration.ofDays(1)) <= 0, policy, "maxRetryAfter", "<= PT24H", maxRetryAfter);
            Validate.notNull(policy, "logLevel", logLevel);
            Validate.notNull(policy, "ticker", ticker);
            Validate.notNull(policy, "sleeper", sleeper);
            Validate.notNull(policy, "scheduler", scheduler);
            Validate.notNull(policy, "random", random);
            Validate.notNull(policy, "idempotency", idempotency);
            Validate.notNull(policy, "keyGenerator", keyGenerator);
            // Certain at build time: a call declared not idempotent, with no key, must not be repeated.
            Validate.check(idempotency != Idempotency.NOT_IDEMPOTENT || maxAttempts == 1, policy, "maxAttempts",
                    "1 when idempotency is NOT_IDEMPOTENT (a repeated non-idempotent call without a key can execute "
                            + "twice; declare KEYED to retry it under an idempotency key)",
                    maxAttempts == UNLIMITED_ATTEMPTS ? "unlimited" : maxAttempts);
            Classifier effective = retryOnResult == null ? classifier : classifier.toBuilder().failOnResult(retryOnResult).build();
            return new RetryConfig(this, effective);
        }
    }
}
