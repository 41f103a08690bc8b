package dev.levee.loadshed.limit;

import dev.levee.core.RandomSource;
import dev.levee.core.internal.Validate;
import java.time.Duration;

/**
 * The builder settings of the algorithms that measure their no-load latency with periodic probes
 * ({@link VegasLimit}, {@link GradientLimit}; see their class comments): how often the baseline is
 * re-measured, with how much jitter, from which random source. {@code build()} checks
 * {@code probeInterval ≥ 0}, {@code probeJitter} in [0, 1) and a non-null source.
 *
 * @param <B> the concrete builder, returned by every setter
 */
public abstract class ProbingLimitBuilder<B extends ProbingLimitBuilder<B>> extends LimitBuilder<B> {
    Duration probeInterval;
    double probeJitter;
    RandomSource random = RandomSource.threadLocal();

    ProbingLimitBuilder(int initialLimit, int minLimit, int maxLimit, Duration probeInterval, double probeJitter) {
        super(initialLimit, minLimit, maxLimit);
        this.probeInterval = probeInterval;
        this.probeJitter = probeJitter;
    }

    /**
     * @param probeInterval how often the baseline is re-measured at half the limit (default 60 s; zero: never)
     * @return this builder
     */
    public B probeInterval(Duration probeInterval) {
        this.probeInterval = probeInterval;
        return self();
    }

    /**
     * @param probeJitter relative jitter of the probe period (default 0.15), in [0, 1)
     * @return this builder
     */
    public B probeJitter(double probeJitter) {
        this.probeJitter = probeJitter;
        return self();
    }

    /**
     * @param random the source of probe jitter (default thread-local; seed it in tests)
     * @return this builder
     */
    public B random(RandomSource random) {
        this.random = random;
        return self();
    }

    void checkProbe(String policy) {
        Validate.notNull(policy, "probeInterval", probeInterval);
        Validate.nonNegative(policy, "probeInterval", probeInterval);
        Validate.check(probeJitter >= 0 && probeJitter < 1, policy, "probeJitter", "in [0, 1)", probeJitter);
        Validate.notNull(policy, "random", random);
    }

    /** @return the baseline tracker these settings describe */
    NoLoadRtt newNoLoadRtt() {
        return new NoLoadRtt(probeInterval.toNanos(), probeJitter, random, minLimit);
    }
}
