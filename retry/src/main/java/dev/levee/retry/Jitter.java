package dev.levee.retry;

import dev.levee.core.RandomSource;
import dev.levee.core.internal.Validate;
import dev.levee.retry.internal.FactorJitter;
import dev.levee.retry.internal.StandardJitter;

/**
 * Randomizes a {@linkplain Backoff backoff} delay so that clients that failed together do not retry
 * together. With {@code d} the backoff's delay, {@code r} uniform in {@code [0, 1)} from the config's
 * {@link RandomSource}, {@code base}/{@code cap} the backoff's initial and maximum delay and
 * {@code prev} the previous delay of the same call ({@code base} before the first retry):
 *
 * <table>
 *   <caption>Jitter kinds and their delay distributions</caption>
 *   <tr><th>kind</th><th>delay</th><th>range</th></tr>
 *   <tr><td>{@link #none()}</td><td>{@code d}</td><td>exactly {@code d}</td></tr>
 *   <tr><td>{@link #full()}</td><td>{@code floor(r · d)}</td><td>{@code [0, d)}, mean {@code d/2}</td></tr>
 *   <tr><td>{@link #equal()}</td><td>{@code d/2 + floor(r · (d - d/2))}</td><td>{@code [d/2, d)}, mean {@code 3d/4}</td></tr>
 *   <tr><td>{@link #decorrelated()}</td><td>{@code min(cap, base + floor(r · (3·prev - base)))}</td>
 *       <td>{@code [base, min(cap, 3·prev))}; grows by about 1.5× a retry on average, ignores {@code d}</td></tr>
 *   <tr><td>{@link #factor(double) factor(f)}</td><td>{@code min(cap, floor(d · (1 - f + 2f·r)))}</td>
 *       <td>{@code [d(1-f), d(1+f))}, clamped to the cap</td></tr>
 * </table>
 * In a reproduction of the AWS study "Exponential Backoff and Jitter" (100 clients contending for one
 * row, {@code BackoffStudySimulationTest}), full jitter does the least work; decorrelated jitter does
 * about 25% more and finishes sooner; no jitter does more than twice the work. Equal and ±factor keep
 * a minimum wait.
 *
 * <p>Implementations are immutable and allocation-free; all arithmetic saturates.
 */
public interface Jitter {

    /**
     * Applies the jitter.
     *
     * @param delayNanos the backoff's delay for this retry
     * @param previousNanos the previous delay of this call, or 0 before the first retry
     * @param baseNanos the backoff's initial delay
     * @param capNanos the backoff's maximum delay
     * @param random the randomness
     * @return the delay to wait, in nanoseconds, at least 0
     */
    long apply(long delayNanos, long previousNanos, long baseNanos, long capNanos, RandomSource random);

    /** @return no jitter: the backoff's delay as it is */
    static Jitter none() {
        return StandardJitter.NONE;
    }

    /** @return full jitter: uniform in {@code [0, d)} */
    static Jitter full() {
        return StandardJitter.FULL;
    }

    /** @return equal jitter: uniform in {@code [d/2, d)} */
    static Jitter equal() {
        return StandardJitter.EQUAL;
    }

    /** @return decorrelated jitter: uniform in {@code [base, 3·prev)}, capped */
    static Jitter decorrelated() {
        return StandardJitter.DECORRELATED;
    }

    /**
     * Proportional jitter: uniform in {@code [d(1-f), d(1+f))}, capped.
     *
     * @param factor {@code f} in [0, 1]
     * @return the jitter
     */
    static Jitter factor(double factor) {
        Validate.inRange("Jitter.factor", "factor", factor, 0.0, 1.0);
        return new FactorJitter(factor);
    }
}
