package dev.levee.health.internal;

import dev.levee.core.Scheduler;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Nanos;
import dev.levee.health.CheckResult;
import dev.levee.health.HealthCheck;
import dev.levee.health.HealthCheckConfig;
import dev.levee.health.HealthStatus;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * Runs one registered check: single flight, cache, timeout with interrupt, hysteresis.
 *
 * <p>Thread-safe. Every caller either gets the cached result, joins the run in flight, or starts the
 * one run; the user's code never runs twice at once, not even after a timeout: a timed-out run whose
 * code has not returned keeps {@code executing} set, and callers get a "still running" result
 * instead of a second run.
 */
public final class CheckRunner {

    /** Told about every completed run, outside the lock. */
    public interface Observer {
        /**
         * A run completed.
         *
         * @param runner the runner
         * @param reported the reported result (after hysteresis)
         * @param before the reported status before this run
         * @param timedOut whether the run timed out
         * @param nowNanos when, on the ticker
         */
        void completed(CheckRunner runner, CheckResult reported, HealthStatus before, boolean timedOut, long nowNanos);
    }

    /*
     * State, all guarded by lock:
     *   inFlight   the run callers join; null when none. Cleared by finish(), which happens once per run
     *              (by the pool thread, or by the timeout task, whichever comes first).
     *   executing  the user's code may be running: set when a run is created, cleared when its body
     *              returns or when the timeout claims a body that never started (Run.started). While set,
     *              no new run starts.
     *   last       the last reported result and its end time (the cache).
     */
    private final String name;
    private final HealthCheck check;
    private final HealthCheckConfig config;
    private final Ticker ticker;
    private final Scheduler scheduler;
    private final ExecutorService executor;
    private final Observer observer;
    private final long ttlNanos;
    private final long ownTimeoutNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final Hysteresis hysteresis;
    private final AtomicLong runs = new AtomicLong();
    private final AtomicLong timeouts = new AtomicLong();
    private @Nullable Run inFlight;
    private boolean executing;
    private long executingSince;
    private @Nullable CheckResult last;
    private long lastAt;
    private volatile HealthStatus reportedStatus = HealthStatus.HEALTHY;

    /**
     * @param name the registered name
     * @param check the user's check
     * @param config its config
     * @param ticker the checker's ticker
     * @param scheduler the checker's scheduler (timeouts)
     * @param executor the checker's pool
     * @param observer told about every completed run
     */
    public CheckRunner(String name, HealthCheck check, HealthCheckConfig config, Ticker ticker, Scheduler scheduler,
            ExecutorService executor, Observer observer) {
        this.name = name;
        this.check = check;
        this.config = config;
        this.ticker = ticker;
        this.scheduler = scheduler;
        this.executor = executor;
        this.observer = observer;
        this.ttlNanos = Nanos.of(config.cacheTtl());
        Duration own = config.timeout();
        this.ownTimeoutNanos = own == null ? Long.MAX_VALUE : Nanos.of(own);
        this.hysteresis = new Hysteresis(config.consecutiveToWorsen(), config.consecutiveToRecover());
    }

    /** @return the registered name */
    public String name() {
        return name;
    }

    /** @return the check's config */
    public HealthCheckConfig config() {
        return config;
    }

    /** @return the last reported status (HEALTHY before the first run) */
    public HealthStatus reportedStatus() {
        return reportedStatus;
    }

    /** @return runs completed */
    public long runs() {
        return runs.get();
    }

    /** @return runs that timed out */
    public long timeouts() {
        return timeouts.get();
    }

    /**
     * The check's result for a caller who may wait {@code levelTimeoutNanos}.
     *
     * @param levelTimeoutNanos the caller's level timeout
     * @return completes with the result, at the latest when the effective timeout passes
     */
    public CompletableFuture<CheckResult> get(long levelTimeoutNanos) {
        long timeout = Math.min(levelTimeoutNanos, ownTimeoutNanos);
        Run join;
        Run started = null;
        CheckResult stale = null;
        lock.lock();
        try {
            long now = ticker.read();
            CheckResult cached = last;
            long age = now - lastAt;
            if (cached != null && ttlNanos > 0 && age < ttlNanos) {
                return CompletableFuture.completedFuture(cached);
            }
            if (cached != null && ttlNanos > 0 && config.refreshAhead() && age < Nanos.add(ttlNanos, ttlNanos)) {
                // Serve the stale result; start the one refresh unless it is already under way.
                stale = cached;
                if (inFlight == null && !executing) {
                    started = newRun(timeout, now);
                }
                join = null;
            } else if (inFlight != null) {
                join = inFlight;
            } else if (executing) {
                return CompletableFuture.completedFuture(stillRunning(now));
            } else {
                started = newRun(timeout, now);
                join = started;
            }
        } finally {
            lock.unlock();
        }
        if (started != null) {
            submit(started);
        }
        if (stale != null || join == null) {
            return CompletableFuture.completedFuture(stale);
        }
        if (join.timeoutNanos <= timeout) {
            return join.result;
        }
        return bounded(join, timeout);
    }

    private Run newRun(long timeoutNanos, long now) {
        Run run = new Run(now, timeoutNanos);
        inFlight = run;
        executing = true;
        executingSince = now;
        return run;
    }

    private void submit(Run run) {
        // The timer first: if it fires before the task is set, it claims the run and the body skips.
        run.timer = scheduler.schedule(() -> timedOut(run), run.timeoutNanos);
        try {
            run.task = executor.submit(() -> body(run));
        } catch (RejectedExecutionException closed) {
            if (run.started.compareAndSet(false, true)) {
                clearExecuting();
            }
            finish(run, CheckResult.unhealthy("health checker closed"), false);
        }
    }

    private void body(Run run) {
        if (!run.started.compareAndSet(false, true)) {
            return; // the timeout claimed this run before it started
        }
        CheckResult raw;
        try {
            CheckResult r = check.check();
            raw = r != null ? r : CheckResult.unhealthy("check returned null");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            raw = CheckResult.unhealthy("interrupted");
        } catch (Exception e) {
            raw = CheckResult.unhealthy(describe(e));
        } catch (Error e) {
            clearExecuting();
            finish(run, CheckResult.unhealthy(describe(e)), false);
            throw e;
        }
        clearExecuting();
        finish(run, raw, false);
    }

    private void timedOut(Run run) {
        finish(run, CheckResult.unhealthy("timed out after " + Duration.ofNanos(run.timeoutNanos)), true);
        Future<?> task = run.task;
        if (run.started.compareAndSet(false, true)) {
            clearExecuting(); // never started: nothing to interrupt
            if (task != null) {
                task.cancel(false);
            }
        } else if (task != null) {
            task.cancel(true); // interrupts the pool thread running the check
        }
    }

    private void clearExecuting() {
        lock.lock();
        try {
            executing = false;
        } finally {
            lock.unlock();
        }
    }

    private CompletableFuture<CheckResult> bounded(Run join, long timeoutNanos) {
        // This caller may wait less than the run it joined (a readiness probe joining a deep run).
        CompletableFuture<CheckResult> mine = new CompletableFuture<>();
        long start = ticker.read();
        Scheduler.Cancellable timer = scheduler.schedule(() -> mine.complete(
                CheckResult.unhealthy("timed out after " + Duration.ofNanos(timeoutNanos))
                        .withName(name).measured(ticker.read() - start, config.critical())), timeoutNanos);
        join.result.whenComplete((r, e) -> {
            timer.cancel();
            mine.complete(r);
        });
        return mine;
    }

    private CheckResult stillRunning(long now) {
        return CheckResult.unhealthy("still running: an earlier run timed out and has not returned")
                .withName(name).measured(now - executingSince, config.critical());
    }

    private void finish(Run run, CheckResult raw, boolean timedOut) {
        long now = ticker.read();
        CheckResult reported;
        HealthStatus before;
        lock.lock();
        try {
            if (inFlight != run) {
                return; // the other of timeout / completion finished it
            }
            inFlight = null;
            before = hysteresis.reported();
            HealthStatus status = hysteresis.observe(raw.status());
            CheckResult r = raw.withName(name).measured(now - run.startNanos, config.critical());
            if (status != raw.status()) {
                r = r.withStatus(status, raw.message())
                        .withDetail("observed", raw.status().tag())
                        .withDetail("results_until_change", hysteresis.pending());
            }
            reported = r;
            last = reported;
            lastAt = now;
            reportedStatus = status;
        } finally {
            lock.unlock();
        }
        runs.incrementAndGet();
        if (timedOut) {
            timeouts.incrementAndGet();
        } else {
            Scheduler.Cancellable timer = run.timer;
            if (timer != null) {
                timer.cancel();
            }
        }
        try {
            observer.completed(this, reported, before, timedOut, now); // events before callers see the result
        } finally {
            run.result.complete(reported);
        }
    }

    /** Completes a run in flight with "closed" and stops its timer; used by the checker's close(). */
    public void close() {
        Run run;
        lock.lock();
        try {
            run = inFlight;
        } finally {
            lock.unlock();
        }
        if (run != null) {
            finish(run, CheckResult.unhealthy("health checker closed"), false);
        }
    }

    private static String describe(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getName() : e.getClass().getSimpleName() + ": " + m;
    }

    private static final class Run {
        final CompletableFuture<CheckResult> result = new CompletableFuture<>();
        final long startNanos;
        final long timeoutNanos;
        final AtomicBoolean started = new AtomicBoolean();
        volatile @Nullable Future<?> task;
        volatile Scheduler.@Nullable Cancellable timer;

        Run(long startNanos, long timeoutNanos) {
            this.startNanos = startNanos;
            this.timeoutNanos = timeoutNanos;
        }
    }
}
