package dev.levee.health;

import dev.levee.core.internal.EventListeners;
import dev.levee.core.Scheduler;
import dev.levee.core.Subscription;
import dev.levee.core.internal.Validate;
import dev.levee.core.internal.Nanos;
import dev.levee.health.internal.ActionGuard;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples signals in the background and acts when one stays over its threshold (seed 004 §17.6:
 * a process that detects it is degraded, e.g. by a memory leak, gets itself replaced instead of
 * limping on until 3 AM).
 *
 * <pre>{@code
 * Watchdog watchdog = Watchdog.of("orders", WatchdogConfig.builder()
 *         .signal("heap", ResourceSignals.heapUsage(), 0.95)
 *         .signal("main-loop", heartbeat, 1.0)
 *         .build());
 * watchdog.install(checker);   // its readiness check goes UNHEALTHY on a sustained breach
 * watchdog.start();
 * }</pre>
 *
 * <p><b>Model.</b> Every {@code sampleInterval}, on the config's {@link Scheduler}, each signal is
 * read; a reading {@code >= threshold} is a breach. When one signal has breached
 * {@code breachesToAct} samples in a row, that is a sustained breach: the watchdog publishes
 * {@link WatchdogEvent.Breached}, asks its restart-loop guard, and runs its action (by default
 * {@link WatchdogAction#markUnready()}: its {@link #readinessCheck()} reports UNHEALTHY until
 * {@code samplesToRecover} clean samples in a row). The streaks then restart, so another action needs
 * another full sustained breach.
 *
 * <p><b>Restart-loop guard.</b> At most {@code maxActions} actions per {@code actionWindow}, and after
 * the k-th action in the window none for {@code min(actionWindow, initialBackoff × 2^(k−1))}. A refused
 * action is not run (for {@link WatchdogAction#markUnready()}: readiness is not marked again), is
 * logged at ERROR and published as {@link WatchdogEvent.ActionSuppressed}. The guard lives in the process: across restarts the supervisor's own
 * backoff (Kubernetes' CrashLoopBackOff) applies.
 *
 * <p><b>Observability.</b> WARN on every sustained breach and action, ERROR on a suppressed or failed
 * action, INFO on recovery; {@link #metrics()} and {@link WatchdogMetricsBinder}.
 *
 * <p><b>Cost.</b> One scheduler task per interval reading each signal once. {@link #close()}
 * cancels the next sample; the watchdog owns no thread.
 */
public final class Watchdog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Watchdog.class);

    private final String name;
    private final WatchdogConfig config;
    private final List<WatchdogSignal> signals;
    private final long intervalNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final int[] streaks;
    private final ActionGuard guard;
    private final EventListeners<WatchdogEvent> listeners = new EventListeners<>();
    private final AtomicLong samples = new AtomicLong();
    private final AtomicLong breaches = new AtomicLong();
    private final AtomicLong actionsTaken = new AtomicLong();
    private final AtomicLong actionsSuppressed = new AtomicLong();
    private final AtomicLong actionFailures = new AtomicLong();
    private int cleanStreak;
    private volatile boolean unready;
    private volatile @Nullable String unreadyReason;
    private volatile Scheduler.@Nullable Cancellable next;
    private volatile boolean started;
    private volatile boolean closed;

    private Watchdog(String name, WatchdogConfig config) {
        this.name = name;
        this.config = config;
        this.signals = config.signals();
        this.intervalNanos = Nanos.of(config.sampleInterval());
        this.streaks = new int[signals.size()];
        this.guard = new ActionGuard(config.maxActions(), Nanos.of(config.actionWindow()),
                Nanos.of(config.initialBackoff()));
    }

    /**
     * A watchdog (not yet started).
     *
     * @param name its name
     * @param config its config
     * @return the watchdog
     */
    public static Watchdog of(String name, WatchdogConfig config) {
        Validate.name("Watchdog", name);
        Validate.notNull(Validate.describe("Watchdog", name), "config", config);
        return new Watchdog(name, config);
    }

    /**
     * A watchdog with the default config (heap usage at 95 %).
     *
     * @param name its name
     * @return the watchdog
     */
    public static Watchdog ofDefaults(String name) {
        return of(name, WatchdogConfig.defaults());
    }

    /** @return the watchdog's name */
    public String name() {
        return name;
    }

    /** @return the config */
    public WatchdogConfig config() {
        return config;
    }

    /**
     * Starts sampling: the first sample one interval from now. Idempotent.
     *
     * @return this watchdog
     * @throws IllegalStateException if closed
     */
    public Watchdog start() {
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("Watchdog '" + name + "' is closed");
            }
            if (!started) {
                started = true;
                next = config.scheduler().schedule(this::tick, intervalNanos);
            }
        } finally {
            lock.unlock();
        }
        return this;
    }

    private void tick() {
        if (closed) {
            return;
        }
        try {
            sample();
        } finally {
            lock.lock();
            try {
                if (!closed) {
                    next = config.scheduler().schedule(this::tick, intervalNanos);
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Takes one sample now (the scheduled task calls this; tests and operators may too).
     */
    public void sample() {
        long now = config.ticker().read();
        WatchdogEvent.Breached breach = null;
        String refused = null;
        int inWindow = 0;
        boolean recovered = false;
        lock.lock();
        try {
            samples.incrementAndGet();
            boolean anyBreach = false;
            for (int i = 0; i < signals.size(); i++) {
                WatchdogSignal s = signals.get(i);
                double v = read(s);
                if (v >= s.threshold()) {
                    anyBreach = true;
                    streaks[i]++;
                    if (breach == null && streaks[i] >= config.breachesToAct()) {
                        breach = new WatchdogEvent.Breached(name, now, s.name(), v, s.threshold(), streaks[i]);
                    }
                } else {
                    streaks[i] = 0;
                }
            }
            if (breach != null) {
                java.util.Arrays.fill(streaks, 0);
                breaches.incrementAndGet();
                refused = guard.tryAct(now);
                inWindow = guard.inWindow();
            }
            if (anyBreach) {
                cleanStreak = 0;
            } else if (unready && ++cleanStreak >= config.samplesToRecover()) {
                unready = false;
                unreadyReason = null;
                cleanStreak = 0;
                recovered = true;
            }
            if (breach != null && config.action() == WatchdogAction.markUnready() && refused == null) {
                unready = true;
                unreadyReason = "watchdog: " + breach.signal() + " at " + fmt(breach.value()) + " >= "
                        + fmt(breach.threshold()) + " for " + breach.consecutiveSamples() + " samples";
                cleanStreak = 0;
            }
        } finally {
            lock.unlock();
        }
        if (recovered) {
            LOG.info("Watchdog '{}': every signal under its threshold for {} samples; readiness restored", name,
                    config.samplesToRecover());
            if (!listeners.isEmpty()) {
                listeners.publish(new WatchdogEvent.Recovered(name, now));
            }
        }
        if (breach == null) {
            return;
        }
        LOG.warn("Watchdog '{}': sustained breach: {} at {} >= {} for {} samples", name, breach.signal(),
                fmt(breach.value()), fmt(breach.threshold()), breach.consecutiveSamples());
        publish(breach);
        if (refused != null) {
            actionsSuppressed.incrementAndGet();
            LOG.error("Watchdog '{}': action for {} suppressed by the restart-loop guard: {}", name, breach.signal(),
                    refused);
            publish(new WatchdogEvent.ActionSuppressed(name, now, breach.signal(), refused));
            return;
        }
        actionsTaken.incrementAndGet();
        LOG.warn("Watchdog '{}': acting on {} ({} of at most {} actions per {})", name, breach.signal(), inWindow,
                config.maxActions(), config.actionWindow());
        publish(new WatchdogEvent.ActionTaken(name, now, breach.signal(), inWindow));
        try {
            config.action().act(breach);
        } catch (Exception e) {
            actionFailures.incrementAndGet();
            LOG.error("Watchdog '{}': action failed", name, e);
        }
    }

    private double read(WatchdogSignal s) {
        try {
            double v = s.signal().load();
            return Double.isNaN(v) ? 0.0 : v;
        } catch (RuntimeException e) {
            LOG.warn("Watchdog '{}': signal '{}' threw; read as 0", name, s.name(), e);
            return 0.0;
        }
    }

    private void publish(WatchdogEvent event) {
        if (!listeners.isEmpty()) {
            listeners.publish(event);
        }
    }

    private static String fmt(double v) {
        return String.format(java.util.Locale.ROOT, "%.3f", v);
    }

    /**
     * A readiness check that is UNHEALTHY while the watchdog's {@link WatchdogAction#markUnready()} mark
     * is set, HEALTHY otherwise.
     *
     * @return the check
     */
    public HealthCheck readinessCheck() {
        return () -> {
            String reason = unreadyReason;
            return unready ? CheckResult.unhealthy(reason) : CheckResult.healthy();
        };
    }

    /**
     * Registers {@link #readinessCheck()} as readiness check {@code watchdog-<name>}.
     *
     * @param checker the checker
     * @return closing it unregisters the check
     */
    public Subscription install(HealthChecker checker) {
        return checker.register(HealthLevel.READINESS, "watchdog-" + name, readinessCheck());
    }

    /**
     * Whether the readiness mark is set.
     *
     * @return true while marked unready
     */
    public boolean isUnready() {
        return unready;
    }

    /**
     * Registers a listener.
     *
     * @param listener the listener
     * @return closing it unregisters the listener
     */
    public Subscription onEvent(Consumer<? super WatchdogEvent> listener) {
        return listeners.subscribe(listener);
    }

    /**
     * A snapshot of the watchdog's counters.
     *
     * @return the snapshot
     */
    public WatchdogMetrics metrics() {
        return new WatchdogMetrics(samples.get(), breaches.get(), actionsTaken.get(), actionsSuppressed.get(),
                actionFailures.get(), unready);
    }

    /** Stops sampling. Idempotent. */
    @Override
    public void close() {
        Scheduler.Cancellable handle;
        lock.lock();
        try {
            closed = true;
            handle = next;
            next = null;
        } finally {
            lock.unlock();
        }
        if (handle != null) {
            handle.cancel();
        }
    }

    @Override
    public String toString() {
        return "Watchdog[" + name + "]";
    }
}
