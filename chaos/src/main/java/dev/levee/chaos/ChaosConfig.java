package dev.levee.chaos;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.RandomSource;
import dev.levee.core.Scheduler;
import dev.levee.core.Sleeper;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The immutable, nameless configuration of a {@link Chaos} policy: what to inject, into which share of
 * the calls, and the injected time and randomness.
 *
 * <p>One policy injects one kind of fault: {@link Builder#latency}, {@link Builder#fault} and
 * {@link Builder#result} each choose the kind, and the last one called wins. To inject several kinds,
 * compose several policies in a pipeline (each with its own rate).
 *
 * <table>
 *   <caption>Knobs and defaults (Polly's chaos strategies' defaults where they give one)</caption>
 *   <tr><th>knob</th><th>default</th><th>bound</th></tr>
 *   <tr><td>{@code injectionRate}</td><td>{@value #DEFAULT_INJECTION_RATE} ({@link #DEFAULT_INJECTION_RATE})</td>
 *       <td>a fraction in [0, 1]</td></tr>
 *   <tr><td>{@code enabled}</td><td>{@code true} ({@link #DEFAULT_ENABLED}); switch at run time with
 *       {@link Chaos#setEnabled}</td><td></td></tr>
 *   <tr><td>kind</td><td>{@link ChaosKind#LATENCY} of {@link #DEFAULT_LATENCY} (30 s)</td><td>latency &gt; 0,
 *       at most {@link #MAX_LATENCY} (1 day)</td></tr>
 *   <tr><td>{@code injectWhen}</td><td>every call</td><td>a per-call selector, run on the calling thread</td></tr>
 *   <tr><td>{@code randomSource}</td><td>{@link RandomSource#threadLocal()}; use {@link RandomSource#seeded} in
 *       tests</td><td></td></tr>
 *   <tr><td>{@code ticker}, {@code sleeper}, {@code scheduler}</td><td>the system's</td><td></td></tr>
 * </table>
 */
public final class ChaosConfig {
    private static final String POLICY = "Chaos";

    /** Default share of calls injected: 0.001 (one in a thousand, Polly's default). */
    public static final double DEFAULT_INJECTION_RATE = 0.001;
    /** Default state of the switch: on (a chaos policy someone configured is meant to inject). */
    public static final boolean DEFAULT_ENABLED = true;
    /** Default kind: {@link ChaosKind#LATENCY}. */
    public static final ChaosKind DEFAULT_KIND = ChaosKind.LATENCY;
    /** Default injected latency: 30 s (Polly's default). */
    public static final Duration DEFAULT_LATENCY = Duration.ofSeconds(30);
    /** The longest latency one injection may add: one day. */
    public static final Duration MAX_LATENCY = Duration.ofDays(1);

    private final ChaosKind kind;
    private final double injectionRate;
    private final boolean enabled;
    private final Duration latency;
    private final long latencyNanos;
    private final @Nullable Supplier<? extends Throwable> fault;
    private final @Nullable Supplier<?> result;
    private final BooleanSupplier injectWhen;
    private final boolean everyCall;
    private final RandomSource randomSource;
    private final Ticker ticker;
    private final Sleeper sleeper;
    private final Scheduler scheduler;

    private ChaosConfig(Builder b) {
        this.kind = b.kind;
        this.injectionRate = b.injectionRate;
        this.enabled = b.enabled;
        this.latency = b.latency;
        this.latencyNanos = b.latency.toNanos();
        this.fault = b.fault;
        this.result = b.result;
        this.injectWhen = b.injectWhen;
        this.everyCall = b.injectWhen == Builder.EVERY_CALL;
        this.randomSource = b.randomSource;
        this.ticker = b.ticker;
        this.sleeper = b.sleeper;
        this.scheduler = b.scheduler;
    }

    /**
     * A builder starting from the defaults.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The default configuration (see the table above).
     *
     * @return the defaults
     */
    public static ChaosConfig defaults() {
        return builder().build();
    }

    /**
     * A builder starting from this configuration.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.kind = kind;
        b.injectionRate = injectionRate;
        b.enabled = enabled;
        b.latency = latency;
        b.fault = fault;
        b.result = result;
        b.injectWhen = injectWhen;
        b.randomSource = randomSource;
        b.ticker = ticker;
        b.sleeper = sleeper;
        b.scheduler = scheduler;
        return b;
    }

    /** @return what the policy injects */
    public ChaosKind kind() {
        return kind;
    }

    /** @return the share of selected calls that get the fault, in [0, 1] */
    public double injectionRate() {
        return injectionRate;
    }

    /** @return whether a new policy starts switched on */
    public boolean enabled() {
        return enabled;
    }

    /** @return the injected latency (meaningful for {@link ChaosKind#LATENCY}) */
    public Duration latency() {
        return latency;
    }

    /** @return the injected latency in nanoseconds */
    public long latencyNanos() {
        return latencyNanos;
    }

    /** @return the fault factory, for {@link ChaosKind#FAULT}; null otherwise */
    public @Nullable Supplier<? extends Throwable> fault() {
        return fault;
    }

    /** @return the substitute-result factory, for {@link ChaosKind#RESULT}; null otherwise */
    public @Nullable Supplier<?> result() {
        return result;
    }

    /** @return the per-call selector */
    public BooleanSupplier injectWhen() {
        return injectWhen;
    }

    /** @return true if every call is eligible (no selector was set) */
    boolean everyCall() {
        return everyCall;
    }

    /** @return where the injection decisions' randomness comes from */
    public RandomSource randomSource() {
        return randomSource;
    }

    /** @return the ticker (event timestamps) */
    public Ticker ticker() {
        return ticker;
    }

    /** @return how synchronous latency is waited out */
    public Sleeper sleeper() {
        return sleeper;
    }

    /** @return how asynchronous latency is scheduled */
    public Scheduler scheduler() {
        return scheduler;
    }

    @Override
    public String toString() {
        return "ChaosConfig{kind=" + kind + ", injectionRate=" + injectionRate + ", enabled=" + enabled
                + (kind == ChaosKind.LATENCY ? ", latency=" + latency : "") + "}";
    }

    /** Builds a {@link ChaosConfig}; {@link #build()} validates every field. */
    public static final class Builder {
        /** The default selector: every call is eligible (recognised by identity, so it costs nothing). */
        static final BooleanSupplier EVERY_CALL = () -> true;

        private ChaosKind kind = DEFAULT_KIND;
        private double injectionRate = DEFAULT_INJECTION_RATE;
        private boolean enabled = DEFAULT_ENABLED;
        private Duration latency = DEFAULT_LATENCY;
        private @Nullable Supplier<? extends Throwable> fault;
        private @Nullable Supplier<?> result;
        private BooleanSupplier injectWhen = EVERY_CALL;
        private RandomSource randomSource = RandomSource.threadLocal();
        private Ticker ticker = Ticker.system();
        private Sleeper sleeper = Sleeper.system();
        private Scheduler scheduler = Scheduler.system();

        private Builder() {}

        /**
         * The share of selected calls that get the fault: a fraction in [0, 1] ({@code 0.05} is 5 %).
         *
         * @param injectionRate the fraction; a value in (1, 100] is refused as a percent
         * @return this builder
         */
        public Builder injectionRate(double injectionRate) {
            this.injectionRate = injectionRate;
            return this;
        }

        /**
         * Whether a new policy starts switched on; {@link Chaos#setEnabled} changes it at run time.
         *
         * @param enabled the initial state
         * @return this builder
         */
        public Builder enabled(boolean enabled) {
            this.enabled = enabled;
            return this;
        }

        /**
         * Injects a delay before the call ({@link ChaosKind#LATENCY}); the call then runs as usual.
         *
         * @param latency the delay, in (0, 1 day]
         * @return this builder
         */
        public Builder latency(Duration latency) {
            this.kind = ChaosKind.LATENCY;
            this.latency = latency;
            return this;
        }

        /**
         * Throws an exception instead of running the call ({@link ChaosKind#FAULT}). The factory runs once
         * per injection, so each caller gets its own exception (with its own stack trace, or a shared
         * stackless one if the factory returns one). A checked exception is thrown as it is, even where
         * the call does not declare it: inject only what the real dependency can throw.
         *
         * @param fault the exception factory; must not return null
         * @return this builder
         */
        public Builder fault(Supplier<? extends Throwable> fault) {
            this.kind = ChaosKind.FAULT;
            this.fault = fault;
            return this;
        }

        /**
         * Returns a substitute result instead of running the call ({@link ChaosKind#RESULT}). The value
         * must fit the calls the policy wraps: it is returned as the call's type unchecked, so a wrong type
         * shows up as a {@code ClassCastException} at the caller.
         *
         * @param result the result factory (it may return null)
         * @return this builder
         */
        public Builder result(Supplier<?> result) {
            this.kind = ChaosKind.RESULT;
            this.result = result;
            return this;
        }

        /**
         * Selects the calls eligible for injection, per call, on the calling thread (read your own request
         * context: a tenant, a header on a thread-local, a test flag). Must be fast and must not throw.
         *
         * @param injectWhen true for a call that may get the fault
         * @return this builder
         */
        public Builder injectWhen(BooleanSupplier injectWhen) {
            this.injectWhen = injectWhen;
            return this;
        }

        /**
         * The randomness that picks the injected calls: {@link RandomSource#seeded(long)} makes a test
         * reproducible.
         *
         * @param randomSource the source
         * @return this builder
         */
        public Builder randomSource(RandomSource randomSource) {
            this.randomSource = randomSource;
            return this;
        }

        /**
         * The ticker that stamps events.
         *
         * @param ticker the ticker
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = ticker;
            return this;
        }

        /**
         * How synchronous calls wait out injected latency ({@code ManualTicker} in tests).
         *
         * @param sleeper the sleeper
         * @return this builder
         */
        public Builder sleeper(Sleeper sleeper) {
            this.sleeper = sleeper;
            return this;
        }

        /**
         * How asynchronous calls are delayed by injected latency ({@code ManualScheduler} in tests).
         *
         * @param scheduler the scheduler
         * @return this builder
         */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = scheduler;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the configuration
         * @throws InvalidConfigException naming the field, bound and value of the first invalid field
         */
        public ChaosConfig build() {
            if (injectionRate > 1 && injectionRate <= 100) {
                throw new InvalidConfigException(POLICY, "injectionRate", "a fraction in [0, 1] (" + injectionRate
                        + " looks like a percent: write " + injectionRate / 100 + ")", injectionRate);
            }
            Validate.inRange(POLICY, "injectionRate", injectionRate, 0.0, 1.0);
            Validate.notNull(POLICY, "kind", kind);
            Duration d = Validate.positive(POLICY, "latency", latency);
            Validate.check(d.compareTo(MAX_LATENCY) <= 0, POLICY, "latency", "<= " + MAX_LATENCY, d);
            if (kind == ChaosKind.FAULT) {
                Validate.notNull(POLICY, "fault", fault);
            }
            if (kind == ChaosKind.RESULT) {
                Validate.notNull(POLICY, "result", result);
            }
            Validate.notNull(POLICY, "injectWhen", injectWhen);
            Validate.notNull(POLICY, "randomSource", randomSource);
            Validate.notNull(POLICY, "ticker", ticker);
            Validate.notNull(POLICY, "sleeper", sleeper);
            Validate.notNull(POLICY, "scheduler", scheduler);
            return new ChaosConfig(this);
        }
    }
}
