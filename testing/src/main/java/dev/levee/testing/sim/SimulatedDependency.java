package dev.levee.testing.sim;

import dev.levee.core.CheckedSupplier;
import dev.levee.core.RandomSource;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * A dependency inside a {@link Simulation}: seeded latency and errors, scripted outages and capacity
 * changes, and an overload model; every call is recorded in the simulation's {@link Recorder} under the
 * dependency's name. The model extends {@link dev.levee.testing.SimulatedDownstream}'s (latency,
 * seeded failure, in-flight capacity) with a script over virtual time and a throughput capacity.
 *
 * <p><b>Model</b>, for a call starting at virtual time {@code t}, decided at its start:
 * <ul>
 *   <li><b>latency</b> {@code = base · (1 + jitter · (2u − 1))}, {@code u} uniform from the dependency's
 *       latency stream, times {@code max(1, ceil(n / maxConcurrent))} while {@code n} calls are inside
 *       (a saturated server slows down in proportion);</li>
 *   <li><b>outage:</b> if {@code t} is in a scripted outage, the call fails ({@code "outage"});</li>
 *   <li><b>overload:</b> with a throughput capacity {@code C} per second (scriptable over time), the
 *       load {@code L} is the calls started in the previous load window, per second; the call succeeds
 *       with probability {@code max(0, 1 − slope · (L − C) / C)} (goodput collapses as a thrashing
 *       server's does; slope 2 by default), else fails ({@code "overloaded"});</li>
 *   <li><b>errors:</b> otherwise it fails with the scripted failure rate ({@code "failed"}), else
 *       succeeds ({@code "ok"}).</li>
 * </ul>
 * A failure is an {@link IOException} whose message is the outcome. {@link #call()} advances the
 * virtual clock by the latency (single-threaded synchronous simulations); {@link #callAsync()} completes
 * its stage on the simulation's scheduler after the latency (at once when it is zero).
 */
public final class SimulatedDependency {
    /** Recorded outcome of a successful call. */
    public static final String OK = "ok";
    /** Recorded outcome of a call during a scripted outage. */
    public static final String OUTAGE = "outage";
    /** Recorded outcome of a call refused by the overload model. */
    public static final String OVERLOADED = "overloaded";
    /** Recorded outcome of a call failed by the failure rate. */
    public static final String FAILED = "failed";

    /** A scripted interval {@code [from, to)} in virtual nanoseconds with a value. */
    private record Phase(long from, long to, double value) {
        boolean covers(long t) {
            return t >= from && t < to;
        }
    }

    private final Simulation sim;
    private final String name;
    private final long latencyNanos;
    private final double jitter;
    private final int maxConcurrent;
    private final double failureRate;
    private final double capacityPerSecond;
    private final double overloadSlope;
    private final long loadWindowNanos;
    private final List<Phase> outages;
    private final List<Phase> capacities;
    private final List<Phase> failureRates;
    private final RandomSource latencyRandom;
    private final RandomSource outcomeRandom;

    private long window = 0;
    private long startedInWindow;
    private double previousLoadPerSecond;
    private double previousCapacity;
    private int inFlight;
    private int maxInFlight;
    private long calls;
    private long failures;

    private SimulatedDependency(Builder b) {
        this.sim = b.sim;
        this.name = b.name;
        this.latencyNanos = b.latencyNanos;
        this.jitter = b.jitter;
        this.maxConcurrent = b.maxConcurrent;
        this.failureRate = b.failureRate;
        this.capacityPerSecond = b.capacityPerSecond;
        this.overloadSlope = b.overloadSlope;
        this.loadWindowNanos = b.loadWindowNanos;
        this.outages = List.copyOf(b.outages);
        this.capacities = List.copyOf(b.capacities);
        this.failureRates = List.copyOf(b.failureRates);
        this.latencyRandom = sim.random(name + "/latency");
        this.outcomeRandom = sim.random(name + "/outcome");
        this.previousCapacity = capacityPerSecond;
    }

    /**
     * Starts a builder.
     *
     * @param sim the simulation the dependency lives in
     * @param name its name: the recorder's subject and the name of its random streams
     * @return a builder: latency 1 ms, no jitter, no failures, unbounded capacity
     */
    public static Builder builder(Simulation sim, String name) {
        return new Builder(sim, name);
    }

    /** @return the dependency's name */
    public String name() {
        return name;
    }

    /** A decided call: its latency and its outcome. */
    private record Decision(long latencyNanos, String outcome) {}

    private Decision decide() {
        long now = sim.nowNanos();
        rollWindow(now);
        startedInWindow++;
        calls++;
        int inside = ++inFlight;
        maxInFlight = Math.max(maxInFlight, inside);

        double u = latencyRandom.nextDouble();
        double base = latencyNanos * (1 + jitter * (2 * u - 1));
        long factor = maxConcurrent == Integer.MAX_VALUE ? 1 : Math.max(1, (inside + maxConcurrent - 1) / maxConcurrent);
        long latency = Math.round(base) * factor;

        double overloadDraw = outcomeRandom.nextDouble();
        double failureDraw = outcomeRandom.nextDouble();
        String outcome;
        if (in(outages, now)) {
            outcome = OUTAGE;
        } else if (overloadDraw >= successProbability()) {
            outcome = OVERLOADED;
        } else if (failureDraw < valueAt(failureRates, now, failureRate)) {
            outcome = FAILED;
        } else {
            outcome = OK;
        }
        if (!OK.equals(outcome)) {
            failures++;
        }
        sim.recorder().recordAt(now, name, outcome, latency);
        return new Decision(latency, outcome);
    }

    /** Moves the load window to the one holding {@code now}, keeping the last complete window's load. */
    private void rollWindow(long now) {
        long w = now / loadWindowNanos;
        if (w != window) {
            previousLoadPerSecond = w == window + 1 ? startedInWindow * (1e9 / loadWindowNanos) : 0.0;
            previousCapacity = valueAt(capacities, (w - 1) * loadWindowNanos, capacityPerSecond);
            window = w;
            startedInWindow = 0;
        }
    }

    private double successProbability() {
        if (Double.isInfinite(previousCapacity)) {
            return 1.0;
        }
        double excess = (previousLoadPerSecond - previousCapacity) / previousCapacity;
        return excess <= 0 ? 1.0 : Math.max(0.0, 1.0 - overloadSlope * excess);
    }

    private static boolean in(List<Phase> phases, long t) {
        for (Phase p : phases) {
            if (p.covers(t)) {
                return true;
            }
        }
        return false;
    }

    private static double valueAt(List<Phase> phases, long t, double otherwise) {
        for (Phase p : phases) {
            if (p.covers(t)) {
                return p.value;
            }
        }
        return otherwise;
    }

    private void finish() {
        inFlight--;
    }

    /**
     * One synchronous call: decides its outcome, advances the virtual clock by its latency, then returns
     * {@code "ok"} or throws.
     *
     * @return {@code "ok"}
     * @throws IOException with the outcome as its message, when the call fails
     */
    public String call() throws IOException {
        Decision d = decide();
        try {
            sim.ticker().advance(d.latencyNanos);
        } finally {
            finish();
        }
        if (!OK.equals(d.outcome)) {
            throw new IOException(name + ": " + d.outcome);
        }
        return OK;
    }

    /** @return the synchronous call as a supplier, for {@code policy.execute(dependency.supplier())} */
    public CheckedSupplier<String, IOException> supplier() {
        return this::call;
    }

    /**
     * One asynchronous call: decides its outcome now; the stage completes after the latency on the
     * simulation's scheduler (at once when the latency is zero).
     *
     * @return the call's stage: {@code "ok"}, or failed with an {@link IOException}
     */
    public CompletableFuture<String> callAsync() {
        Decision d = decide();
        CompletableFuture<String> out = new CompletableFuture<>();
        Runnable complete = () -> {
            finish();
            if (OK.equals(d.outcome)) {
                out.complete(OK);
            } else {
                out.completeExceptionally(new IOException(name + ": " + d.outcome));
            }
        };
        if (d.latencyNanos == 0) {
            complete.run();
        } else {
            sim.scheduler().schedule(complete, d.latencyNanos);
        }
        return out;
    }

    /** @return calls that reached the dependency */
    public long calls() {
        return calls;
    }

    /** @return calls that failed (outage, overload or error) */
    public long failures() {
        return failures;
    }

    /** @return calls inside now */
    public int inFlight() {
        return inFlight;
    }

    /** @return the most calls ever inside at once */
    public int maxInFlight() {
        return maxInFlight;
    }

    /** Configures a {@link SimulatedDependency}; times in the script are virtual time since the start. */
    public static final class Builder {
        private final Simulation sim;
        private final String name;
        private long latencyNanos = 1_000_000L;
        private double jitter;
        private int maxConcurrent = Integer.MAX_VALUE;
        private double failureRate;
        private double capacityPerSecond = Double.POSITIVE_INFINITY;
        private double overloadSlope = 2.0;
        private long loadWindowNanos = 10_000_000L;
        private final List<Phase> outages = new ArrayList<>();
        private final List<Phase> capacities = new ArrayList<>();
        private final List<Phase> failureRates = new ArrayList<>();

        private Builder(Simulation sim, String name) {
            this.sim = Objects.requireNonNull(sim, "sim");
            this.name = Objects.requireNonNull(name, "name");
        }

        /**
         * The latency of a call within capacity: {@code base · (1 ± jitter)}, uniform.
         *
         * @param base the mean latency, at least 0
         * @param jitter the spread, a fraction in [0, 1]
         * @return this builder
         */
        public Builder latency(Duration base, double jitter) {
            long nanos = base.toNanos();
            if (nanos < 0 || !(jitter >= 0 && jitter <= 1)) {
                throw new IllegalArgumentException("latency must be >= 0 and jitter in [0, 1], was " + base + ", " + jitter);
            }
            this.latencyNanos = nanos;
            this.jitter = jitter;
            return this;
        }

        /**
         * How many calls may be inside before calls slow down ({@code latency × ceil(n / max)}).
         *
         * @param maxConcurrent at least 1
         * @return this builder
         */
        public Builder maxConcurrent(int maxConcurrent) {
            if (maxConcurrent < 1) {
                throw new IllegalArgumentException("maxConcurrent must be >= 1 but was " + maxConcurrent);
            }
            this.maxConcurrent = maxConcurrent;
            return this;
        }

        /**
         * The probability that a call fails outside outages and overload.
         *
         * @param rate a fraction in [0, 1]
         * @return this builder
         */
        public Builder failureRate(double rate) {
            this.failureRate = fraction("failureRate", rate);
            return this;
        }

        /**
         * A scripted failure rate during {@code [from, to)}.
         *
         * @param from start, virtual time
         * @param to end (exclusive), virtual time
         * @param rate a fraction in [0, 1]
         * @return this builder
         */
        public Builder failureRateDuring(Duration from, Duration to, double rate) {
            failureRates.add(phase(from, to, fraction("failureRate", rate)));
            return this;
        }

        /**
         * A scripted outage: every call starting in {@code [from, to)} fails.
         *
         * @param from start, virtual time
         * @param to end (exclusive), virtual time
         * @return this builder
         */
        public Builder outage(Duration from, Duration to) {
            outages.add(phase(from, to, 0));
            return this;
        }

        /**
         * The throughput the dependency serves before its goodput collapses (see the class doc).
         *
         * @param perSecond calls per second, greater than zero
         * @return this builder
         */
        public Builder capacityPerSecond(double perSecond) {
            this.capacityPerSecond = positive("capacityPerSecond", perSecond);
            return this;
        }

        /**
         * A scripted capacity during {@code [from, to)} (a brownout, a lost replica).
         *
         * @param from start, virtual time
         * @param to end (exclusive), virtual time
         * @param perSecond calls per second, greater than zero
         * @return this builder
         */
        public Builder capacityDuring(Duration from, Duration to, double perSecond) {
            capacities.add(phase(from, to, positive("capacityPerSecond", perSecond)));
            return this;
        }

        /**
         * How steeply goodput falls above capacity: success probability {@code 1 − slope · excess}.
         *
         * @param slope greater than zero (default 2: nothing succeeds at 1.5× capacity)
         * @return this builder
         */
        public Builder overloadSlope(double slope) {
            this.overloadSlope = positive("overloadSlope", slope);
            return this;
        }

        /**
         * The window over which load is measured for the overload model.
         *
         * @param window greater than zero (default 10 ms)
         * @return this builder
         */
        public Builder loadWindow(Duration window) {
            long nanos = window.toNanos();
            if (nanos <= 0) {
                throw new IllegalArgumentException("loadWindow must be > 0 but was " + window);
            }
            this.loadWindowNanos = nanos;
            return this;
        }

        /** @return the dependency */
        public SimulatedDependency build() {
            return new SimulatedDependency(this);
        }

        private static Phase phase(Duration from, Duration to, double value) {
            long f = from.toNanos();
            long t = to.toNanos();
            if (f < 0 || t <= f) {
                throw new IllegalArgumentException("a phase needs 0 <= from < to, was [" + from + ", " + to + ")");
            }
            return new Phase(f, t, value);
        }

        private static double fraction(String field, double value) {
            if (!(value >= 0 && value <= 1)) {
                throw new IllegalArgumentException(field + " must be in [0, 1] but was " + value);
            }
            return value;
        }

        private static double positive(String field, double value) {
            if (!(value > 0)) {
                throw new IllegalArgumentException(field + " must be > 0 but was " + value);
            }
            return value;
        }
    }
}
