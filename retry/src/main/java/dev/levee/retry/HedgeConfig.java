package dev.levee.retry;

import dev.levee.core.Classifier;
import dev.levee.core.Deadline;
import dev.levee.core.Scheduler;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import org.jspecify.annotations.Nullable;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The immutable, nameless configuration of a {@link Hedge}, built by {@link #builder()} (or
 * {@link #toBuilder()}) and validated in {@link Builder#build()} with an
 * {@link dev.levee.core.InvalidConfigException} naming the policy ({@code Hedge}), field, bound and
 * value.
 *
 * <table>
 *   <caption>Fields, defaults and bounds</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th></tr>
 *   <tr><td>hedge delay</td><td>adaptive: the 95th percentile of the last {@value #WINDOW} to
 *       2 × {@value #WINDOW} latencies (a log-linear histogram estimate, within 3.1 %),
 *       100 ms until {@value #MIN_SAMPLES} are known</td><td>delay in (0, 1 h]; percentile a fraction in (0, 1)</td></tr>
 *   <tr><td>{@code maxHedges} (extra attempts)</td><td>1</td><td>[1, 10]</td></tr>
 *   <tr><td>{@code budget}</td><td>a private budget with {@link RetryBudgetConfig} defaults</td><td>—</td></tr>
 *   <tr><td>{@code classifier} (which answers are acceptable)</td><td>{@link Classifier#defaults()}</td><td>not null</td></tr>
 *   <tr><td>{@code executor} (synchronous form only)</td><td>a shared cached pool of daemon threads</td><td>not null</td></tr>
 *   <tr><td>{@code asyncExecutor} (asynchronous form: starts hedges when the timer fires)</td>
 *       <td>the default async executor ({@code ForkJoinPool.commonPool()})</td><td>—</td></tr>
 *   <tr><td>{@code ticker}, {@code scheduler}</td><td>system ones</td><td>not null</td></tr>
 *   <tr><td>{@code idempotency} ({@link Idempotency})</td><td>{@link Idempotency#IDEMPOTENT}</td>
 *       <td>not null; not {@code NOT_IDEMPOTENT} (a hedge runs the call more than once by design)</td></tr>
 *   <tr><td>{@code keyGenerator}: a {@code KEYED} call's key when none is current</td>
 *       <td>{@link IdempotencyKeyGenerator#randomUuid()}</td><td>not null</td></tr>
 * </table>
 * The adaptive default follows Dean and Barroso, "The Tail at Scale": hedge once the first request has
 * been outstanding longer than the 95th percentile, which costs about 5% extra load.
 */
public final class HedgeConfig {
    /**
     * Latencies per histogram of the adaptive delay: two histograms are used in turn, so the estimate
     * covers between {@value} and twice as many of the latest latencies, recomputed every tenth of it.
     */
    public static final int WINDOW = 1000;
    /** Latencies needed before the adaptive delay replaces the initial delay. */
    public static final int MIN_SAMPLES = 100;
    /** Default percentile of the adaptive delay: 0.95, the p95 (a fraction in (0, 1), never a percent). */
    public static final double DEFAULT_PERCENTILE = 0.95;
    /** Default initial delay of the adaptive form (until {@value #MIN_SAMPLES} latencies are known): 100 ms. */
    public static final Duration DEFAULT_DELAY = Duration.ofMillis(100);
    /** Default extra attempts besides the first: 1. */
    public static final int DEFAULT_MAX_HEDGES = 1;

    private static final String POLICY = "Hedge";
    private static final HedgeConfig DEFAULTS = new Builder().build();

    private final long delayNanos;
    private final double percentile;
    private final int maxHedges;
    private final @Nullable RetryBudget budget;
    private final boolean budgeted;
    private final Classifier classifier;
    private final Executor executor;
    private final @Nullable Executor asyncExecutor;
    private final Ticker ticker;
    private final Scheduler scheduler;
    private final Idempotency idempotency;
    private final IdempotencyKeyGenerator keyGenerator;

    private HedgeConfig(Builder b) {
        this.delayNanos = Deadline.saturatedNanos(b.delay);
        this.percentile = b.percentile;
        this.maxHedges = b.maxHedges;
        this.budget = b.budget;
        this.budgeted = b.budgeted;
        this.classifier = b.classifier;
        this.executor = java.util.Objects.requireNonNull(b.executor, "set by build()");
        this.asyncExecutor = b.asyncExecutor;
        this.ticker = b.ticker;
        this.scheduler = b.scheduler;
        this.idempotency = b.idempotency;
        this.keyGenerator = b.keyGenerator;
    }

    /**
     * Starts a config holding the defaults. Configs are nameless: the name goes to
     * {@link Hedge#of(String, HedgeConfig)}.
     *
     * @return a builder with the defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The default config: hedge once after the p95 of recent latencies, 100 ms until known.
     *
     * @return the config
     */
    public static HedgeConfig defaults() {
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

    /** @return the fixed delay, or the initial delay of the adaptive form, in ns */
    public long delayNanos() {
        return delayNanos;
    }

    /** @return the percentile of the adaptive form as a fraction (0.95 is p95), or NaN for a fixed delay */
    public double percentile() {
        return percentile;
    }

    /** @return extra attempts allowed in flight besides the first */
    public int maxHedges() {
        return maxHedges;
    }

    /** @return the shared budget given, or null (see {@link #budgeted()}) */
    public @Nullable RetryBudget budget() {
        return budget;
    }

    /** @return false if hedges are not budgeted */
    public boolean budgeted() {
        return budgeted;
    }

    /** @return what counts as an acceptable answer: a {@code SUCCESS} */
    public Classifier classifier() {
        return classifier;
    }

    /** @return the executor of the synchronous form's attempts */
    public Executor executor() {
        return executor;
    }

    /**
     * @return where the asynchronous form starts a hedge when its timer fires, or null for the
     *         default: the call's default async executor ({@link CompletableFuture#defaultExecutor()})
     */
    public @Nullable Executor asyncExecutor() {
        return asyncExecutor;
    }

    /** @return the ticker */
    public Ticker ticker() {
        return ticker;
    }

    /** @return the scheduler of hedge timers */
    public Scheduler scheduler() {
        return scheduler;
    }

    /** @return whether the call may be run more than once, and how ({@link Idempotency}) */
    public Idempotency idempotency() {
        return idempotency;
    }

    /** @return what makes a {@link Idempotency#KEYED} call's key when none is current */
    public IdempotencyKeyGenerator keyGenerator() {
        return keyGenerator;
    }

    /** Builds a {@link HedgeConfig}. Not thread-safe. */
    public static final class Builder {
        private Duration delay = DEFAULT_DELAY;
        private double percentile = DEFAULT_PERCENTILE;
        private int maxHedges = DEFAULT_MAX_HEDGES;
        private @Nullable RetryBudget budget;
        private boolean budgeted = true;
        private Classifier classifier = Classifier.defaults();
        private @Nullable Executor executor;
        private @Nullable Executor asyncExecutor;
        private Ticker ticker = Ticker.system();
        private Scheduler scheduler = Scheduler.system();
        private Idempotency idempotency = RetryConfig.DEFAULT_IDEMPOTENCY;
        private IdempotencyKeyGenerator keyGenerator = RetryConfig.DEFAULT_KEY_GENERATOR;

        private Builder() {
        }

        private Builder(HedgeConfig c) {
            this.delay = Duration.ofNanos(c.delayNanos);
            this.percentile = c.percentile;
            this.maxHedges = c.maxHedges;
            this.budget = c.budget;
            this.budgeted = c.budgeted;
            this.classifier = c.classifier;
            this.executor = c.executor;
            this.asyncExecutor = c.asyncExecutor;
            this.ticker = c.ticker;
            this.scheduler = c.scheduler;
            this.idempotency = c.idempotency;
            this.keyGenerator = c.keyGenerator;
        }

        /**
         * Whether the call may run more than once: {@code IDEMPOTENT} (the default) is hedged freely;
         * {@code KEYED} runs every attempt under one idempotency key per logical call (made by
         * {@link #keyGenerator} unless the caller attached one), and a call with no key is not hedged;
         * {@code NOT_IDEMPOTENT} is refused by {@code build()}: a hedge always may run the call twice.
         *
         * @param idempotency not null
         * @return this builder
         */
        public Builder idempotency(Idempotency idempotency) {
            this.idempotency = idempotency;
            return this;
        }

        /**
         * What makes a {@link Idempotency#KEYED} call's key when none is current (default: random UUIDs).
         *
         * @param keyGenerator not null
         * @return this builder
         */
        public Builder keyGenerator(IdempotencyKeyGenerator keyGenerator) {
            this.keyGenerator = keyGenerator;
            return this;
        }

        /**
         * Hedges after a fixed delay.
         *
         * @param delay in (0, 1 h]
         * @return this builder
         */
        public Builder delay(Duration delay) {
            this.delay = delay;
            this.percentile = Double.NaN;
            return this;
        }

        /**
         * Hedges after the {@code percentile} of recently observed latencies (of acceptable answers),
         * using {@code initialDelay} until {@value HedgeConfig#MIN_SAMPLES} latencies are known.
         *
         * @param percentile a fraction in (0, 1): 0.95 is the p95; a value above 1 (a percent, such as
         *        95) is refused
         * @param initialDelay in (0, 1 h]
         * @return this builder
         */
        public Builder percentileDelay(double percentile, Duration initialDelay) {
            this.percentile = percentile;
            this.delay = initialDelay;
            return this;
        }

        /**
         * Extra attempts in flight besides the first.
         *
         * @param maxHedges in [1, 10]
         * @return this builder
         */
        public Builder maxHedges(int maxHedges) {
            this.maxHedges = maxHedges;
            return this;
        }

        /**
         * Draws hedges from a shared budget (typically the one the application's retries use).
         *
         * @param budget the budget, or null for a private default budget
         * @return this builder
         */
        public Builder budget(@Nullable RetryBudget budget) {
            this.budget = budget;
            this.budgeted = true;
            return this;
        }

        /**
         * Hedges without a budget: only {@code maxHedges} bounds the extra load.
         *
         * @return this builder
         */
        public Builder withoutBudget() {
            this.budget = null;
            this.budgeted = false;
            return this;
        }

        /**
         * Which answers are acceptable: a {@code SUCCESS} wins; anything else does not, and the call
         * fails with the last failure once every attempt started has failed.
         *
         * @param classifier not null
         * @return this builder
         */
        public Builder classifier(Classifier classifier) {
            this.classifier = classifier;
            return this;
        }

        /**
         * Runs the attempts of {@link Hedge#execute}; the asynchronous form does not use it.
         *
         * @param executor not null
         * @return this builder
         */
        public Builder executor(Executor executor) {
            this.executor = executor;
            return this;
        }

        /**
         * Where {@link Hedge#executeAsync} starts a hedged attempt when the hedge timer fires: the
         * timer's thread only hands it over, so a Levee timer thread never runs user code. By default
         * (null) the common async executor ({@link CompletableFuture#defaultExecutor()}); tests pass
         * {@code Runnable::run}.
         *
         * @param asyncExecutor the executor, or null for the default
         * @return this builder
         */
        public Builder asyncExecutor(@Nullable Executor asyncExecutor) {
            this.asyncExecutor = asyncExecutor;
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
         * Where hedge timers wait.
         *
         * @param scheduler not null
         * @return this builder
         */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = scheduler;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the config
         * @throws dev.levee.core.InvalidConfigException naming the field, bound and value
         */
        public HedgeConfig build() {
            String policy = POLICY;
            Validate.positive(policy, "delay", delay);
            Validate.check(delay.compareTo(Duration.ofHours(1)) <= 0, policy, "delay", "<= PT1H", delay);
            if (!Double.isNaN(percentile)) {
                Validate.check(!(percentile > 1 && percentile <= 100), policy, "percentile",
                        "a fraction in (0, 1) (" + percentile + " looks like a percent: write " + percentile / 100 + ")",
                        percentile);
                Validate.check(percentile > 0 && percentile < 1, policy, "percentile", "a fraction in (0, 1)", percentile);
            }
            Validate.inRange(policy, "maxHedges", maxHedges, 1, 10);
            Validate.notNull(policy, "classifier", classifier);
            Validate.notNull(policy, "ticker", ticker);
            Validate.notNull(policy, "scheduler", scheduler);
            Validate.notNull(policy, "idempotency", idempotency);
            Validate.check(idempotency != Idempotency.NOT_IDEMPOTENT, policy, "idempotency",
                    "IDEMPOTENT or KEYED (a hedge runs the call more than once by design; a non-idempotent call "
                            + "needs an idempotency key: KEYED)", idempotency);
            Validate.notNull(policy, "keyGenerator", keyGenerator);
            if (executor == null) {
                executor = HedgeThreads.shared();
            }
            return new HedgeConfig(this);
        }
    }
}
