package dev.levee.loadshed.signal;

import dev.levee.core.Scheduler;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.List;

/**
 * Heap occupancy <em>after garbage collection</em>: for each heap memory pool that supports a
 * collection-usage threshold (the old generation, and the young pools of most collectors), the usage
 * the JVM measured right after that pool's last collection, divided by the pool's maximum (or its
 * committed size when it has no maximum); the signal is the largest of these fractions.
 *
 * <p>Why not {@code Runtime.freeMemory()}: heap usage between collections is mostly garbage waiting
 * to be collected, so it saw-tooths between low and nearly full whatever the real load is. What
 * survives a collection is the live data a request load keeps; that rising toward the maximum is the
 * overload worth shedding for (seed 002's {@code memory_threshold = 0.90} compares against it).
 *
 * <pre>{@code
 * LoadSignal memory = MemoryLoadSignal.heapAfterGc();      // shared, sampled every second
 * }</pre>
 *
 * <p>Reads {@code 0.0} before the first collection and where no pool reports collection usage.
 */
public final class MemoryLoadSignal {
    /** Default sampling interval in milliseconds. */
    public static final long DEFAULT_INTERVAL_MILLIS = 1000;

    private MemoryLoadSignal() {}

    /** Holder of the shared signal, created on first use. */
    private static final class Shared {
        static final SampledLoadSignal INSTANCE =
                heapAfterGc(Duration.ofMillis(DEFAULT_INTERVAL_MILLIS), Scheduler.system());
    }

    /** @return the shared heap-after-GC signal (sampled every second on {@link Scheduler#system()}) */
    public static SampledLoadSignal heapAfterGc() {
        return Shared.INSTANCE;
    }

    /**
     * A heap-after-GC signal of one's own.
     *
     * @param interval how often to sample
     * @param scheduler where sampling runs
     * @return the running signal
     */
    public static SampledLoadSignal heapAfterGc(Duration interval, Scheduler scheduler) {
        List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans();
        return SampledLoadSignal.of("memory.heap_after_gc", () -> afterGc(pools), interval, scheduler);
    }

    /**
     * The largest after-collection occupancy among the pools.
     *
     * @param pools the memory pools to read
     * @return a fraction in [0, 1], 0 when unknown
     */
    static double afterGc(List<MemoryPoolMXBean> pools) {
        double worst = 0.0;
        for (MemoryPoolMXBean pool : pools) {
            if (pool.getType() != MemoryType.HEAP || !pool.isCollectionUsageThresholdSupported()) {
                continue;
            }
            MemoryUsage after = pool.getCollectionUsage();
            if (after == null) {
                continue;
            }
            worst = Math.max(worst, occupancy(after.getUsed(), after.getMax(), after.getCommitted()));
        }
        return worst;
    }

    /**
     * {@code used / max}, or {@code used / committed} when max is undefined.
     *
     * @param used bytes used
     * @param max the maximum, or -1 when undefined
     * @param committed bytes committed
     * @return a fraction in [0, 1]; 0 when nothing is known
     */
    static double occupancy(long used, long max, long committed) {
        long cap = max > 0 ? max : committed;
        if (cap <= 0 || used <= 0) {
            return 0.0;
        }
        return Math.min(1.0, used / (double) cap);
    }
}
