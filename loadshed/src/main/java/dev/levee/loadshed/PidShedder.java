package dev.levee.loadshed;

import dev.levee.core.RandomSource;
import dev.levee.core.Scheduler;
import dev.levee.core.internal.Validate;
import dev.levee.loadshed.internal.LatencyQuantile;
import dev.levee.loadshed.internal.PidController;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.DoubleSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Sheds a share of requests chosen by a PID controller that holds a measurement (p99 latency by
 * default) at a setpoint (seed 000, {@code PIDLoadShedder}; Uber's Cinnamon works the same way).
 *
 * <pre>{@code
 * PidShedder shedder = PidShedder.of("api", PidShedderConfig.defaults());   // p99 of its own calls vs 200 ms
 * Pipeline.of(shedder, bulkhead).execute(() -> handle(request));
 * }</pre>
 *
 * <p><b>Model.</b> Every {@code updateInterval}, on the {@link Scheduler} (never per call):
 * <pre>
 *   error     = measured − setpoint
 *   P         = kp · error
 *   integral  = clamp(integral + error · dt, 0, maxIntegral)     (anti-windup, seed: [0, 100])
 *   D         = kd · (error − lastError) / dt
 *   rejection = clamp((P + ki · integral + D) / outputScale, 0, 1) (seed: / 1000)
 * </pre>
 * Each request is dropped when {@code random.nextDouble() < rejection} (a seeded
 * {@link RandomSource} makes it reproducible). The built-in measurement is Little's-law estimate of
 * the latency a request admitted now will see, {@code 1000 · inFlight / completions per second} in
 * milliseconds, or (configurable) the p99 of the latencies its permits reported in the last interval
 * — see {@link PidShedderConfig.BuiltInMeasurement} for why the estimate is the default. With nothing
 * in flight it reads 0 (no evidence of overload, so shedding eases off).
 *
 * <p><b>Priority-aware variant</b> ({@code priorityAware}). The same share {@code r} is taken from the
 * lowest priority upward: with {@code a_k} arrivals of level {@code k} in the last interval and
 * {@code A} in all, level {@code k} is dropped with probability
 * <pre>
 *   d_k = clamp((r·A − Σ_{j&lt;k} a_j) / a_k, 0, 1)
 * </pre>
 * so the levels below fill the quota first and level 10 is shed only when everything else is.
 *
 * <p><b>Guarantees.</b> The probability is always in [0, 1]; the integral never leaves
 * [0, maxIntegral] (a long overload cannot wind it up beyond what clears in
 * {@code maxIntegral / |error|} seconds once the overload ends). A NaN measurement reads as no
 * rejection.
 *
 * <p><b>Knobs:</b> {@link PidShedderConfig}. <b>Cost</b> per decision: a volatile read, one random
 * draw when the probability is above zero, and in the priority-aware variant one atomic add; no lock,
 * no allocation. Close the shedder to stop its updates.
 */
public final class PidShedder extends BaseShedder implements AutoCloseable {
    private static final int LEVELS = RequestPriority.MAX + 1;

    private final PidShedderConfig config;
    private final PidController controller;
    private final @Nullable DoubleSupplier measurement;
    private final LatencyQuantile latencies = new LatencyQuantile();
    private final java.util.concurrent.atomic.LongAdder completions = new java.util.concurrent.atomic.LongAdder();
    private final boolean estimateLatency;
    private double completionRate;
    private final RandomSource random;
    private final boolean priorityAware;
    private final long intervalNanos;
    private final AtomicLongArray arrivals = new AtomicLongArray(LEVELS);
    private volatile double rejection;
    private volatile double[] levelDrop = new double[LEVELS];
    private volatile double lastMeasured;
    private volatile boolean closed;
    private volatile Scheduler.@Nullable Cancellable next;
    private long lastUpdate;

    private PidShedder(String name, PidShedderConfig config) {
        super(name, config.ticker(), config.retryAfter().toNanos());
        this.config = config;
        this.controller = new PidController(config.setpoint(), config.kp(), config.ki(), config.kd(),
                config.maxIntegral(), config.outputScale());
        this.measurement = config.measurement();
        this.estimateLatency = config.builtInMeasurement() == PidShedderConfig.BuiltInMeasurement.ESTIMATED_LATENCY;
        this.random = config.random();
        this.priorityAware = config.priorityAware();
        this.intervalNanos = config.updateInterval().toNanos();
        this.lastUpdate = ticker.read();
    }

    /**
     * Creates a PID shedder and schedules its first update.
     *
     * @param name the name, used in rejections, events and metric tags
     * @param config the configuration
     * @return the shedder
     */
    public static PidShedder of(String name, PidShedderConfig config) {
        Validate.name("PidShedder", name);
        Validate.notNull(Validate.describe("PidShedder", name), "config", config);
        PidShedder s = new PidShedder(name, config);
        s.schedule();
        return s;
    }

    /**
     * A PID shedder with the defaults: its own p99 latency held at 200 ms.
     *
     * @param name the name
     * @return the shedder
     */
    public static PidShedder ofDefaults(String name) {
        return of(name, PidShedderConfig.defaults());
    }

    private void schedule() {
        if (!closed) {
            next = config.scheduler().schedule(this::tick, intervalNanos);
        }
    }

    private void tick() {
        if (closed) {
            return;
        }
        try {
            update(ticker.read());
        } finally {
            schedule();
        }
    }

    /**
     * Runs the controller once (the scheduler calls it every interval; tests may call it directly).
     * Not to be called concurrently with itself.
     *
     * @param nowNanos the current reading of the ticker
     * @return the new rejection probability
     */
    public double update(long nowNanos) {
        double dt = Math.max(1, nowNanos - lastUpdate) / 1e9;
        lastUpdate = nowNanos;
        double measured = measurement != null ? measurement.getAsDouble() : builtIn(dt);
        lastMeasured = measured;
        double from = rejection;
        double r = controller.update(measured, dt);
        if (priorityAware) {
            levelDrop = levelProbabilities(r);
        }
        rejection = r;
        if (r != from && !events.isEmpty()) {
            events.publish(new ShedderEvent.RejectionRateChanged(name, nowNanos, from, r, measured));
        }
        return r;
    }

    /**
     * The built-in measurement, in milliseconds: the latency quantile of the interval's completions, or
     * Little's-law estimate of the time a request admitted now will spend inside,
     * {@code inFlight / completionRate}, with the rate smoothed over the last intervals.
     */
    private double builtIn(double dt) {
        double q = latencies.quantileAndReset(config.quantile(), 0.0);
        long done = completions.sumThenReset();
        if (!estimateLatency) {
            return q;
        }
        double rate = done / dt;
        completionRate = completionRate == 0.0 ? rate : 0.5 * completionRate + 0.5 * rate;
        int n = inFlight.get();
        if (n <= 0) {
            return 0.0;
        }
        return completionRate <= 0.0 ? q : 1000.0 * n / completionRate;
    }

    /** d_k = clamp((r·A − Σ_{j<k} a_j) / a_k, 0, 1), from the arrivals of the last interval. */
    private double[] levelProbabilities(double r) {
        long[] a = new long[LEVELS];
        long total = 0;
        for (int k = 1; k < LEVELS; k++) {
            a[k] = arrivals.getAndSet(k, 0);
            total += a[k];
        }
        double[] d = new double[LEVELS];
        if (total == 0) {
            java.util.Arrays.fill(d, r);
            return d;
        }
        double quota = r * total;
        double below = 0;
        for (int k = 1; k < LEVELS; k++) {
            double left = quota - below;
            if (a[k] == 0) {
                d[k] = left > 0 ? 1.0 : 0.0;
            } else {
                d[k] = Math.max(0.0, Math.min(1.0, left / a[k]));
            }
            below += a[k];
        }
        return d;
    }

    @Override
    public ShedDecision decide(int priority, long nowNanos) {
        double p;
        if (priorityAware) {
            int level = RequestPriority.clamp(priority);
            arrivals.incrementAndGet(level);
            p = levelDrop[level];
        } else {
            p = rejection;
        }
        return p > 0.0 && random.nextDouble() < p ? ShedDecision.PID : ShedDecision.ADMITTED;
    }

    @Override
    public void onSuccess(long latencyNanos) {
        latencies.record(latencyNanos);
        completions.increment();
        release();
    }

    @Override
    public void onFailure(long latencyNanos, Throwable error) {
        latencies.record(latencyNanos);
        completions.increment();
        release();
    }

    /** @return the current rejection probability, in [0, 1] */
    public double rejectionProbability() {
        return rejection;
    }

    /**
     * The drop probability of a level in the priority-aware variant (the plain probability otherwise).
     *
     * @param level in [1, 10]
     * @return the probability, in [0, 1]
     */
    public double rejectionProbability(int level) {
        return priorityAware ? levelDrop[RequestPriority.clamp(level)] : rejection;
    }

    /** @return the measurement of the last update */
    public double lastMeasurement() {
        return lastMeasured;
    }

    /** @return the controller's clamped integral (for tests and dashboards) */
    public double integral() {
        return controller.integral();
    }

    /** @return the configuration */
    public PidShedderConfig config() {
        return config;
    }

    @Override
    public double shedRate() {
        return rejection;
    }

    /** Stops the updates; the shedder keeps its last probability. Idempotent. */
    @Override
    public void close() {
        closed = true;
        Scheduler.Cancellable c = next;
        if (c != null) {
            c.cancel();
        }
    }
}
