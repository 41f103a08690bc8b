package dev.levee.benchmarks.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The machine the report is generated on: the CPU model from {@code /proc/cpuinfo} when present. */
final class Machine {
    private Machine() {}

    /**
     * Describes the CPU: {@code <model name> — N logical CPUs}; on a system without
     * {@code /proc/cpuinfo}, the OS and processor count the JVM reports.
     *
     * @return the description
     */
    static String cpu() {
        int logical = Runtime.getRuntime().availableProcessors();
        Path cpuinfo = Path.of("/proc/cpuinfo");
        if (Files.isReadable(cpuinfo)) {
            try {
                List<String> lines = Files.readAllLines(cpuinfo);
                String model = lines.stream()
                        .filter(l -> l.startsWith("model name"))
                        .map(l -> l.substring(l.indexOf(':') + 1).trim())
                        .findFirst()
                        .orElse("unknown model");
                long listed = lines.stream().filter(l -> l.startsWith("processor")).count();
                return model + " — " + listed + " logical CPUs in /proc/cpuinfo, " + logical + " available to the JVM";
            } catch (IOException e) {
                // fall through to what the JVM knows
            }
        }
        return System.getProperty("os.name") + " " + System.getProperty("os.arch") + " — " + logical
                + " logical CPUs available to the JVM";
    }
}
