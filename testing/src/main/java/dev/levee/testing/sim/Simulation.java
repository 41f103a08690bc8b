package dev.levee.testing.sim;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * A simulated world: one virtual clock ({@link #ticker()}, {@link #scheduler()}), named independent
 * random streams derived from one seed ({@link #random(String)}), and a {@link Recorder}.
 *
 * <p><b>Determinism.</b> Every random stream is {@code RandomSource.seeded(mix(seed, name))}, so adding a
 * stream (a new dependency) never shifts the draws of another, and two runs with the same seed and the
 * same script make the same draws in the same order. Time moves only when the simulation advances it.
 * Nothing here reads the system clock or starts a thread.
 */
public final class Simulation {
    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    private final long seed;
    private final ManualTicker ticker = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);
    private final Recorder recorder = new Recorder(ticker);

    private Simulation(long seed) {
        this.seed = seed;
    }

    /**
     * A new simulation at virtual time 0.
     *
     * @param seed the seed every random stream derives from
     * @return the simulation
     */
    public static Simulation seeded(long seed) {
        return new Simulation(seed);
    }

    /** @return the seed */
    public long seed() {
        return seed;
    }

    /** @return the virtual clock; policies under test read it (and sleep on it) */
    public ManualTicker ticker() {
        return ticker;
    }

    /** @return the virtual scheduler; asynchronous delays run when the simulation advances past them */
    public ManualScheduler scheduler() {
        return scheduler;
    }

    /** @return the recorder of what happened */
    public Recorder recorder() {
        return recorder;
    }

    /** @return virtual nanoseconds since the simulation started */
    public long nowNanos() {
        return ticker.read();
    }

    /**
     * An independent random stream for one purpose (a dependency's failures, a client's jitter).
     * Each call returns a new source positioned at the stream's start; keep the one you use.
     *
     * @param stream the stream's name
     * @return a seeded source, the same for the same seed and name
     */
    public RandomSource random(String stream) {
        Objects.requireNonNull(stream, "stream");
        long h = seed;
        for (byte b : stream.getBytes(StandardCharsets.UTF_8)) {
            h = mix(h + GOLDEN_GAMMA + b);
        }
        return RandomSource.seeded(h);
    }

    /** SplitMix64's finalizer: spreads the name's bytes over all 64 bits of the stream's seed. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * Advances virtual time, running the scheduled tasks that fall due, in time order.
     *
     * @param amount how far
     */
    public void advance(Duration amount) {
        scheduler.advance(amount);
    }

    /**
     * Runs the script step by step: at the start of each step {@code perStep} receives the step's index
     * (0, 1, …), then virtual time advances by {@code step} (running what falls due within it).
     *
     * @param total how long to run; a whole number of steps is run, rounded down
     * @param step the step length, greater than zero
     * @param perStep what happens at the start of each step (the load a test offers)
     */
    public void runFor(Duration total, Duration step, LongConsumer perStep) {
        long stepNanos = step.toNanos();
        if (stepNanos <= 0) {
            throw new IllegalArgumentException("Simulation: step must be > 0 but was " + step);
        }
        long steps = total.toNanos() / stepNanos;
        for (long s = 0; s < steps; s++) {
            perStep.accept(s);
            scheduler.advance(stepNanos);
        }
    }
}
