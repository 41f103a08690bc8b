package dev.levee.core;

import dev.levee.core.internal.Validate;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * An opt-in cheap {@link Ticker}: a background updater copies a source clock into a volatile field
 * every {@code resolution}, so {@link #read()} is one volatile load instead of a
 * {@code System.nanoTime()} (18–33 ns on the development VMs, more than most gates' whole decision).
 * Create it with {@link Ticker#coarse()} (1 ms) or {@link Ticker#coarse(Duration)}, and give it to
 * every policy of a pipeline ({@code .ticker(Ticker.coarse())} in their configs): gates fuse only when
 * they share one ticker instance, and {@code Ticker.coarse(r)} returns the same instance for the same
 * resolution while it is in use.
 *
 * <p><b>Model.</b> The updater reads the source and publishes the reading if it is later than the
 * published one; readers read the published value. There is no reading on the caller's thread.
 *
 * <p><b>Guarantees.</b>
 * <ul>
 *   <li>Monotonic: a reading is never smaller than an earlier one (the updater publishes only forward
 *       moves).</li>
 *   <li>Bounded lag: while the updater runs on time, a reading is behind the source by less than
 *       {@code resolution + d}, where {@code d} is how late the updater thread ran its last tick
 *       (scheduling delay: usually microseconds; a GC pause or a starved machine stretches it).</li>
 *   <li>A stalled updater freezes the reading (it never guesses ahead); when the updater runs again the
 *       reading catches up to the source in one step, not one resolution per tick. So time seen through
 *       a coarse ticker stands still during a stall, then jumps.</li>
 * </ul>
 *
 * <p><b>What the bound means per pattern</b> (resolution {@code r}, default 1 ms):
 * <table>
 *   <caption>Where a coarse ticker fits</caption>
 *   <tr><th>pattern</th><th>effect of reading up to {@code r} late</th><th>fit</th></tr>
 *   <tr><td>circuit breaker</td><td>opens, half-opens and expires time-window buckets up to {@code r} late;
 *       a slow-call threshold is compared with a latency accurate to about {@code r}</td>
 *       <td>fine (waits are seconds; thresholds should be well above {@code r})</td></tr>
 *   <tr><td>timeout, deadline</td><td>expiry seen up to {@code r} late</td><td>fine for timeouts of
 *       milliseconds and more</td></tr>
 *   <tr><td>rate limiter</td><td>time is quantised to {@code r}: a limit of {@code n} per second with
 *       {@code n} up to about {@code 1/r} (1,000/s at 1 ms) keeps its average rate and only bunches
 *       permits into {@code r}-wide ticks; above that, permits bunch into bursts of {@code n·r}</td>
 *       <td>fine up to about {@code 1/r} permits per second</td></tr>
 *   <tr><td>bulkhead</td><td>reads time only for waits and events</td><td>fine</td></tr>
 *   <tr><td>latency measurement, adaptive concurrency limits, CoDel, percentiles</td><td>a call
 *       shorter than {@code r} measures as 0 or {@code r}</td><td>not for sub-millisecond latencies;
 *       keep {@link Ticker#system()} there</td></tr>
 * </table>
 *
 * <p><b>Knobs.</b>
 * <table>
 *   <caption>Knobs and defaults</caption>
 *   <tr><th>knob</th><th>default</th><th>bound</th></tr>
 *   <tr><td>resolution</td><td>{@link #DEFAULT_RESOLUTION} (1 ms)</td><td>[100 µs, 1 s]</td></tr>
 *   <tr><td>source</td><td>{@link Ticker#system()}</td><td>not null</td></tr>
 *   <tr><td>scheduler</td><td>one shared daemon thread, {@code levee-coarse-ticker}</td><td>not null</td></tr>
 * </table>
 *
 * <p><b>Lifecycle.</b> The shared thread starts when the first coarse ticker is created and stops when no
 * coarse ticker is reachable any more (the updater holds its tickers weakly and checks every tick). Tests
 * that use a {@link ManualTicker} never start it; {@link #of(Ticker, Duration, Scheduler)} drives the
 * updater on a scheduler of the caller's choice (a {@link ManualScheduler} in tests), with no thread.
 *
 * <p><b>Cost.</b> {@link #read()}: one volatile load. The updater: one source reading and at most one
 * volatile write per tick per ticker (1,000 a second at 1 ms), on one thread shared by all coarse
 * tickers.
 */
public final class CoarseTicker implements Ticker {
    /** The default resolution: 1 ms. */
    public static final Duration DEFAULT_RESOLUTION = Duration.ofMillis(1);
    /** The finest resolution accepted: 100 µs (finer would make the updater thread a busy loop). */
    public static final Duration MIN_RESOLUTION = Duration.ofNanos(100_000);
    /** The coarsest resolution accepted: 1 s. */
    public static final Duration MAX_RESOLUTION = Duration.ofSeconds(1);

    private static final String POLICY = "CoarseTicker";

    private final Ticker source;
    private final long resolutionNanos;
    private volatile long reading;

    private CoarseTicker(Ticker source, long resolutionNanos) {
        this.source = source;
        this.resolutionNanos = resolutionNanos;
        this.reading = source.read();
    }

    /**
     * A coarse ticker over {@code source}, updated every {@code resolution} by tasks on
     * {@code scheduler}: for tests (a {@link ManualScheduler}, so nothing runs in the background) and for
     * applications that want the updater on a thread they own. The updater reschedules itself after
     * each tick and stops once the returned ticker is unreachable. Prefer {@link Ticker#coarse(Duration)}
     * otherwise.
     *
     * @param source the clock to copy
     * @param resolution how often to copy it; in [100 µs, 1 s]
     * @param scheduler where the updater runs
     * @return a new coarse ticker, already reading the source's current value
     * @throws InvalidConfigException if an argument is null or the resolution out of bounds
     */
    public static CoarseTicker of(Ticker source, Duration resolution, Scheduler scheduler) {
        Validate.notNull(POLICY, "source", source);
        Validate.notNull(POLICY, "scheduler", scheduler);
        CoarseTicker ticker = new CoarseTicker(source, validResolution(resolution));
        Updater updater = new Updater(ticker, scheduler);
        scheduler.schedule(updater, ticker.resolutionNanos);
        return ticker;
    }

    /** {@link Ticker#coarse(Duration)}: the shared instance for this resolution, on the shared thread. */
    static CoarseTicker shared(Duration resolution) {
        return SharedThread.ticker(validResolution(resolution));
    }

    private static long validResolution(@Nullable Duration resolution) {
        Duration r = Validate.notNull(POLICY, "resolution", resolution);
        long nanos = r.compareTo(MAX_RESOLUTION) > 0 ? Long.MAX_VALUE : r.toNanos();
        Validate.check(nanos >= MIN_RESOLUTION.toNanos() && nanos <= MAX_RESOLUTION.toNanos(), POLICY,
                "resolution", "in [100 µs, 1 s]", r);
        return nanos;
    }

    /** One volatile load. */
    @Override
    public long read() {
        return reading;
    }

    /**
     * How often the reading is updated.
     *
     * @return the resolution
     */
    public Duration resolution() {
        return Duration.ofNanos(resolutionNanos);
    }

    /** Publishes the source's reading if it moved forward (only the updater calls this). */
    void update() {
        long now = source.read();
        if (now - reading > 0) {
            reading = now;
        }
    }

    @Override
    public String toString() {
        return "Ticker.coarse(" + resolution() + ")";
    }

    /**
     * One ticker's update task. It holds the ticker weakly so an unreachable ticker is collected and its
     * updater stops.
     */
    private static final class Updater implements Runnable {
        private final WeakReference<CoarseTicker> ticker;
        private final @Nullable Scheduler scheduler;
        private @Nullable ScheduledFuture<?> periodic;

        /** A self-rescheduling updater on {@code scheduler}. */
        Updater(CoarseTicker ticker, Scheduler scheduler) {
            this.ticker = new WeakReference<>(ticker);
            this.scheduler = scheduler;
        }

        /** A periodic updater on the shared thread. */
        Updater(CoarseTicker ticker) {
            this.ticker = new WeakReference<>(ticker);
            this.scheduler = null;
        }

        @Override
        public void run() {
            CoarseTicker t = ticker.get();
            if (t == null) {
                if (scheduler == null) {
                    SharedThread.stopped(this);
                }
                return;
            }
            t.update();
            long delay = t.resolutionNanos;
            Scheduler s = scheduler;
            if (s != null) {
                s.schedule(this, delay);
            }
        }
    }

    /** The shared daemon thread: started with the first shared ticker, stopped when none is reachable. */
    private static final class SharedThread {
        private static final ReentrantLock LOCK = new ReentrantLock();
        private static final Map<Long, WeakReference<CoarseTicker>> TICKERS = new HashMap<>();
        private static @Nullable ScheduledThreadPoolExecutor executor;
        private static int updaters;

        private SharedThread() {}

        static CoarseTicker ticker(long resolutionNanos) {
            LOCK.lock();
            try {
                WeakReference<CoarseTicker> ref = TICKERS.get(resolutionNanos);
                CoarseTicker existing = ref == null ? null : ref.get();
                if (existing != null) {
                    return existing;
                }
                CoarseTicker ticker = new CoarseTicker(Ticker.system(), resolutionNanos);
                TICKERS.put(resolutionNanos, new WeakReference<>(ticker));
                ScheduledThreadPoolExecutor ex = executor;
                if (ex == null) {
                    ex = new ScheduledThreadPoolExecutor(1, runnable -> {
                        Thread thread = new Thread(runnable, "levee-coarse-ticker");
                        thread.setDaemon(true);
                        return thread;
                    });
                    ex.setRemoveOnCancelPolicy(true);
                    executor = ex;
                }
                Updater updater = new Updater(ticker);
                updater.periodic = ex.scheduleAtFixedRate(updater, resolutionNanos, resolutionNanos,
                        TimeUnit.NANOSECONDS);
                updaters++;
                return ticker;
            } finally {
                LOCK.unlock();
            }
        }

        /** Runs on the shared thread when an updater found its ticker collected. */
        static void stopped(Updater updater) {
            LOCK.lock();
            try {
                ScheduledFuture<?> f = updater.periodic;
                if (f == null || f.isCancelled()) {
                    return;
                }
                f.cancel(false);
                updaters--;
                for (Iterator<WeakReference<CoarseTicker>> it = TICKERS.values().iterator(); it.hasNext(); ) {
                    if (it.next().get() == null) {
                        it.remove();
                    }
                }
                ScheduledThreadPoolExecutor ex = executor;
                if (updaters == 0 && ex != null) {
                    ex.shutdown(); // the thread ends after this task returns
                    executor = null;
                }
            } finally {
                LOCK.unlock();
            }
        }

        /** For tests: whether the map of shared tickers has an entry (live or collected) for the resolution. */
        static boolean listed(long resolutionNanos) {
            LOCK.lock();
            try {
                return TICKERS.containsKey(resolutionNanos);
            } finally {
                LOCK.unlock();
            }
        }

        /** For tests: whether the shared thread is running. */
        static boolean running() {
            LOCK.lock();
            try {
                return executor != null;
            } finally {
                LOCK.unlock();
            }
        }
    }

    /**
     * Whether the shared updater thread is running (for tests of its lifecycle).
     *
     * @return true while some shared coarse ticker is reachable (checked by the updater every tick)
     */
    static boolean sharedThreadRunning() {
        return SharedThread.running();
    }

    /**
     * Whether the shared tickers' map still has an entry for {@code resolution} (for tests: the entry of
     * a collected ticker goes when its updater stops; a live one's stays).
     *
     * @param resolution the resolution
     * @return true if listed
     */
    static boolean sharedTickerListed(Duration resolution) {
        return SharedThread.listed(resolution.toNanos());
    }
}
