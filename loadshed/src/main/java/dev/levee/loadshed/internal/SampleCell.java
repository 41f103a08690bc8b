package dev.levee.loadshed.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Completion samples merged in one word on a cache line of their own: a concurrency limiter's
 * per-thread accumulator once completions contend. Not for users: may change without notice.
 *
 * <p>The word packs {@code rtt << 9 | drop << 8 | count}: the largest latency folded in (capped at
 * {@link #MAX_RTT_NANOS}, about 208 days), whether any sample was a drop, and how many samples (capped
 * at 255); 0 means empty. {@link #add} is one CAS on the owner's own line; {@link #take} empties it.
 */
public final class SampleCell extends SampleCellValue {
    /** Latencies above this (2^54 − 1 ns) are folded in as this. */
    public static final long MAX_RTT_NANOS = (1L << 54) - 1;
    private static final long DROP = 1L << 8;
    private static final long COUNT = 0xFF;
    /** At most this many cells (about 2 KB) per limiter: keyed limiters may hold thousands of limiters. */
    private static final int MAX_CELLS = 16;
    private static final VarHandle WORD;

    static {
        try {
            WORD = MethodHandles.lookup().findVarHandle(SampleCellValue.class, "word", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Padding after the word. */
    long p10, p11, p12, p13, p14, p15, p16, p17;

    /** An empty cell. */
    public SampleCell() {}

    /**
     * Cells for the machine: the next power of two at or above twice the processors, at least 2 and
     * at most 16, so threads with consecutive ids never share one (beyond 16 threads some share a cell,
     * which stays correct: its CAS just contends).
     *
     * @return empty cells, a power of two of them
     */
    public static SampleCell[] newCells() {
        int wanted = Math.max(2, 2 * Runtime.getRuntime().availableProcessors());
        int n = Math.min(MAX_CELLS, Integer.highestOneBit(wanted - 1) << 1);
        SampleCell[] cells = new SampleCell[n];
        for (int i = 0; i < n; i++) {
            cells[i] = new SampleCell();
        }
        return cells;
    }

    /**
     * Folds a sample in: the larger latency, drop if either dropped, one more in the count.
     *
     * @param rttNanos the sample's latency, at least 0
     * @param drop whether the sample was a drop
     * @return the samples in the cell now (at most 255)
     */
    public int add(long rttNanos, boolean drop) {
        long rtt = Math.min(rttNanos, MAX_RTT_NANOS);
        long current = word;
        while (true) {
            long next = Math.max(current >>> 9, rtt) << 9 | current & DROP | (drop ? DROP : 0)
                    | Math.min((current & COUNT) + 1, COUNT);
            long witness = (long) WORD.compareAndExchange(this, current, next);
            if (witness == current) {
                return (int) (next & COUNT);
            }
            current = witness;
        }
    }

    /**
     * Empties the cell.
     *
     * @return the word it held, 0 if it was empty
     */
    public long take() {
        return word == 0 ? 0 : (long) WORD.getAndSet(this, 0L);
    }

    /**
     * @param word a word from {@link #take()}, not 0
     * @return the largest latency folded in
     */
    public static long rtt(long word) {
        return word >>> 9;
    }

    /**
     * @param word a word from {@link #take()}, not 0
     * @return whether any sample folded in was a drop
     */
    public static boolean drop(long word) {
        return (word & DROP) != 0;
    }
}

/** Padding before the word. */
abstract class SampleCellPad {
    long p00, p01, p02, p03, p04, p05, p06, p07;
}

/** The packed samples, between two paddings. */
abstract class SampleCellValue extends SampleCellPad {
    volatile long word;
}
