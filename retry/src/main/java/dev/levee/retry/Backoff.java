package dev.levee.retry;

import dev.levee.core.Deadline;
import dev.levee.core.internal.Validate;
import dev.levee.retry.internal.ConstantBackoff;
import dev.levee.retry.internal.ExponentialBackoff;
import dev.levee.retry.internal.LinearBackoff;
import java.time.Duration;

/**
 * The delay before the {@code n}-th retry, before {@linkplain Jitter jitter}. Retry {@code 1} follows
 * the first failed attempt.
 *
 * <table>
 *   <caption>Backoff kinds</caption>
 *   <tr><th>kind</th><th>delay before retry n (n &gt;= 1)</th></tr>
 *   <tr><td>{@link #constant}</td><td>{@code initial}</td></tr>
 *   <tr><td>{@link #linear}</td><td>{@code min(max, initial + (n - 1) · increment)}</td></tr>
 *   <tr><td>{@link #exponential}</td><td>{@code min(max, initial · multiplier^(n - 1))}</td></tr>
 * </table>
 * Arithmetic saturates: a very high attempt number gives {@code max}, never an overflowed value.
 *
 * <p>Implementations are immutable and allocation-free.
 */
public interface Backoff {

    /**
     * The delay before retry {@code n}.
     *
     * @param retry the retry number, 1 for the first retry
     * @return the delay in nanoseconds, in {@code [0, maxNanos()]}
     */
    long delayNanos(int retry);

    /** @return the delay before the first retry, in nanoseconds (the base of decorrelated jitter) */
    long initialNanos();

    /** @return the cap on any delay, in nanoseconds */
    long maxNanos();

    /**
     * The same delay before every retry.
     *
     * @param delay greater than zero; for no delay at all say so with {@link #none()}
     * @return the backoff
     * @throws dev.levee.core.InvalidConfigException if the delay is zero or negative (a zero delay
     *         turns a failing call into a hot loop)
     */
    static Backoff constant(Duration delay) {
        Validate.nonNegative("Backoff.constant", "delay", delay);
        Validate.check(!delay.isZero(), "Backoff.constant", "delay", "> 0 " + ConstantBackoff.HOT_LOOP, delay);
        return new ConstantBackoff(Deadline.saturatedNanos(delay));
    }

    /**
     * No delay between attempts, chosen on purpose: retries follow failures at once. Only for calls
     * whose failures are independent of load (a lost race, an optimistic-lock conflict) or for tests;
     * against a struggling downstream it is a hot loop. {@code constant(ZERO)} and
     * {@code exponential(ZERO, …)} are refused so that this is never an accident.
     *
     * @return the zero backoff
     */
    static Backoff none() {
        return ConstantBackoff.NONE;
    }

    /**
     * A delay that grows by {@code increment} per retry, up to {@code max}.
     *
     * @param initial the first delay, at least zero
     * @param increment added per retry, at least zero; not zero when {@code initial} is zero
     * @param max the cap, at least {@code initial}
     * @return the backoff
     * @throws dev.levee.core.InvalidConfigException on a bound violated, or when both {@code initial}
     *         and {@code increment} are zero (a hot loop; use {@link #none()})
     */
    static Backoff linear(Duration initial, Duration increment, Duration max) {
        Validate.nonNegative("Backoff.linear", "initial", initial);
        Validate.nonNegative("Backoff.linear", "increment", increment);
        Validate.check(!(initial.isZero() && increment.isZero()), "Backoff.linear", "initial",
                "> 0 when increment is 0 " + ConstantBackoff.HOT_LOOP, initial);
        Validate.nonNegative("Backoff.linear", "max", max);
        Validate.check(max.compareTo(initial) >= 0, "Backoff.linear", "max", ">= initial (" + initial + ")", max);
        return new LinearBackoff(Deadline.saturatedNanos(initial), Deadline.saturatedNanos(increment),
                Deadline.saturatedNanos(max));
    }

    /**
     * A delay multiplied by {@code multiplier} per retry, up to {@code max}.
     *
     * @param initial the first delay, greater than zero (a zero base would stay zero for ever)
     * @param multiplier in [1, 100]
     * @param max the cap, at least {@code initial}
     * @return the backoff
     * @throws dev.levee.core.InvalidConfigException on a bound violated, including a zero
     *         {@code initial} (a hot loop; use {@link #none()})
     */
    static Backoff exponential(Duration initial, double multiplier, Duration max) {
        Validate.nonNegative("Backoff.exponential", "initial", initial);
        Validate.check(!initial.isZero(), "Backoff.exponential", "initial", "> 0 " + ConstantBackoff.HOT_LOOP, initial);
        Validate.inRange("Backoff.exponential", "multiplier", multiplier, 1.0, 100.0);
        Validate.nonNegative("Backoff.exponential", "max", max);
        Validate.check(max.compareTo(initial) >= 0, "Backoff.exponential", "max", ">= initial (" + initial + ")", max);
        return new ExponentialBackoff(Deadline.saturatedNanos(initial), multiplier, Deadline.saturatedNanos(max));
    }

    /**
     * The default: exponential from 100 ms, doubling, capped at 10 s.
     *
     * @return the default backoff
     */
    static Backoff defaults() {
        return ExponentialBackoff.DEFAULT;
    }
}
