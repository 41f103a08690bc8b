package dev.levee.loadshed.signal;

import dev.levee.core.Scheduler;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.time.Duration;

/**
 * CPU utilisation from the JVM's {@link OperatingSystemMXBean} ({@code com.sun.management}'s
 * extension, present on HotSpot and OpenJ9): the <em>process</em> CPU load (this JVM's share of all
 * cores) or the <em>system</em> CPU load (the whole machine), each in [0, 1]. Sampled on a
 * {@link Scheduler} (default every {@value #DEFAULT_INTERVAL_MILLIS} ms) and read as a volatile.
 *
 * <pre>{@code
 * LoadSignal cpu = CpuLoadSignal.process();          // shared, on Scheduler.system()
 * }</pre>
 *
 * <p>Where the extension is missing or the platform cannot tell (it reports a negative value), the
 * signal reads {@code 0.0}: it never sheds on missing data.
 */
public final class CpuLoadSignal {
    /** Default sampling interval in milliseconds. */
    public static final long DEFAULT_INTERVAL_MILLIS = 1000;

    private CpuLoadSignal() {}

    /** Holder of the shared process signal, created on first use. */
    private static final class Process {
        static final SampledLoadSignal INSTANCE =
                process(Duration.ofMillis(DEFAULT_INTERVAL_MILLIS), Scheduler.system());
    }

    /** Holder of the shared system signal, created on first use. */
    private static final class SystemHolder {
        static final SampledLoadSignal INSTANCE =
                system(Duration.ofMillis(DEFAULT_INTERVAL_MILLIS), Scheduler.system());
    }

    /** @return the shared process CPU signal (sampled every second on {@link Scheduler#system()}) */
    public static SampledLoadSignal process() {
        return Process.INSTANCE;
    }

    /** @return the shared system CPU signal (sampled every second on {@link Scheduler#system()}) */
    public static SampledLoadSignal system() {
        return SystemHolder.INSTANCE;
    }

    /**
     * A process CPU signal of one's own.
     *
     * @param interval how often to sample
     * @param scheduler where sampling runs
     * @return the running signal
     */
    public static SampledLoadSignal process(Duration interval, Scheduler scheduler) {
        return SampledLoadSignal.of("cpu.process", CpuLoadSignal::processCpuLoad, interval, scheduler);
    }

    /**
     * A system CPU signal of one's own.
     *
     * @param interval how often to sample
     * @param scheduler where sampling runs
     * @return the running signal
     */
    public static SampledLoadSignal system(Duration interval, Scheduler scheduler) {
        return SampledLoadSignal.of("cpu.system", CpuLoadSignal::systemCpuLoad, interval, scheduler);
    }

    /** @return this JVM's CPU load in [0, 1], or a negative value when unknown */
    static double processCpuLoad() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuLoad();
        }
        return -1.0;
    }

    /** @return the machine's CPU load in [0, 1], or a negative value when unknown */
    static double systemCpuLoad() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            return ((com.sun.management.OperatingSystemMXBean) os).getCpuLoad();
        }
        return -1.0;
    }
}
