package dev.levee.degrade;

import dev.levee.core.internal.EventListeners;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.LoadSignal;
import dev.levee.core.Subscription;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Load-driven feature toggles: a level that follows a {@link LoadSignal} with hysteresis, so
 * non-essential features switch off under load and back on after it — seed 000's "shed features, not
 * the whole service".
 *
 * <pre>{@code
 * DegradationLevel degradation = DegradationLevel.of("storefront", DegradationLevelConfig.defaults(),
 *         () -> limiter.inflight() / (double) limiter.limit());
 * BooleanSupplier recommendations = degradation.toggle(1);   // off from level 1 (load >= 0.8)
 * BooleanSupplier reviews = degradation.toggle(2);           // off from level 2 (load >= 0.95)
 * if (recommendations.getAsBoolean()) page.add(recommender.forUser(user));
 * }</pre>
 *
 * <p><b>Model.</b> Levels run from {@link #FULL} (0, everything on) to {@code thresholds.length}. The
 * load is read at most once per {@code sampleInterval}, by the first caller of {@link #level()} (or any
 * toggle) after the interval; {@link #update()} reads it at once. On each reading:
 * <ul>
 *   <li><em>up</em> at once: to the highest level {@code i} with {@code load >= thresholds[i-1]};</li>
 *   <li><em>down</em> only when the current level has been held for {@code recoveryDelay}: to the lowest
 *       level {@code i} such that no level above it has {@code load >= thresholds[j-1] - hysteresis}.</li>
 * </ul>
 * A load between a threshold and that threshold minus the hysteresis keeps the level: the band that
 * stops a load hovering at a threshold from switching features on and off on every reading.
 *
 * <p><b>Guarantees.</b> Listeners get one {@link DegradeEvent} per change, on the sampling thread; a
 * rise is logged at WARN and a fall at INFO. A signal that throws or reads NaN or a negative value
 * keeps the level (logged at WARN): missing data never degrades.
 *
 * <p><b>Cost.</b> {@link #level()} reads the ticker and two volatile fields; once per interval one
 * caller takes a lock without waiting ({@code tryLock}) and reads the signal.
 */
public final class DegradationLevel {
    private static final Logger LOG = LoggerFactory.getLogger(DegradationLevel.class);
    /** The level at which every feature is on. */
    public static final int FULL = 0;

    private final String name;
    private final DegradationLevelConfig config;
    private final LoadSignal signal;
    private final double[] thresholds;
    /** {@code exits[i] = thresholds[i] - hysteresis}, rounded to 1e-9 so 0.8 - 0.1 is 0.7, not 0.7000000000000001. */
    private final double[] exits;
    private final long recoveryNanos;
    private final long intervalNanos;
    private final Ticker ticker;
    private final EventListeners<DegradeEvent> listeners = new EventListeners<>();
    private final ReentrantLock sampling = new ReentrantLock();

    private volatile int level = FULL;
    private volatile long nextSampleNanos;
    private volatile double lastLoad;
    private final AtomicLong raised = new AtomicLong();
    private final AtomicLong lowered = new AtomicLong();
    /** Guarded by {@code sampling}. */
    private long levelSinceNanos;

    private DegradationLevel(String name, DegradationLevelConfig config, LoadSignal signal) {
        this.name = name;
        this.config = config;
        this.signal = signal;
        this.thresholds = config.thresholds();
        this.exits = new double[thresholds.length];
        for (int i = 0; i < thresholds.length; i++) {
            exits[i] = Math.round((thresholds[i] - config.hysteresis()) * 1e9) / 1e9;
        }
        this.recoveryNanos = config.recoveryDelayNanos();
        this.intervalNanos = config.sampleIntervalNanos();
        this.ticker = config.ticker();
        long now = ticker.read();
        this.nextSampleNanos = now;
        this.levelSinceNanos = now;
    }

    /**
     * Creates a degradation level following {@code signal}.
     *
     * @param name the name, for logs, events and metric tags
     * @param config the config
     * @param signal the load, e.g. a load shedder's signal
     * @return the degradation level, at {@link #FULL} until the first reading
     * @throws InvalidConfigException if the name is blank or the config or signal null
     */
    public static DegradationLevel of(String name, DegradationLevelConfig config, LoadSignal signal) {
        Validate.name("DegradationLevel", name);
        String policy = Validate.describe("DegradationLevel", name);
        Validate.notNull(policy, "config", config);
        Validate.notNull(policy, "signal", signal);
        return new DegradationLevel(name, config, signal);
    }

    /**
     * Creates a degradation level with the defaults (levels at 0.8 and 0.95, hysteresis 0.1).
     *
     * @param name the name
     * @param signal the load
     * @return the degradation level
     */
    public static DegradationLevel ofDefaults(String name, LoadSignal signal) {
        return of(name, DegradationLevelConfig.defaults(), signal);
    }

    /** @return the name */
    public String name() {
        return name;
    }

    /** @return the config */
    public DegradationLevelConfig config() {
        return config;
    }

    /**
     * The current level, reading the load first if a sample is due.
     *
     * @return from {@link #FULL} (0) to the number of thresholds
     */
    public int level() {
        long now = ticker.read();
        if (now - nextSampleNanos >= 0 && sampling.tryLock()) {
            try {
                if (now - nextSampleNanos >= 0) {
                    sample(now);
                }
            } finally {
                sampling.unlock();
            }
        }
        return level;
    }

    /**
     * Reads the load now, whatever the sample interval, and returns the resulting level. Call it from
     * your own timer to have listeners notified without traffic.
     *
     * @return the level after this reading
     */
    public int update() {
        sampling.lock();
        try {
            sample(ticker.read());
        } finally {
            sampling.unlock();
        }
        return level;
    }

    /**
     * Whether a feature that switches off from {@code offFromLevel} is on now.
     *
     * @param offFromLevel the first level at which the feature is off, at least 1
     * @return true while {@code level() < offFromLevel}
     */
    public boolean isEnabled(int offFromLevel) {
        return level() < offFromLevel;
    }

    /**
     * A toggle for a feature that switches off from {@code offFromLevel}.
     *
     * @param offFromLevel the first level at which the feature is off, in [1, number of thresholds]
     * @return a supplier reading {@link #isEnabled(int)}
     * @throws InvalidConfigException if {@code offFromLevel} is out of range
     */
    public BooleanSupplier toggle(int offFromLevel) {
        Validate.inRange(Validate.describe("DegradationLevel", name), "offFromLevel", offFromLevel, 1,
                thresholds.length);
        return () -> isEnabled(offFromLevel);
    }

    /**
     * Subscribes to level changes.
     *
     * @param listener runs on the sampling thread; must be fast
     * @return closing it unsubscribes
     */
    public Subscription onEvent(Consumer<? super DegradeEvent> listener) {
        return listeners.subscribe(listener);
    }

    /**
     * A snapshot.
     *
     * @return the level, change counts and last load
     */
    public DegradationLevelMetrics metrics() {
        return new DegradationLevelMetrics(level, raised.get(), lowered.get(), lastLoad);
    }

    /** Guarded by {@code sampling}. */
    private void sample(long now) {
        nextSampleNanos = now + intervalNanos;
        double load;
        try {
            load = signal.load();
        } catch (RuntimeException e) {
            LOG.warn("DegradationLevel '{}': the load signal threw; the level stays {}", name, level, e);
            return;
        }
        if (!(load >= 0.0)) {
            LOG.warn("DegradationLevel '{}': the load signal read {}; the level stays {}", name, load, level);
            return;
        }
        lastLoad = load;
        int current = level;
        int target = current;
        while (target < thresholds.length && load >= thresholds[target]) {
            target++;
        }
        if (target == current && now - levelSinceNanos >= recoveryNanos) {
            while (target > FULL && load < exits[target - 1]) {
                target--;
            }
        }
        if (target != current) {
            change(current, target, load, now);
        }
    }

    private void change(int from, int to, double load, long now) {
        level = to;
        levelSinceNanos = now;
        if (to > from) {
            raised.incrementAndGet();
            LOG.warn("DegradationLevel '{}': level {} -> {} (load {} >= {}); features off from level {} are now off",
                    name, from, to, load, thresholds[to - 1], from + 1);
            if (!listeners.isEmpty()) {
                listeners.publish(new DegradeEvent.LevelRaised(name, now, from, to, load));
            }
        } else {
            lowered.incrementAndGet();
            LOG.info("DegradationLevel '{}': level {} -> {} (load {}); features off from level {} are back on",
                    name, from, to, load, to + 1);
            if (!listeners.isEmpty()) {
                listeners.publish(new DegradeEvent.LevelLowered(name, now, from, to, load));
            }
        }
    }

    @Override
    public String toString() {
        return "DegradationLevel[" + name + ", level=" + level + "]";
    }

}
