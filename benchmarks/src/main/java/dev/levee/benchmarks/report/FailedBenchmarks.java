package dev.levee.benchmarks.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The benchmarks of a run that produced no result, and why: JMH carries on after a benchmark throws,
 * so without this a broken benchmark would silently vanish from the tables and its targets would read
 * "not measured".
 *
 * <p>Reads the JMH logs {@code t<threads>.log} that {@code benchmarks/run} keeps next to the JSON: a
 * benchmark whose block contains {@code <failure>} failed; the reason is the first line after it that
 * names an exception or error.
 */
final class FailedBenchmarks {
    private static final String HEADER = "# Benchmark: ";
    private static final String THREADS = "# Threads: ";

    private FailedBenchmarks() {}

    /**
     * Finds the failed benchmarks of a results directory.
     *
     * @param dir the results directory (a single file yields none)
     * @return {@code Class.method @Nt} → the first exception line, in log order
     * @throws IOException if a log cannot be read
     */
    static Map<String, String> in(Path dir) throws IOException {
        Map<String, String> failed = new LinkedHashMap<>();
        if (!Files.isDirectory(dir)) {
            return failed;
        }
        List<Path> logs;
        try (Stream<Path> list = Files.list(dir)) {
            logs = list.filter(p -> p.getFileName().toString().endsWith(".log")).sorted().collect(Collectors.toList());
        }
        for (Path log : logs) {
            scan(Files.readAllLines(log, StandardCharsets.UTF_8), failed);
        }
        return failed;
    }

    private static void scan(List<String> lines, Map<String, String> failed) {
        String benchmark = null;
        String threads = "?";
        boolean failing = false;
        for (String line : lines) {
            if (line.startsWith(THREADS)) {
                threads = line.substring(THREADS.length()).split(" ")[0].replace(",", "");
            } else if (line.startsWith(HEADER)) {
                String full = line.substring(HEADER.length()).trim();
                int method = full.lastIndexOf('.');
                int cls = full.lastIndexOf('.', method - 1);
                benchmark = full.substring(cls + 1);
                failing = false;
            } else if (benchmark != null && line.contains("<failure>")) {
                failing = true;
            } else if (failing && (line.contains("Exception") || line.contains("Error")) && !line.startsWith("\t")) {
                failed.putIfAbsent(benchmark + " @" + threads + "t", line.trim());
                failing = false;
            }
        }
    }
}
