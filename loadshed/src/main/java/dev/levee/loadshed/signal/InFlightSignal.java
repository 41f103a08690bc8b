package dev.levee.loadshed.signal;

import dev.levee.core.LoadSignal;
import dev.levee.core.internal.Validate;
import java.util.function.IntSupplier;

/**
 * Load as the share of a concurrency limit in use: {@code inFlight / limit} (seed 004 §17.1: "the
 * number of concurrent requests being processed is a good candidate to measure a server's load").
 * Reads any limiter through two suppliers, so it needs no dependency on one:
 *
 * <pre>{@code
 * LoadSignal busy = InFlightSignal.of(limiter::inFlight, limiter::limit);
 * }</pre>
 *
 * <p>Two reads and a division per {@link #load()}; a limit of zero or less reads as no load.
 */
public final class InFlightSignal implements LoadSignal {
    private final IntSupplier inFlight;
    private final IntSupplier limit;

    private InFlightSignal(IntSupplier inFlight, IntSupplier limit) {
        this.inFlight = inFlight;
        this.limit = limit;
    }

    /**
     * @param inFlight the calls in progress
     * @param limit the concurrency limit in force
     * @return the signal
     */
    public static InFlightSignal of(IntSupplier inFlight, IntSupplier limit) {
        Validate.notNull("InFlightSignal", "inFlight", inFlight);
        Validate.notNull("InFlightSignal", "limit", limit);
        return new InFlightSignal(inFlight, limit);
    }

    @Override
    public double load() {
        int l = limit.getAsInt();
        int n = inFlight.getAsInt();
        return l <= 0 || n <= 0 ? 0.0 : n / (double) l;
    }
}
