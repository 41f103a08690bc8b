package dev.levee.loadshed.signal;

import dev.levee.core.LoadSignal;
import dev.levee.core.Scheduler;
import dev.levee.core.internal.Validate;
import java.time.Duration;
import java.util.function.DoubleSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link LoadSignal} whose value is sampled in the background on a {@link Scheduler} and read on the
 * hot path as one volatile field: the shape of every Levee signal that is costly to measure (CPU,
 * memory). The source runs once per interval on the scheduler's thread, never per call.
 *
 * <p><b>Guarantees.</b> {@link #load()} never blocks, never allocates and never returns a negative or
 * NaN value: a reading that is negative, NaN or infinite, or a source that throws, reads as
 * {@code 0.0} (a signal must not shed on missing data, per {@link LoadSignal}). Before the first
 * sample it reads {@code 0.0}; {@link #sampleNow()} takes one at once.
 */
public final class SampledLoadSignal implements LoadSignal, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SampledLoadSignal.class);

    private final String name;
    private final DoubleSupplier source;
    private final Scheduler scheduler;
    private final long intervalNanos;
    private volatile double value;
    private volatile boolean closed;
    private volatile Scheduler.@Nullable Cancellable next;

    private SampledLoadSignal(String name, DoubleSupplier source, Scheduler scheduler, long intervalNanos) {
        this.name = name;
        this.source = source;
        this.scheduler = scheduler;
        this.intervalNanos = intervalNanos;
    }

    /**
     * Starts sampling {@code source} every {@code interval}; takes the first sample at once.
     *
     * @param name the signal's name (for logs)
     * @param source the measurement, on the {@link LoadSignal} scale (0 idle, 1 at capacity)
     * @param interval how often to sample, in [1 ms, 1 hour]
     * @param scheduler where sampling runs
     * @return the running signal; {@link #close()} stops it
     */
    public static SampledLoadSignal of(String name, DoubleSupplier source, Duration interval, Scheduler scheduler) {
        String policy = Validate.describe("SampledLoadSignal", Validate.name("SampledLoadSignal", name));
        Validate.notNull(policy, "source", source);
        Validate.notNull(policy, "interval", interval);
        Validate.check(interval.compareTo(Duration.ofMillis(1)) >= 0 && interval.compareTo(Duration.ofHours(1)) <= 0,
                policy, "interval", "in [1 ms, 1 hour]", interval);
        Validate.notNull(policy, "scheduler", scheduler);
        SampledLoadSignal s = new SampledLoadSignal(name, source, scheduler, interval.toNanos());
        s.sampleNow();
        s.schedule();
        return s;
    }

    private void schedule() {
        if (!closed) {
            next = scheduler.schedule(this::tick, intervalNanos);
        }
    }

    private void tick() {
        if (closed) {
            return;
        }
        try {
            sampleNow();
        } finally {
            schedule();
        }
    }

    /**
     * Takes a sample now (the scheduler calls this every interval).
     *
     * @return the sanitized value stored
     */
    public double sampleNow() {
        double v;
        try {
            v = source.getAsDouble();
        } catch (RuntimeException e) {
            LOG.debug("Load signal '{}' failed to sample; reading 0", name, e);
            v = 0.0;
        }
        double clean = v >= 0.0 && Double.isFinite(v) ? v : 0.0;
        value = clean;
        return clean;
    }

    @Override
    public double load() {
        return value;
    }

    /** @return the signal's name */
    public String name() {
        return name;
    }

    /** Stops sampling; the last value stays readable. Idempotent. */
    @Override
    public void close() {
        closed = true;
        Scheduler.Cancellable c = next;
        if (c != null) {
            c.cancel();
        }
    }

    @Override
    public String toString() {
        return "SampledLoadSignal[" + name + "=" + value + "]";
    }
}
