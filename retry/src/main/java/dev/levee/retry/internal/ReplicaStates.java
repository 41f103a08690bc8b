package dev.levee.retry.internal;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The per-replica state of a replica set, one padded group of {@code long}s per replica in one
 * {@link AtomicLongArray}, so two replicas never share a cache line and a pick or completion
 * touches one replica's line plus the set's counters.
 *
 * <p>Every field is updated by one atomic operation or one CAS loop; nothing here allocates or locks.
 * The outstanding count is exact: it moves only by {@link #acquire} and {@link #release}, and
 * {@link #release} never takes it below zero.
 */
public final class ReplicaStates {
    /*
     * Layout: replica i owns slots [i * STRIDE, i * STRIDE + FIELDS). STRIDE = 16 longs = 128 bytes,
     * two cache lines, so the adjacent-line prefetcher does not couple neighbours either.
     *
     * EWMA packing: the high 32 bits hold the estimate in nanoseconds as a float (24-bit mantissa,
     * relative precision 6e-8), the low 32 bits the time of the last sample in units of 2^16 ns
     * (65.5 us), modulo 2^32; differences are read as signed 32-bit numbers (up to 39 hours). A longer
     * idle gap is misread: the
     * estimate then decays less than it should, which only prices an idle replica too high until its
     * next sample. The value 0 means "no sample yet" (samples are stored as at least 1 ns).
     */
    private static final int STRIDE = 16;
    private static final int OUTSTANDING = 0;
    private static final int EWMA = 1;
    private static final int CONSECUTIVE = 2;
    private static final int STATUS = 3;
    private static final int EJECTED_UNTIL = 4;
    private static final int EJECTIONS = 5;
    private static final int PREVIOUS_SUCCESSES = 6;
    private static final int PREVIOUS_FAILURES = 7;
    private static final int SUCCESSES = 8;
    private static final int FAILURES = 9;
    private static final int OTHERS = 10;
    private static final int READMITTED_AT = 11;
    private static final int RATE = 12;

    /** Status bit: ejected by outlier detection. */
    public static final long EJECTED = 1L;
    /** Status bit: reported unhealthy by a health signal. */
    public static final long UNHEALTHY = 2L;

    private static final int TIME_SHIFT = 16;

    private final AtomicLongArray slots;
    private final int size;

    /**
     * @param size the number of replicas, at least 1
     */
    public ReplicaStates(int size) {
        this.size = size;
        this.slots = new AtomicLongArray(size * STRIDE);
    }

    /** @return the number of replicas */
    public int size() {
        return size;
    }

    private static int at(int replica, int field) {
        return replica * STRIDE + field;
    }

    // ---- outstanding calls and picks ----

    /**
     * A call starts on the replica.
     *
     * @param replica the index
     */
    public void acquire(int replica) {
        slots.getAndIncrement(at(replica, OUTSTANDING));
    }

    /**
     * A call on the replica ended; never takes the count below zero.
     *
     * @param replica the index
     * @return false if the count was already zero (a completion without a pick)
     */
    public boolean release(int replica) {
        int i = at(replica, OUTSTANDING);
        while (true) {
            long v = slots.get(i);
            if (v <= 0) {
                return false;
            }
            if (slots.compareAndSet(i, v, v - 1)) {
                return true;
            }
        }
    }

    /**
     * @param replica the index
     * @return calls in flight
     */
    public long outstanding(int replica) {
        return slots.get(at(replica, OUTSTANDING));
    }

    /**
     * @param replica the index
     * @return picks since creation: every completion counted plus the calls in flight (exact when
     *     nothing is in flight; a snapshot otherwise)
     */
    public long picks(int replica) {
        return slots.get(at(replica, SUCCESSES)) + slots.get(at(replica, FAILURES)) + slots.get(at(replica, OTHERS))
                + slots.get(at(replica, OUTSTANDING));
    }

    /**
     * Counts a completion that is neither a success nor a failure (cancelled, ignored).
     *
     * @param replica the index
     */
    public void other(int replica) {
        slots.getAndIncrement(at(replica, OTHERS));
    }

    // ---- outcomes ----

    /**
     * Counts a success: resets the failure streak (written only if it was not already 0).
     *
     * @param replica the index
     */
    public void success(int replica) {
        slots.getAndIncrement(at(replica, SUCCESSES));
        int c = at(replica, CONSECUTIVE);
        if (slots.get(c) != 0) {
            slots.set(c, 0);
        }
    }

    /**
     * Counts a failure.
     *
     * @param replica the index
     * @return the failure streak including this failure
     */
    public long failure(int replica) {
        slots.getAndIncrement(at(replica, FAILURES));
        return slots.incrementAndGet(at(replica, CONSECUTIVE));
    }

    /**
     * @param replica the index
     * @return successes since creation
     */
    public long successes(int replica) {
        return slots.get(at(replica, SUCCESSES));
    }

    /**
     * @param replica the index
     * @return failures since creation
     */
    public long failures(int replica) {
        return slots.get(at(replica, FAILURES));
    }

    /**
     * Resets the failure streak.
     *
     * @param replica the index
     */
    public void clearStreak(int replica) {
        slots.set(at(replica, CONSECUTIVE), 0);
    }

    /**
     * Takes the counts since the previous call: successes in the high 32 bits, failures in the low
     * (each saturated). The totals are never reset (they are the metrics' monotonic counters); the
     * interval is their difference from the previous snapshot. Single writer: the elected maintainer.
     *
     * @param replica the index
     * @return the packed counts
     */
    public long takeInterval(int replica) {
        long s = slots.get(at(replica, SUCCESSES));
        long f = slots.get(at(replica, FAILURES));
        long ds = Math.min(s - slots.get(at(replica, PREVIOUS_SUCCESSES)), 0x7fff_ffffL);
        long df = Math.min(f - slots.get(at(replica, PREVIOUS_FAILURES)), 0x7fff_ffffL);
        slots.set(at(replica, PREVIOUS_SUCCESSES), s);
        slots.set(at(replica, PREVIOUS_FAILURES), f);
        return ds << 32 | df;
    }

    /**
     * Scratch slot of the success-rate pass (single writer: the elected maintenance thread).
     *
     * @param replica the index
     * @param rate the rate, or a negative value for "not compared"
     */
    public void setRate(int replica, double rate) {
        slots.set(at(replica, RATE), Double.doubleToRawLongBits(rate));
    }

    /**
     * @param replica the index
     * @return the scratch rate
     */
    public double rate(int replica) {
        return Double.longBitsToDouble(slots.get(at(replica, RATE)));
    }

    // ---- status: ejection and health ----

    /**
     * @param replica the index
     * @return the status bits
     */
    public long status(int replica) {
        return slots.get(at(replica, STATUS));
    }

    /**
     * @param replica the index
     * @return whether neither ejected nor unhealthy
     */
    public boolean up(int replica) {
        return slots.get(at(replica, STATUS)) == 0;
    }

    /**
     * Sets a status bit.
     *
     * @param replica the index
     * @param bit the bit
     * @return the status before, or -1 if the bit was already set
     */
    public long setBit(int replica, long bit) {
        int i = at(replica, STATUS);
        while (true) {
            long s = slots.get(i);
            if ((s & bit) != 0) {
                return -1L;
            }
            if (slots.compareAndSet(i, s, s | bit)) {
                return s;
            }
        }
    }

    /**
     * Clears a status bit.
     *
     * @param replica the index
     * @param bit the bit
     * @return the status after, or -1 if the bit was not set
     */
    public long clearBit(int replica, long bit) {
        int i = at(replica, STATUS);
        while (true) {
            long s = slots.get(i);
            if ((s & bit) == 0) {
                return -1L;
            }
            if (slots.compareAndSet(i, s, s & ~bit)) {
                return s & ~bit;
            }
        }
    }

    /**
     * @param replica the index
     * @return the end of the current ejection (meaningful while ejected)
     */
    public long ejectedUntil(int replica) {
        return slots.get(at(replica, EJECTED_UNTIL));
    }

    /**
     * @param replica the index
     * @param until the end of the ejection
     */
    public void setEjectedUntil(int replica, long until) {
        slots.set(at(replica, EJECTED_UNTIL), until);
    }

    /**
     * Counts an ejection; the count restarts from 1 when the replica had been back for {@code forgetNanos}.
     *
     * @param replica the index
     * @param now the reading
     * @param forgetNanos how long back in service forgives earlier ejections
     * @return the ejections so far, this one included
     */
    public long countEjection(int replica, long now, long forgetNanos) {
        int e = at(replica, EJECTIONS);
        long readmitted = slots.get(at(replica, READMITTED_AT));
        if (slots.get(e) > 0 && now - readmitted >= forgetNanos) {
            slots.set(e, 0);
        }
        return slots.incrementAndGet(e);
    }

    /**
     * @param replica the index
     * @return ejections counted (see {@link #countEjection})
     */
    public long ejections(int replica) {
        return slots.get(at(replica, EJECTIONS));
    }

    /**
     * @param replica the index
     * @param now when it came back
     */
    public void readmittedAt(int replica, long now) {
        slots.set(at(replica, READMITTED_AT), now);
    }

    // ---- Peak-EWMA ----

    /**
     * Folds a latency sample into the replica's Peak-EWMA estimate (formula: {@code SelectionRule.PEAK_EWMA}).
     *
     * @param replica the index
     * @param rttNanos the latency
     * @param now the reading at the end of the call
     * @param decayNanos the time constant
     * @param mayLower false for a failure or a cancelled call: the sample can raise the estimate (a
     *     peak) but not pull it down, so a replica that fails fast does not look fast
     */
    public void sample(int replica, long rttNanos, long now, double decayNanos, boolean mayLower) {
        int i = at(replica, EWMA);
        double rtt = Math.max(1.0, (double) rttNanos);
        long stamp = (now >>> TIME_SHIFT) & 0xffff_ffffL;
        while (true) {
            long s = slots.get(i);
            double next;
            if (s == 0L) {
                next = rtt; // the first sample, even a lower bound, is better than none
            } else {
                double w = weight(s, now, decayNanos);
                double decayed = estimate(s) * w;
                if (rtt > decayed) {
                    next = rtt;
                } else if (mayLower) {
                    next = decayed + rtt * (1.0 - w);
                } else {
                    return;
                }
            }
            long packed = (long) Float.floatToRawIntBits((float) Math.max(1.0, next)) << 32 | stamp;
            if (slots.compareAndSet(i, s, packed)) {
                return;
            }
        }
    }

    /**
     * The Peak-EWMA cost: {@code estimate × (outstanding + 1)}, the estimate decayed toward zero while
     * the replica is idle; {@code initial × outstanding} without a sample.
     *
     * @param replica the index
     * @param now the reading
     * @param decayNanos the time constant
     * @param initialNanos the price per call in flight without a sample
     * @return the cost
     */
    public double cost(int replica, long now, double decayNanos, double initialNanos) {
        long s = slots.get(at(replica, EWMA));
        long outstanding = outstanding(replica);
        if (s == 0L) {
            return initialNanos * outstanding;
        }
        double estimate = estimate(s);
        if (outstanding == 0) {
            estimate *= weight(s, now, decayNanos);
        }
        return estimate * (outstanding + 1);
    }

    /**
     * @param replica the index
     * @param now the reading
     * @param decayNanos the time constant
     * @return the estimate in nanoseconds decayed to {@code now}, or NaN without a sample
     */
    public double latencyEstimate(int replica, long now, double decayNanos) {
        long s = slots.get(at(replica, EWMA));
        return s == 0L ? Double.NaN : estimate(s) * weight(s, now, decayNanos);
    }

    private static double estimate(long packed) {
        return Float.intBitsToFloat((int) (packed >>> 32));
    }

    /** {@code exp(−Δ / decay)}, Δ the time since the stamped sample (read modulo 2^48 ns as a signed number; a negative gap counts as 0). */
    private static double weight(long packed, long now, double decayNanos) {
        int units = (int) (((now >>> TIME_SHIFT) & 0xffff_ffffL) - (packed & 0xffff_ffffL));
        // A reading older than the stamp (a completion that raced a later one) counts as no time passed.
        return units <= 0 ? 1.0 : Math.exp(-(double) ((long) units << TIME_SHIFT) / decayNanos);
    }
}
