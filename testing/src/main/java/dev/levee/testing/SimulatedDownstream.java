package dev.levee.testing;

import dev.levee.core.CheckedSupplier;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * A deterministic dependency for tests: each call takes a latency on a {@link ManualTicker} (the call
 * advances it), fails with a seeded probability, and degrades when more calls are inside it than its
 * capacity. It counts what it saw, so a test can check what a policy let through.
 *
 * <p><b>Model.</b> A call made while {@code n} calls are inside (itself included) takes
 * {@code latency × max(1, n / capacity)} (a saturated server slows down in proportion to its
 * overload) and fails with probability {@code failureRate}, or always while {@link #down(boolean)}
 * is set. A failure is an {@link IOException} (a transient, counted failure for every pattern).
 *
 * <p>Single-threaded tests get a reproducible run from the seed. Many threads may call it at once
 * (the in-flight and call counts stay exact); the latency then moves the shared ticker once per call.
 *
 * <pre>{@code
 * ManualTicker ticker = new ManualTicker();
 * SimulatedDownstream server = SimulatedDownstream.builder(ticker).latencyNanos(5_000_000).failureRate(0.1).seed(42).build();
 * breaker.execute(server::call);
 * assertThat(server.calls()).isEqualTo(1);
 * }</pre>
 */
public final class SimulatedDownstream {
    private final ManualTicker ticker;
    private final long latencyNanos;
    private final double failureRate;
    private final int capacity;
    private final RandomSource random;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private final LongAdder calls = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private volatile boolean down;

    private SimulatedDownstream(Builder b) {
        this.ticker = b.ticker;
        this.latencyNanos = b.latencyNanos;
        this.failureRate = b.failureRate;
        this.capacity = b.capacity;
        this.random = RandomSource.seeded(b.seed);
    }

    /**
     * Starts a builder.
     *
     * @param ticker the manual time the calls advance
     * @return a builder with latency 1 ms, no failures, capacity unbounded, seed 0
     */
    public static Builder builder(ManualTicker ticker) {
        return new Builder(ticker);
    }

    /**
     * One call: advances the ticker by its latency, then returns {@code "ok"} or throws.
     *
     * @return {@code "ok"}
     * @throws IOException when the call fails
     */
    public String call() throws IOException {
        int inside = inFlight.incrementAndGet();
        maxInFlight.accumulateAndGet(inside, Math::max);
        calls.increment();
        try {
            long factor = capacity == Integer.MAX_VALUE ? 1 : Math.max(1, (inside + capacity - 1) / capacity);
            ticker.advance(latencyNanos * factor);
            if (down || (failureRate > 0 && random.nextDouble() < failureRate)) {
                failures.increment();
                throw new IOException("simulated downstream failure");
            }
            return "ok";
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /**
     * The call as a {@link CheckedSupplier}, for {@code policy.execute(server.supplier())}.
     *
     * @return a supplier that makes one call
     */
    public CheckedSupplier<String, IOException> supplier() {
        return this::call;
    }

    /**
     * Makes every call fail (an outage) or lifts it.
     *
     * @param down true for an outage
     */
    public void down(boolean down) {
        this.down = down;
    }

    /** @return calls that reached the downstream */
    public long calls() {
        return calls.sum();
    }

    /** @return calls that failed */
    public long failures() {
        return failures.sum();
    }

    /** @return calls inside the downstream now */
    public int inFlight() {
        return inFlight.get();
    }

    /** @return the most calls ever inside at once */
    public int maxInFlight() {
        return maxInFlight.get();
    }

    /** Configures a {@link SimulatedDownstream}. */
    public static final class Builder {
        private final ManualTicker ticker;
        private long latencyNanos = 1_000_000L;
        private double failureRate;
        private int capacity = Integer.MAX_VALUE;
        private long seed;

        private Builder(ManualTicker ticker) {
            this.ticker = java.util.Objects.requireNonNull(ticker, "ticker");
        }

        /**
         * Sets the latency of a call within capacity.
         *
         * @param nanos the latency, at least 0
         * @return this builder
         */
        public Builder latencyNanos(long nanos) {
            if (nanos < 0) {
                throw new IllegalArgumentException("latencyNanos must be >= 0 but was " + nanos);
            }
            this.latencyNanos = nanos;
            return this;
        }

        /**
         * Sets the probability that a call fails.
         *
         * @param rate a fraction in [0, 1]
         * @return this builder
         */
        public Builder failureRate(double rate) {
            if (!(rate >= 0 && rate <= 1)) {
                throw new IllegalArgumentException("failureRate must be in [0, 1] but was " + rate);
            }
            this.failureRate = rate;
            return this;
        }

        /**
         * Sets how many calls may be inside before calls slow down.
         *
         * @param capacity at least 1
         * @return this builder
         */
        public Builder capacity(int capacity) {
            if (capacity < 1) {
                throw new IllegalArgumentException("capacity must be >= 1 but was " + capacity);
            }
            this.capacity = capacity;
            return this;
        }

        /**
         * Sets the seed of the failure draws.
         *
         * @param seed the seed
         * @return this builder
         */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** @return the downstream */
        public SimulatedDownstream build() {
            return new SimulatedDownstream(this);
        }
    }
}
