package dev.levee.loadshed.sim;

import dev.levee.core.RandomSource;
import java.time.Duration;

/**
 * How much work one request is, in nanoseconds of one worker at full speed (before any overload
 * penalty). Implementations draw from the simulation's seeded {@link RandomSource}.
 */
public interface ServiceTime {

    /**
     * Draws one request's work.
     *
     * @param random the simulation's seeded source for service times
     * @return the work in nanoseconds, positive
     */
    long sample(RandomSource random);

    /**
     * The mean of {@link #sample}, used to state the server's capacity throughput.
     *
     * @return the mean in nanoseconds
     */
    double meanNanos();

    /**
     * Every request takes exactly {@code d}.
     *
     * @param d the work
     * @return the distribution
     */
    static ServiceTime fixed(Duration d) {
        long n = d.toNanos();
        return new ServiceTime() {
            @Override
            public long sample(RandomSource random) {
                return n;
            }

            @Override
            public double meanNanos() {
                return n;
            }
        };
    }

    /**
     * Uniform in {@code [mean·(1−spread), mean·(1+spread)]}: a well-behaved handler.
     *
     * @param mean the mean work
     * @param spread the relative half-width, in [0, 1)
     * @return the distribution
     */
    static ServiceTime uniform(Duration mean, double spread) {
        long m = mean.toNanos();
        return new ServiceTime() {
            @Override
            public long sample(RandomSource random) {
                return Math.max(1L, (long) (m * (1.0 - spread + 2.0 * spread * random.nextDouble())));
            }

            @Override
            public double meanNanos() {
                return m;
            }
        };
    }

    /**
     * Exponential with the given mean (M/M/c-style variability; heavy p99 of about 4.6 × mean).
     *
     * @param mean the mean work
     * @return the distribution
     */
    static ServiceTime exponential(Duration mean) {
        long m = mean.toNanos();
        return new ServiceTime() {
            @Override
            public long sample(RandomSource random) {
                return Math.max(1L, (long) (-m * Math.log(1.0 - random.nextDouble())));
            }

            @Override
            public double meanNanos() {
                return m;
            }
        };
    }
}
