package dev.levee.benchmarks;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The floor: what any time-based gate has to pay at least, measured in the same run as everything
 * else so that the report can say "Levee's GCRA costs 1.1× the floor" instead of quoting a number
 * from another machine.
 *
 * <p>A time-based gate (GCRA, token bucket, a windowed breaker) reads the clock once and commits its
 * decision with one compare-and-set on a {@code long}. So the floor is:
 * <ul>
 *   <li>{@link #nanoTime()} — one {@link System#nanoTime()} (on Linux x86-64 a vDSO call reading the
 *       TSC, typically 15–25 ns);</li>
 *   <li>{@link #cas(PerThread)} — one <em>uncontended</em> CAS: read an {@link AtomicLong}, then
 *       {@code compareAndSet(v, v + 1)}, the shape of every lock-free gate's commit;</li>
 *   <li>{@link #nanoTimeAndCas(PerThread)} — both, the way a GCRA does them: read the clock, read the state,
 *       CAS. <b>This is the figure the report divides by</b> ("× floor").</li>
 *   <li>{@link #casInAndOut(PerThread)} — two uncontended read + CAS pairs, one up and one down: the floor
 *       of a semaphore bulkhead's enter and leave (one bounded CAS in, one CAS out), which both Levee's
 *       and resilience4j's bulkheads pay; no bulkhead that keeps an exact count can go under it;</li>
 *   <li>{@link #twoNanoTimesAndAdd(PerThread)} — two clock readings and one atomic add: the floor of a
 *       breaker with a slow-call rule around a call (the latency needs a reading before and after; the
 *       outcome is one atomic add on the window);</li>
 *   <li>{@link #twoNanoTimesAndFiveCas(PerThread)} — two clock readings and five uncontended atomic
 *       read-modify-writes on this thread's own words: the floor of the pipeline of four around a call
 *       that succeeds, as Levee and resilience4j build it (the retry's success counter, the retry
 *       budget's deposit, the limiter's commit, the bulkhead's enter and leave; a breaker whose window
 *       holds only fast successes writes nothing; the breaker's slow-call rule needs both readings);</li>
 *   <li>{@link #contendedCas()} — the same CAS on one {@link AtomicLong} shared by every benchmark
 *       thread: not a floor but the price of sharing one cache line, which every gate with a single
 *       shared state word pays at 2 and 4 threads. It explains the multi-threaded rows of the other
 *       tables.</li>
 * </ul>
 *
 * <p><b>What "uncontended" means at 2 and 4 threads.</b> The counter of {@link #cas(PerThread)} and
 * {@link #nanoTimeAndCas(PerThread)} lives in a {@code @State(Scope.Thread)} object: every benchmark thread
 * has its own, allocated by that thread and padded by JMH, so no cache line is shared and the
 * figure stays the cost of the instruction itself. With 4 threads on this 2-core machine two threads
 * share a core, so the per-operation time roughly doubles: that is oversubscription, not contention,
 * and the report divides each gate's time by the floor measured at the <em>same</em> thread count, so
 * the ratio stays meaningful.
 *
 * <p>Method names here start neither with {@code levee} nor with a peer's name: the report treats
 * this class as the reference, not as a contest.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FloorBenchmark {

    /** One counter per benchmark thread: the honest floor of an uncontended CAS. */
    @State(Scope.Thread)
    public static class PerThread {
        final AtomicLong word = new AtomicLong();
        final AtomicInteger count = new AtomicInteger();
        /** Two more words, for the pipeline floor's budget deposit and success counter. */
        final AtomicLong deposit = new AtomicLong();
        final AtomicLong successes = new AtomicLong();
    }

    /** One counter shared by all benchmark threads. */
    private final AtomicLong shared = new AtomicLong();

    /**
     * One clock reading.
     *
     * @return the reading
     */
    @Benchmark
    public long nanoTime() {
        return System.nanoTime();
    }

    /**
     * One uncontended read + CAS on a per-thread {@link AtomicLong}.
     *
     * @param mine this thread's counter
     * @return whether the CAS succeeded (always true; returned so it cannot be eliminated)
     */
    @Benchmark
    public boolean cas(PerThread mine) {
        AtomicLong word = mine.word;
        long v = word.get();
        return word.compareAndSet(v, v + 1);
    }

    /**
     * A clock reading then an uncontended read + CAS that stores a value derived from it, like a
     * GCRA advancing its theoretical arrival time. The floor the report divides by.
     *
     * @param mine this thread's counter
     * @return whether the CAS succeeded
     */
    @Benchmark
    public boolean nanoTimeAndCas(PerThread mine) {
        long now = System.nanoTime();
        AtomicLong word = mine.word;
        long v = word.get();
        return word.compareAndSet(v, Math.max(v, now) + 1);
    }

    /**
     * Enter and leave: an uncontended read + CAS up, then a read + CAS down, on a per-thread counter.
     * The floor of a semaphore bulkhead's {@code execute}.
     *
     * @param mine this thread's counter
     * @return whether both CASes succeeded
     */
    @Benchmark
    public boolean casInAndOut(PerThread mine) {
        AtomicInteger count = mine.count;
        int in = count.get();
        boolean entered = count.compareAndSet(in, in + 1);
        int out = count.get();
        return count.compareAndSet(out, out - 1) & entered;
    }

    /**
     * A reading before, a reading after, and one atomic add that depends on the latency: the floor of a
     * breaker with a slow-call rule around a call.
     *
     * @param mine this thread's counter
     * @return the add's result
     */
    @Benchmark
    public int twoNanoTimesAndAdd(PerThread mine) {
        long start = System.nanoTime();
        long latency = System.nanoTime() - start;
        return mine.count.getAndAdd(latency > 60_000_000_000L ? 2 : 1);
    }

    /**
     * A reading before the call, five atomic read-modify-writes, a reading after: the floor of a pipeline
     * of four (retry with a budget, breaker, limiter, bulkhead) around a call that succeeds.
     *
     * @param mine this thread's words
     * @return whether every CAS succeeded, and the latency's sign, so nothing can be eliminated
     */
    @Benchmark
    public boolean twoNanoTimesAndFiveCas(PerThread mine) {
        long start = System.nanoTime();
        AtomicLong deposit = mine.deposit;
        long d = deposit.get();
        boolean ok = deposit.compareAndSet(d, d + 1);
        AtomicLong limit = mine.word;
        long l = limit.get();
        ok &= limit.compareAndSet(l, Math.max(l, start) + 1);
        AtomicInteger count = mine.count;
        int in = count.get();
        ok &= count.compareAndSet(in, in + 1);
        int out = count.get();
        ok &= count.compareAndSet(out, out - 1);
        mine.successes.getAndIncrement();
        return ok & System.nanoTime() - start >= 0;
    }

    /**
     * A read + CAS on one {@link AtomicLong} shared by every thread; at 1 thread it equals
     * {@link #cas(PerThread)}.
     *
     * @return whether the CAS succeeded (false when another thread won the race)
     */
    @Benchmark
    public boolean contendedCas() {
        long v = shared.get();
        return shared.compareAndSet(v, v + 1);
    }
}
