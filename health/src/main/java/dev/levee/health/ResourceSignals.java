package dev.levee.health;

import dev.levee.core.LoadSignal;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;

/**
 * {@link LoadSignal}s read from the JVM's management beans, for resource checks and the
 * {@link Watchdog}: heap usage and CPU load, each on the load scale (0 idle, 1 at capacity).
 *
 * <p>Each reading calls a management bean (a few hundred nanoseconds to microseconds): fine for
 * checks and watchdog samples, not for a per-request hot path (sample those in the background).
 */
public final class ResourceSignals {
    private ResourceSignals() {}

    /**
     * Heap used over heap max (committed when the max is undefined).
     *
     * @return the signal
     */
    public static LoadSignal heapUsage() {
        return () -> fraction(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage());
    }

    /**
     * The fraction a memory usage is of its max (or committed when max is undefined); 0 when unknown.
     *
     * @param usage a usage
     * @return used / max
     */
    static double fraction(MemoryUsage usage) {
        long max = usage.getMax() > 0 ? usage.getMax() : usage.getCommitted();
        return max > 0 ? Math.max(0.0, usage.getUsed() / (double) max) : 0.0;
    }

    /**
     * The JVM process's recent CPU load over all cores; 0 when the platform cannot tell.
     *
     * @return the signal
     */
    public static LoadSignal processCpu() {
        return () -> {
            var os = ManagementFactory.getOperatingSystemMXBean();
            if (os instanceof com.sun.management.OperatingSystemMXBean) {
                double load = ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuLoad();
                return load >= 0.0 ? load : 0.0;
            }
            return 0.0;
        };
    }

    /**
     * The whole machine's (or container's) recent CPU load; 0 when the platform cannot tell.
     *
     * @return the signal
     */
    public static LoadSignal systemCpu() {
        return () -> {
            var os = ManagementFactory.getOperatingSystemMXBean();
            if (os instanceof com.sun.management.OperatingSystemMXBean) {
                double load = ((com.sun.management.OperatingSystemMXBean) os).getCpuLoad();
                return load >= 0.0 ? load : 0.0;
            }
            return 0.0;
        };
    }
}
