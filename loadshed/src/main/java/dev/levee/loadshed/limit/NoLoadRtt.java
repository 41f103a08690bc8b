package dev.levee.loadshed.limit;

import dev.levee.core.RandomSource;

/**
 * The latency of the service without queueing, the baseline latency algorithms compare against, and
 * the guard against upward drift.
 *
 * <p>The baseline only ever <em>falls</em> with ordinary samples ({@code base = min(base, value)}).
 * It can rise only through a <b>probe</b>: every {@code interval} (± {@code jitter}), the owning
 * algorithm holds its limit at half its current value until the backlog has drained (a sample
 * completes with {@code inflight ≤ probeLimit}), takes the minimum of the next
 * {@code 2 × probeLimit} values (at least {@value #MIN_PROBE_SAMPLES}) observed at that low
 * concurrency, and makes it the new baseline. Queueing therefore never leaks into the baseline:
 * samples taken under sustained queueing are all above the no-load latency, so they cannot raise a
 * minimum, and a probe measures at a concurrency where the queue has gone.
 */
final class NoLoadRtt {
    static final int MIN_PROBE_SAMPLES = 10;
    /** A probe that cannot drain the backlog within this many samples gives up and keeps the baseline. */
    private static final int PROBE_PATIENCE = 10_000;

    private final long intervalNanos;
    private final double jitter;
    private final RandomSource random;
    private final int minLimit;

    private long base;
    private long nextProbeNanos;
    private boolean started;
    private boolean probing;
    private int probeLimit;
    private int savedLimit;
    private int probeTarget;
    private int collected;
    private int waited;
    private long probeMin;

    NoLoadRtt(long intervalNanos, double jitter, RandomSource random, int minLimit) {
        this.intervalNanos = intervalNanos;
        this.jitter = jitter;
        this.random = random;
        this.minLimit = minLimit;
    }

    /** @return the baseline in nanoseconds, 0 before the first sample */
    long base() {
        return base;
    }

    /** @return whether a probe is running; the owner then returns {@link #probeLimit()} */
    boolean probing() {
        return probing;
    }

    /** @return the limit to hold during a probe */
    int probeLimit() {
        return probeLimit;
    }

    /** @return the limit in force when the probe started, to restore after it */
    int savedLimit() {
        return savedLimit;
    }

    /**
     * Feeds one value (an RTT, or a short-term average of RTTs).
     *
     * @param now the sample's time
     * @param value the value, at least 0
     * @param inflight in flight when it completed
     * @param limit the owner's current limit
     * @return true if the owner should hold {@link #probeLimit()} (a probe runs); false if it should
     *     update normally — after a probe ends, the owner restores {@link #savedLimit()}
     */
    boolean observe(long now, long value, int inflight, int limit) {
        if (!started) {
            started = true;
            base = value;
            scheduleProbe(now);
            return false;
        }
        if (!probing) {
            if (value < base) {
                base = value;
            }
            if (intervalNanos > 0 && now - nextProbeNanos >= 0) {
                probing = true;
                savedLimit = limit;
                probeLimit = Math.max(minLimit, limit / 2);
                probeTarget = Math.max(MIN_PROBE_SAMPLES, 2 * probeLimit);
                collected = 0;
                waited = 0;
                probeMin = Long.MAX_VALUE;
            }
            return probing;
        }
        if (inflight <= probeLimit) {
            probeMin = Math.min(probeMin, value);
            if (++collected >= probeTarget) {
                base = probeMin;
                endProbe(now);
            }
        } else if (++waited >= PROBE_PATIENCE) {
            endProbe(now);
        }
        return probing;
    }

    private void endProbe(long now) {
        probing = false;
        scheduleProbe(now);
    }

    private void scheduleProbe(long now) {
        if (intervalNanos > 0) {
            double factor = 1.0 + jitter * (2.0 * random.nextDouble() - 1.0);
            nextProbeNanos = now + (long) (intervalNanos * factor);
        }
    }
}
