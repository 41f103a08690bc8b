package dev.levee.health;

import dev.levee.core.Scheduler;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The immutable configuration of a {@link Watchdog}: the signals it samples, how often, what counts
 * as sustained, what it does, and how its restart-loop guard limits that.
 *
 * <table>
 *   <caption>Knobs, defaults and bounds</caption>
 *   <tr><th>knob</th><th>default</th><th>bound</th></tr>
 *   <tr><td>signals</td><td>heap usage &gt;= 0.95 ({@link ResourceSignals#heapUsage()})</td><td>1 to {@value #MAX_SIGNALS}, unique names</td></tr>
 *   <tr><td>sampleInterval</td><td>5 s</td><td>[10 ms, 1 h]</td></tr>
 *   <tr><td>breachesToAct</td><td>{@value #DEFAULT_BREACHES_TO_ACT}</td><td>[1, {@value #MAX_SAMPLES}]</td></tr>
 *   <tr><td>samplesToRecover</td><td>{@value #DEFAULT_SAMPLES_TO_RECOVER}</td><td>[1, {@value #MAX_SAMPLES}]</td></tr>
 *   <tr><td>action</td><td>{@link WatchdogAction#markUnready()}</td><td>not null</td></tr>
 *   <tr><td>maxActions</td><td>{@value #DEFAULT_MAX_ACTIONS} per actionWindow</td><td>[1, {@value #MAX_SAMPLES}]</td></tr>
 *   <tr><td>actionWindow</td><td>1 h</td><td>[1 s, 7 days]</td></tr>
 *   <tr><td>initialBackoff</td><td>1 min, doubling after each action in the window</td><td>[0, actionWindow]</td></tr>
 *   <tr><td>ticker / scheduler</td><td>{@link Ticker#system()} / {@link Scheduler#system()}</td><td>not null</td></tr>
 * </table>
 */
public final class WatchdogConfig {
    private static final String POLICY = "Watchdog config";

    /** Default heap threshold of the default signal. */
    public static final double DEFAULT_HEAP_THRESHOLD = 0.95;
    /** Default sampling interval. */
    public static final Duration DEFAULT_SAMPLE_INTERVAL = Duration.ofSeconds(5);
    /** Shortest sampling interval. */
    public static final Duration MIN_SAMPLE_INTERVAL = Duration.ofMillis(10);
    /** Longest sampling interval. */
    public static final Duration MAX_SAMPLE_INTERVAL = Duration.ofHours(1);
    /** Default breaching samples in a row that make a sustained breach. */
    public static final int DEFAULT_BREACHES_TO_ACT = 3;
    /** Default clean samples in a row that clear a readiness mark. */
    public static final int DEFAULT_SAMPLES_TO_RECOVER = 3;
    /** Default cap on actions per window. */
    public static final int DEFAULT_MAX_ACTIONS = 3;
    /** Default window of the action cap. */
    public static final Duration DEFAULT_ACTION_WINDOW = Duration.ofHours(1);
    /** Shortest action window. */
    public static final Duration MIN_ACTION_WINDOW = Duration.ofSeconds(1);
    /** Longest action window. */
    public static final Duration MAX_ACTION_WINDOW = Duration.ofDays(7);
    /** Default wait after the first action before another; doubles after each action in the window. */
    public static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofMinutes(1);
    /** Largest count knob. */
    public static final int MAX_SAMPLES = 1000;
    /** Most signals. */
    public static final int MAX_SIGNALS = 64;

    private static final WatchdogConfig DEFAULTS = builder().build();

    private final List<WatchdogSignal> signals;
    private final Duration sampleInterval;
    private final int breachesToAct;
    private final int samplesToRecover;
    private final WatchdogAction action;
    private final int maxActions;
    private final Duration actionWindow;
    private final Duration initialBackoff;
    private final Ticker ticker;
    private final Scheduler scheduler;

    private WatchdogConfig(Builder b, List<WatchdogSignal> signals) {
        this.signals = signals;
        this.sampleInterval = b.sampleInterval;
        this.breachesToAct = b.breachesToAct;
        this.samplesToRecover = b.samplesToRecover;
        this.action = b.action;
        this.maxActions = b.maxActions;
        this.actionWindow = b.actionWindow;
        this.initialBackoff = b.initialBackoff;
        this.ticker = b.ticker;
        this.scheduler = b.scheduler;
    }

    /**
     * The defaults: heap usage at 95 % for three 5 s samples marks readiness UNHEALTHY.
     *
     * @return the shared default config
     */
    public static WatchdogConfig defaults() {
        return DEFAULTS;
    }

    /**
     * Starts a config from the defaults (the default heap signal is used only if no signal is added).
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder holding this config's values.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.signals.addAll(signals);
        b.sampleInterval = sampleInterval;
        b.breachesToAct = breachesToAct;
        b.samplesToRecover = samplesToRecover;
        b.action = action;
        b.maxActions = maxActions;
        b.actionWindow = actionWindow;
        b.initialBackoff = initialBackoff;
        b.ticker = ticker;
        b.scheduler = scheduler;
        return b;
    }

    /** @return the signals */
    public List<WatchdogSignal> signals() {
        return signals;
    }

    /** @return the sampling interval */
    public Duration sampleInterval() {
        return sampleInterval;
    }

    /** @return breaching samples in a row that make a sustained breach */
    public int breachesToAct() {
        return breachesToAct;
    }

    /** @return clean samples in a row that clear a readiness mark */
    public int samplesToRecover() {
        return samplesToRecover;
    }

    /** @return the action */
    public WatchdogAction action() {
        return action;
    }

    /** @return the cap on actions per window */
    public int maxActions() {
        return maxActions;
    }

    /** @return the window of the cap */
    public Duration actionWindow() {
        return actionWindow;
    }

    /** @return the wait after the first action in a window */
    public Duration initialBackoff() {
        return initialBackoff;
    }

    /** @return the ticker */
    public Ticker ticker() {
        return ticker;
    }

    /** @return the scheduler the samples run on */
    public Scheduler scheduler() {
        return scheduler;
    }

    /** Builds a {@link WatchdogConfig}; {@link #build()} validates every field. */
    public static final class Builder {
        private final List<WatchdogSignal> signals = new ArrayList<>();
        private Duration sampleInterval = DEFAULT_SAMPLE_INTERVAL;
        private int breachesToAct = DEFAULT_BREACHES_TO_ACT;
        private int samplesToRecover = DEFAULT_SAMPLES_TO_RECOVER;
        private WatchdogAction action = WatchdogAction.markUnready();
        private int maxActions = DEFAULT_MAX_ACTIONS;
        private Duration actionWindow = DEFAULT_ACTION_WINDOW;
        private Duration initialBackoff = DEFAULT_INITIAL_BACKOFF;
        private Ticker ticker = Ticker.system();
        private Scheduler scheduler = Scheduler.system();

        private Builder() {}

        /**
         * Adds a signal.
         *
         * @param signal the signal and its threshold
         * @return this builder
         */
        public Builder signal(WatchdogSignal signal) {
            signals.add(Validate.notNull(POLICY, "signal", signal));
            return this;
        }

        /**
         * Adds a signal.
         *
         * @param name its name
         * @param signal the signal
         * @param threshold breach at or above, a fraction in (0, 1]
         * @return this builder
         */
        public Builder signal(String name, dev.levee.core.LoadSignal signal, double threshold) {
            return signal(new WatchdogSignal(name, signal, threshold));
        }

        /**
         * Removes every signal added so far.
         *
         * @return this builder
         */
        public Builder clearSignals() {
            signals.clear();
            return this;
        }

        /**
         * The sampling interval.
         *
         * @param value the interval
         * @return this builder
         */
        public Builder sampleInterval(Duration value) {
            this.sampleInterval = value;
            return this;
        }

        /**
         * Breaching samples in a row that make a sustained breach.
         *
         * @param value the count
         * @return this builder
         */
        public Builder breachesToAct(int value) {
            this.breachesToAct = value;
            return this;
        }

        /**
         * Clean samples in a row that clear a readiness mark.
         *
         * @param value the count
         * @return this builder
         */
        public Builder samplesToRecover(int value) {
            this.samplesToRecover = value;
            return this;
        }

        /**
         * The action on a sustained breach.
         *
         * @param value the action
         * @return this builder
         */
        public Builder action(WatchdogAction value) {
            this.action = value;
            return this;
        }

        /**
         * The cap on actions per window.
         *
         * @param value the cap
         * @return this builder
         */
        public Builder maxActions(int value) {
            this.maxActions = value;
            return this;
        }

        /**
         * The window of the cap.
         *
         * @param value the window
         * @return this builder
         */
        public Builder actionWindow(Duration value) {
            this.actionWindow = value;
            return this;
        }

        /**
         * The wait after the first action in a window; it doubles after each further action.
         *
         * @param value the wait; zero for none
         * @return this builder
         */
        public Builder initialBackoff(Duration value) {
            this.initialBackoff = value;
            return this;
        }

        /**
         * The ticker.
         *
         * @param value the ticker
         * @return this builder
         */
        public Builder ticker(Ticker value) {
            this.ticker = value;
            return this;
        }

        /**
         * The scheduler the samples run on.
         *
         * @param value the scheduler
         * @return this builder
         */
        public Builder scheduler(Scheduler value) {
            this.scheduler = value;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the config
         * @throws dev.levee.core.InvalidConfigException if a field is out of bounds
         */
        public WatchdogConfig build() {
            List<WatchdogSignal> list = signals.isEmpty()
                    ? List.of(new WatchdogSignal("heap", ResourceSignals.heapUsage(), DEFAULT_HEAP_THRESHOLD))
                    : List.copyOf(signals);
            Validate.check(list.size() <= MAX_SIGNALS, POLICY, "signals", "at most " + MAX_SIGNALS, list.size());
            for (int i = 0; i < list.size(); i++) {
                for (int j = i + 1; j < list.size(); j++) {
                    Validate.check(!list.get(i).name().equals(list.get(j).name()), POLICY, "signals",
                            "unique names", "'" + list.get(i).name() + "' twice");
                }
            }
            Validate.notNull(POLICY, "sampleInterval", sampleInterval);
            Validate.check(sampleInterval.compareTo(MIN_SAMPLE_INTERVAL) >= 0
                    && sampleInterval.compareTo(MAX_SAMPLE_INTERVAL) <= 0, POLICY, "sampleInterval",
                    "in [" + MIN_SAMPLE_INTERVAL + ", " + MAX_SAMPLE_INTERVAL + "]", sampleInterval);
            Validate.inRange(POLICY, "breachesToAct", breachesToAct, 1, MAX_SAMPLES);
            Validate.inRange(POLICY, "samplesToRecover", samplesToRecover, 1, MAX_SAMPLES);
            Validate.notNull(POLICY, "action", action);
            Validate.inRange(POLICY, "maxActions", maxActions, 1, MAX_SAMPLES);
            Validate.notNull(POLICY, "actionWindow", actionWindow);
            Validate.check(actionWindow.compareTo(MIN_ACTION_WINDOW) >= 0
                    && actionWindow.compareTo(MAX_ACTION_WINDOW) <= 0, POLICY, "actionWindow",
                    "in [" + MIN_ACTION_WINDOW + ", " + MAX_ACTION_WINDOW + "]", actionWindow);
            Validate.nonNegative(POLICY, "initialBackoff", initialBackoff);
            Validate.check(initialBackoff.compareTo(actionWindow) <= 0, POLICY, "initialBackoff",
                    "<= actionWindow (" + actionWindow + ")", initialBackoff);
            Validate.notNull(POLICY, "ticker", ticker);
            Validate.notNull(POLICY, "scheduler", scheduler);
            return new WatchdogConfig(this, list);
        }
    }
}
