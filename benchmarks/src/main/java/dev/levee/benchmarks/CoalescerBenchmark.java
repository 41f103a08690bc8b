package dev.levee.benchmarks;

import dev.levee.core.CheckedSupplier;
import dev.levee.degrade.Coalescer;
import dev.levee.degrade.CoalescerConfig;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Single-flight request coalescing: Levee's {@link Coalescer} beside the textbook single-flight
 * built on {@link ConcurrentHashMap#computeIfAbsent} (the shape most hand-written coalescers take),
 * in the same run.
 *
 * <ul>
 *   <li>{@code *Leader} — every call is the only one for its key (keys rotate over 1,024): the cost a
 *       call pays for being coalescable when nobody else wants the same key — insert, load, remove;</li>
 *   <li>{@code *HotKey} — every call (and every thread, when run with {@code -t}) asks for the same
 *       key: with one thread it is the same leader path on one map bin; with several, callers that
 *       overlap a load join it instead of loading.</li>
 * </ul>
 * The load returns a preallocated object. Levee's coalescer also keeps a bounded-entries counter and
 * its metrics counters; the peer has neither.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CoalescerBenchmark {
    private static final Object VALUE = new Object();
    private static final Integer[] KEYS = new Integer[1024];

    static {
        for (int i = 0; i < KEYS.length; i++) {
            KEYS[i] = i;
        }
    }

    private final Coalescer<Integer, Object> levee = Coalescer.of("bench", CoalescerConfig.defaults());
    private final ComputeIfAbsentSingleFlight<Integer, Object> peer = new ComputeIfAbsentSingleFlight<>();
    private final CheckedSupplier<Object, RuntimeException> load = () -> VALUE;
    private int next;

    @Benchmark
    public Object leveeLeader() {
        return levee.execute(KEYS[next++ & 1023], load);
    }

    @Benchmark
    public Object computeIfAbsentLeader() {
        return peer.execute(KEYS[next++ & 1023], load);
    }

    @Benchmark
    public Object leveeHotKey() {
        return levee.execute(KEYS[0], load);
    }

    @Benchmark
    public Object computeIfAbsentHotKey() {
        return peer.execute(KEYS[0], load);
    }

    /** The common hand-written single-flight: one future per key via computeIfAbsent, removed after the load. */
    static final class ComputeIfAbsentSingleFlight<K, V> {
        private final ConcurrentHashMap<K, CompletableFuture<V>> inFlight = new ConcurrentHashMap<>();

        V execute(K key, CheckedSupplier<V, RuntimeException> loader) {
            CompletableFuture<V> mine = new CompletableFuture<>();
            CompletableFuture<V> shared = inFlight.computeIfAbsent(key, k -> mine);
            if (shared != mine) {
                try {
                    return shared.get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                } catch (ExecutionException e) {
                    throw new IllegalStateException(e.getCause());
                }
            }
            try {
                V value = loader.get();
                mine.complete(value);
                return value;
            } catch (RuntimeException e) {
                mine.completeExceptionally(e);
                throw e;
            } finally {
                inFlight.remove(key, mine);
            }
        }
    }
}
