package dev.levee.timeout;

import dev.levee.core.Deadline;
import dev.levee.core.internal.Validate;
import dev.levee.core.internal.Nanos;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks that retried calls fit in the time their caller gives them (seed 001 §3.1: "a service's own
 * timeout budget must be larger than the sum of its downstream timeouts and retries, or the outer
 * caller gives up while you're still trying"):
 * <pre>
 *   needed = innerTimeout × attempts + totalBackoff        fits when needed &le; available
 * </pre>
 * where {@code available} is an outer timeout or what remains of the current {@link Deadline}, and
 * {@code totalBackoff} is the longest total wait between the attempts (the sum of the backoff caps).
 * It takes plain numbers, so it links the timeout and retry settings without a dependency between
 * their modules; call it once where both are configured (at start-up), not per call.
 *
 * <pre>{@code
 * TimeoutFit.warnIfCannotFit("inventory", Duration.ofSeconds(2), 3, Duration.ofMillis(700),
 *         Duration.ofSeconds(5));   // WARN: 3 × 2 s + 700 ms = 6.7 s does not fit in 5 s
 * }</pre>
 */
public final class TimeoutFit {
    private static final Logger LOG = LoggerFactory.getLogger(TimeoutFit.class);
    private static final String POLICY = "TimeoutFit";

    private TimeoutFit() {}

    /**
     * The outcome of a check.
     *
     * @param needed {@code innerTimeout × attempts + totalBackoff}, saturated
     * @param available the outer timeout, or what remained of the deadline
     */
    public record Result(Duration needed, Duration available) {
        /** @return whether every attempt and backoff can run to its end before the outer limit */
        public boolean fits() {
            return needed.compareTo(available) <= 0;
        }

        /** @return a sentence for logs */
        public String describe() {
            return (fits() ? "fits: " : "does not fit: ") + needed + " needed, " + available + " available";
        }
    }

    /**
     * Checks the calls against an outer timeout.
     *
     * @param innerTimeout the timeout of one attempt, &gt; 0
     * @param attempts attempts in total (first call included), &ge; 1
     * @param totalBackoff the longest total wait between attempts, &ge; 0
     * @param outer the outer timeout, &gt; 0
     * @return the result
     * @throws dev.levee.core.InvalidConfigException if an argument is out of bounds
     */
    public static Result check(Duration innerTimeout, int attempts, Duration totalBackoff, Duration outer) {
        Validate.positive(POLICY, "outer", outer);
        return new Result(needed(innerTimeout, attempts, totalBackoff), outer);
    }

    /**
     * Checks the calls against what remains of the {@linkplain Deadline#currentOrNull() current
     * deadline}; with no deadline current they always fit.
     *
     * @param innerTimeout the timeout of one attempt, &gt; 0
     * @param attempts attempts in total, &ge; 1
     * @param totalBackoff the longest total wait between attempts, &ge; 0
     * @return the result (available is {@link Duration#ZERO} for an expired deadline)
     */
    public static Result checkCurrentDeadline(Duration innerTimeout, int attempts, Duration totalBackoff) {
        Duration needed = needed(innerTimeout, attempts, totalBackoff);
        Deadline current = Deadline.currentOrNull();
        if (current == null) {
            return new Result(needed, Duration.ofNanos(Long.MAX_VALUE));
        }
        return new Result(needed, current.remaining());
    }

    /**
     * {@link #check} and, when the calls cannot fit, one WARN naming the policy and both figures.
     *
     * @param name what is being configured (for the log)
     * @param innerTimeout the timeout of one attempt
     * @param attempts attempts in total
     * @param totalBackoff the longest total wait between attempts
     * @param outer the outer timeout
     * @return true if they fit
     */
    public static boolean warnIfCannotFit(String name, Duration innerTimeout, int attempts, Duration totalBackoff,
            Duration outer) {
        Result result = check(innerTimeout, attempts, totalBackoff, outer);
        if (!result.fits()) {
            LOG.warn("'{}': {} attempts of {} plus {} of backoff need {}, more than the {} the caller allows: the "
                    + "caller gives up while attempts still run; shorten the timeout, retry less, or raise the "
                    + "outer limit", name, attempts, innerTimeout, totalBackoff, result.needed(), outer);
        }
        return result.fits();
    }

    private static Duration needed(Duration innerTimeout, int attempts, Duration totalBackoff) {
        Validate.positive(POLICY, "innerTimeout", innerTimeout);
        Validate.positive(POLICY, "attempts", attempts);
        Validate.nonNegative(POLICY, "totalBackoff", totalBackoff);
        long inner = Deadline.saturatedNanos(innerTimeout);
        long all = attempts > 0 && inner > Long.MAX_VALUE / attempts ? Long.MAX_VALUE : inner * attempts;
        return Duration.ofNanos(Nanos.add(all, Deadline.saturatedNanos(totalBackoff)));
    }
}
