package dev.levee.health;

import dev.levee.core.internal.EventListeners;
import dev.levee.core.Subscription;
import dev.levee.core.internal.Validate;
import dev.levee.core.internal.Nanos;
import dev.levee.health.internal.CheckRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an application's health checks, level by level, and reports the result.
 *
 * <pre>{@code
 * HealthChecker health = HealthChecker.ofDefaults("orders");
 * health.register(HealthLevel.LIVENESS, "heap", HealthChecks.heap(0.90, 0.98));
 * health.register(HealthLevel.READINESS, "inventory",
 *         DependencyCheck.builder("inventory").circuitBreaker(breaker::state).build());
 * HealthReport ready = health.readiness();       // or expose it: HealthEndpoint.start(health)
 * }</pre>
 *
 * <p><b>Model.</b> Checks are registered per {@link HealthLevel}; asking a level runs its checks
 * ({@link HealthLevel#DEEP} runs liveness, readiness and deep checks) and aggregates their results
 * into a {@link HealthReport}: no checks → HEALTHY; any critical UNHEALTHY → UNHEALTHY; else any
 * DEGRADED or non-critical UNHEALTHY → DEGRADED; else HEALTHY.
 *
 * <p><b>Guarantees.</b>
 * <ul>
 *   <li>A level's checks run concurrently on the checker's bounded pool, so a level takes about as
 *       long as its slowest check, never longer than its timeout (unless the pool is smaller than the
 *       number of checks: then a queued check's wait counts against its timeout).</li>
 *   <li>A check that has not finished by its timeout is reported UNHEALTHY ("timed out after …", its
 *       latency the timeout) and its thread is interrupted; the other checks are not delayed.</li>
 *   <li>A check never runs twice at once: concurrent callers share one run, and while a timed-out
 *       run's code has not returned, callers get "still running" instead of a second run. With a
 *       {@link HealthCheckConfig#cacheTtl() cache TTL}, a result is reused for the TTL and refreshed in
 *       the background, so a storm of probes runs an expensive check at most once per TTL.</li>
 *   <li>A throwing check is UNHEALTHY with the exception's message; an {@link Error} is reported
 *       and rethrown on the pool thread, never swallowed.</li>
 *   <li>Status changes are published as {@link HealthEvent}s and logged: WARN on a change to
 *       UNHEALTHY, INFO otherwise.</li>
 *   <li>{@link #close()} interrupts running checks and stops the pool; no thread of the checker
 *       is left running (a check that ignores interrupts keeps its thread until it returns).</li>
 * </ul>
 *
 * <p><b>Knobs</b>: per level timeouts, pool size and time sources in {@link HealthCheckerConfig}; per
 * check criticality, cache, timeout and hysteresis in {@link HealthCheckConfig}.
 *
 * <p><b>Cost.</b> Not a hot path: a report allocates its futures and results. A cached check costs a
 * lock and a ticker read. Pool threads are created on demand and retire after 30 s idle.
 */
public final class HealthChecker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HealthChecker.class);
    private static final long POOL_KEEP_ALIVE_SECONDS = 30;
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private final String name;
    private final HealthCheckerConfig config;
    private final ThreadPoolExecutor pool;
    private final ReentrantLock registrationLock = new ReentrantLock();
    private volatile List<Registered> registered = List.of();
    private final EventListeners<HealthEvent> listeners = new EventListeners<>();
    private final AtomicReferenceArray<HealthStatus> levelStatus =
            new AtomicReferenceArray<>(HealthLevel.values().length);
    private volatile @Nullable HealthReport startupLatched;
    private volatile boolean closed;

    private HealthChecker(String name, HealthCheckerConfig config) {
        this.name = name;
        this.config = config;
        for (int i = 0; i < levelStatus.length(); i++) {
            levelStatus.set(i, HealthStatus.HEALTHY);
        }
        this.pool = new ThreadPoolExecutor(config.maxConcurrentChecks(), config.maxConcurrentChecks(),
                POOL_KEEP_ALIVE_SECONDS, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), threads(name));
        pool.allowCoreThreadTimeOut(true);
    }

    /**
     * A checker with {@code config}.
     *
     * @param name the checker's name (metrics tag, events, thread names)
     * @param config the config
     * @return the checker
     */
    public static HealthChecker of(String name, HealthCheckerConfig config) {
        Validate.name("HealthChecker", name);
        Validate.notNull(Validate.describe("HealthChecker", name), "config", config);
        return new HealthChecker(name, config);
    }

    /**
     * A checker with the default config.
     *
     * @param name the checker's name
     * @return the checker
     */
    public static HealthChecker ofDefaults(String name) {
        return of(name, HealthCheckerConfig.defaults());
    }

    /**
     * The checker's name.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The checker's config.
     *
     * @return the config
     */
    public HealthCheckerConfig config() {
        return config;
    }

    /**
     * Registers a critical, uncached check.
     *
     * @param level the level it answers
     * @param checkName its name, unique within this checker
     * @param check the check
     * @return closing it unregisters the check
     * @throws IllegalArgumentException if the name is taken
     */
    public Subscription register(HealthLevel level, String checkName, HealthCheck check) {
        return register(level, checkName, check, HealthCheckConfig.defaults());
    }

    /**
     * Registers a check with its own config.
     *
     * @param level the level it answers
     * @param checkName its name, unique within this checker
     * @param check the check
     * @param checkConfig criticality, cache, timeout, hysteresis
     * @return closing it unregisters the check
     * @throws IllegalArgumentException if the name is taken
     */
    public Subscription register(HealthLevel level, String checkName, HealthCheck check, HealthCheckConfig checkConfig) {
        Objects.requireNonNull(level, "level");
        Validate.name("HealthCheck", checkName);
        Objects.requireNonNull(check, "check");
        Objects.requireNonNull(checkConfig, "checkConfig");
        CheckRunner runner = new CheckRunner(checkName, check, checkConfig, config.ticker(), config.scheduler(), pool,
                this::completed);
        Registered entry = new Registered(level, runner);
        registrationLock.lock();
        try {
            for (Registered r : registered) {
                if (r.runner.name().equals(checkName)) {
                    throw new IllegalArgumentException(
                            "HealthChecker '" + name + "': a check named '" + checkName + "' is already registered");
                }
            }
            List<Registered> next = new ArrayList<>(registered);
            next.add(entry);
            registered = List.copyOf(next);
        } finally {
            registrationLock.unlock();
        }
        return () -> unregister(entry);
    }

    private void unregister(Registered entry) {
        registrationLock.lock();
        try {
            List<Registered> next = new ArrayList<>(registered);
            next.remove(entry);
            registered = List.copyOf(next);
        } finally {
            registrationLock.unlock();
        }
    }

    /**
     * The names of the checks a level runs, in registration order.
     *
     * @param level the level
     * @return the names
     */
    public List<String> checkNames(HealthLevel level) {
        List<String> names = new ArrayList<>();
        for (Registered r : registered) {
            if (runs(level, r.level)) {
                names.add(r.runner.name());
            }
        }
        return names;
    }

    private static boolean runs(HealthLevel asked, HealthLevel registeredAt) {
        if (asked == HealthLevel.DEEP) {
            return registeredAt != HealthLevel.STARTUP;
        }
        return asked == registeredAt;
    }

    /**
     * Runs a level's checks concurrently and completes with the report, at the latest when the level's
     * timeout passes.
     *
     * @param level the level
     * @return the report
     * @throws IllegalStateException if the checker is closed
     */
    public CompletableFuture<HealthReport> checkAsync(HealthLevel level) {
        Objects.requireNonNull(level, "level");
        if (closed) {
            throw new IllegalStateException("HealthChecker '" + name + "' is closed");
        }
        HealthReport latched = startupLatched;
        if (level == HealthLevel.STARTUP && latched != null) {
            return CompletableFuture.completedFuture(latched);
        }
        long timeout = Nanos.of(config.timeout(level));
        List<CompletableFuture<CheckResult>> futures = new ArrayList<>();
        for (Registered r : registered) {
            if (runs(level, r.level)) {
                futures.add(r.runner.get(timeout));
            }
        }
        return CompletableFuture.allOf(futures.toArray(new CompletableFuture<?>[0]))
                .thenApply(ignored -> assemble(level, futures));
    }

    /**
     * Runs a level's checks and waits for the report (at most about the level's timeout). If the
     * calling thread is interrupted while waiting, the interrupt flag is kept and the checks not yet
     * finished are reported UNHEALTHY.
     *
     * @param level the level
     * @return the report
     * @throws IllegalStateException if the checker is closed
     */
    public HealthReport check(HealthLevel level) {
        CompletableFuture<HealthReport> report = checkAsync(level);
        try {
            return report.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return interrupted(level);
        } catch (ExecutionException e) {
            // assemble() does not throw; keep the cause visible if it ever does.
            throw new IllegalStateException("HealthChecker '" + name + "': report failed", e.getCause());
        }
    }

    private HealthReport interrupted(HealthLevel level) {
        List<CheckResult> results = new ArrayList<>();
        for (String check : checkNames(level)) {
            results.add(CheckResult.unhealthy("not finished: the caller was interrupted").withName(check));
        }
        return new HealthReport(level, HealthReport.aggregate(results), config.clock().instant(), results);
    }

    /**
     * The liveness report.
     *
     * @return the report
     */
    public HealthReport liveness() {
        return check(HealthLevel.LIVENESS);
    }

    /**
     * The readiness report.
     *
     * @return the report
     */
    public HealthReport readiness() {
        return check(HealthLevel.READINESS);
    }

    /**
     * The startup report (latched HEALTHY after its first HEALTHY report, unless configured otherwise).
     *
     * @return the report
     */
    public HealthReport startup() {
        return check(HealthLevel.STARTUP);
    }

    /**
     * The deep report: every liveness, readiness and deep check, under the deep timeout.
     *
     * @return the report
     */
    public HealthReport deep() {
        return check(HealthLevel.DEEP);
    }

    private HealthReport assemble(HealthLevel level, List<CompletableFuture<CheckResult>> futures) {
        List<CheckResult> results = new ArrayList<>(futures.size());
        for (CompletableFuture<CheckResult> f : futures) {
            results.add(f.join());
        }
        HealthStatus status = HealthReport.aggregate(results);
        HealthReport report = new HealthReport(level, status, config.clock().instant(), results);
        HealthStatus before = levelStatus.getAndSet(level.ordinal(), status);
        if (before != status) {
            levelChanged(level, before, status);
        }
        if (level == HealthLevel.STARTUP && status == HealthStatus.HEALTHY && config.latchStartup()) {
            startupLatched = report;
        }
        return report;
    }

    private void levelChanged(HealthLevel level, HealthStatus from, HealthStatus to) {
        if (to == HealthStatus.UNHEALTHY) {
            LOG.warn("HealthChecker '{}': {} changed from {} to UNHEALTHY", name, level.tag(), from);
        } else {
            LOG.info("HealthChecker '{}': {} changed from {} to {}", name, level.tag(), from, to);
        }
        if (!listeners.isEmpty()) {
            listeners.publish(new HealthEvent.StatusChanged(name, config.ticker().read(), level, from, to));
        }
    }

    private void completed(CheckRunner runner, CheckResult reported, HealthStatus before, boolean timedOut, long now) {
        if (before != reported.status()) {
            if (reported.status() == HealthStatus.UNHEALTHY) {
                LOG.warn("HealthChecker '{}': check '{}' changed from {} to UNHEALTHY: {}", name, runner.name(), before,
                        reported.message());
            } else {
                LOG.info("HealthChecker '{}': check '{}' changed from {} to {}", name, runner.name(), before,
                        reported.status());
            }
            if (!listeners.isEmpty()) {
                listeners.publish(new HealthEvent.CheckStatusChanged(name, now, runner.name(), before,
                        reported.status(), reported.message()));
            }
        }
        if (!listeners.isEmpty()) {
            listeners.publish(new HealthEvent.CheckCompleted(name, now, runner.name(), reported.status(),
                    reported.latencyNanos(), timedOut));
        }
    }

    /**
     * Registers a listener for every {@link HealthEvent}.
     *
     * @param listener the listener
     * @return closing it unregisters the listener
     */
    public Subscription onEvent(Consumer<? super HealthEvent> listener) {
        return listeners.subscribe(listener);
    }

    /**
     * The status of a level in its last report (HEALTHY before the first).
     *
     * @param level the level
     * @return its last status
     */
    public HealthStatus lastStatus(HealthLevel level) {
        return levelStatus.get(level.ordinal());
    }

    /**
     * The last reported status of a registered check (HEALTHY before its first run).
     *
     * @param checkName the check's name
     * @return its status, or null if no such check is registered
     */
    public @Nullable HealthStatus lastCheckStatus(String checkName) {
        for (Registered r : registered) {
            if (r.runner.name().equals(checkName)) {
                return r.runner.reportedStatus();
            }
        }
        return null;
    }

    /**
     * A snapshot of the checker's statuses and counters.
     *
     * @return the snapshot
     */
    public HealthMetrics metrics() {
        Map<HealthLevel, HealthStatus> levels = new EnumMap<>(HealthLevel.class);
        for (HealthLevel l : HealthLevel.values()) {
            levels.put(l, lastStatus(l));
        }
        Map<String, HealthStatus> checks = new LinkedHashMap<>();
        long runs = 0;
        long timeouts = 0;
        for (Registered r : registered) {
            checks.put(r.runner.name(), r.runner.reportedStatus());
            runs += r.runner.runs();
            timeouts += r.runner.timeouts();
        }
        return new HealthMetrics(levels, checks, runs, timeouts);
    }

    /**
     * Whether {@link #close()} was called.
     *
     * @return true once closed
     */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Stops the checker: runs in flight complete UNHEALTHY ("health checker closed"), running checks
     * are interrupted, and the pool's threads end (waiting up to 5 s for them). Later calls to
     * {@link #checkAsync} throw. Idempotent. If the calling thread is interrupted while waiting, the
     * flag is kept.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Registered r : registered) {
            r.runner.close(); // callers get "closed" before the interrupts turn runs into "interrupted"
        }
        pool.shutdownNow();
        try {
            if (!pool.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("HealthChecker '{}': a check ignored its interrupt and still runs after close()", name);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "HealthChecker[" + name + "]";
    }

    private static ThreadFactory threads(String name) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread t = new Thread(runnable, "levee-health-" + name + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    private static final class Registered {
        final HealthLevel level;
        final CheckRunner runner;

        Registered(HealthLevel level, CheckRunner runner) {
            this.level = level;
            this.runner = runner;
        }
    }
}
