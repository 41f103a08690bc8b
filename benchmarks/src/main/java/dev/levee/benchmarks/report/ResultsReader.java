package dev.levee.benchmarks.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reads the JMH JSON result files ({@code -rf json}) of one run: {@code benchmarks/run} writes one file
 * per thread count into a results directory, and this reader merges them.
 */
final class ResultsReader {
    private final List<Measurement> measurements = new ArrayList<>();
    private final List<Map<String, Object>> raw = new ArrayList<>();

    /**
     * Reads every {@code *.json} file in {@code dir}, or the one file {@code dir} names.
     *
     * @param dir a directory of result files, or one result file
     * @return the reader holding the merged results
     * @throws IOException if a file cannot be read
     */
    static ResultsReader read(Path dir) throws IOException {
        ResultsReader reader = new ResultsReader();
        List<Path> files;
        if (Files.isDirectory(dir)) {
            try (Stream<Path> list = Files.list(dir)) {
                files = list.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().collect(Collectors.toList());
            }
        } else {
            files = List.of(dir);
        }
        for (Path file : files) {
            String text = Files.readString(file, StandardCharsets.UTF_8).trim();
            if (text.isEmpty()) {
                continue; // JMH leaves an empty file when every benchmark failed
            }
            reader.add(Json.parse(text), file);
        }
        return reader;
    }

    /**
     * The measurements, in file order.
     *
     * @return the measurements
     */
    List<Measurement> measurements() {
        return measurements;
    }

    /**
     * The settings of the run, from the first result; thread counts from all of them.
     *
     * @return the settings, or null when there is no result
     */
    RunSettings settings() {
        if (raw.isEmpty()) {
            return null;
        }
        Map<String, Object> first = raw.get(0);
        TreeSet<Integer> threads = new TreeSet<>();
        TreeSet<String> profilers = new TreeSet<>();
        // benchmarks/run takes more measurements at 2+ threads: say which count had which.
        Map<String, TreeSet<Integer>> measurements = new java.util.LinkedHashMap<>();
        for (Map<String, Object> r : raw) {
            threads.add((int) Json.number(r.get("threads")));
            measurements.computeIfAbsent((int) Json.number(r.get("measurementIterations")) + " × "
                    + r.get("measurementTime"), k -> new TreeSet<>()).add((int) Json.number(r.get("threads")));
            Object secondary = r.get("secondaryMetrics");
            if (secondary instanceof Map && ((Map<?, ?>) secondary).containsKey("gc.alloc.rate.norm")) {
                profilers.add("gc");
            }
        }
        Object args = first.get("jvmArgs");
        String jvmArgs = args instanceof List
                ? ((List<?>) args).stream().map(String::valueOf).collect(Collectors.joining(" "))
                : "";
        String jdk = first.get("jdkVersion") + " (" + first.get("vmName") + " " + first.get("vmVersion") + ")";
        return new RunSettings(
                String.valueOf(first.get("jmhVersion")),
                jdk,
                jvmArgs,
                (int) Json.number(first.get("forks")),
                (int) Json.number(first.get("warmupIterations")) + " × " + first.get("warmupTime"),
                measurements.size() == 1 ? measurements.keySet().iterator().next()
                        : measurements.entrySet().stream()
                                .map(e -> e.getKey() + " at " + e.getValue().stream().map(String::valueOf)
                                        .collect(Collectors.joining(", ")) + " thread(s)")
                                .collect(Collectors.joining("; ")),
                threads,
                profilers.isEmpty() ? "none" : String.join(", ", profilers));
    }

    /** A benchmark with {@code @Param}s is shown as {@code method[key=value,...]}, one row per combination. */
    private static String params(Object params) {
        if (!(params instanceof Map) || ((Map<?, ?>) params).isEmpty()) {
            return "";
        }
        return ((Map<?, ?>) params).entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(",", "[", "]"));
    }

    @SuppressWarnings("unchecked")
    private void add(Object document, Path file) {
        if (!(document instanceof List)) {
            throw new IllegalArgumentException(file + ": expected a JSON array of JMH results");
        }
        for (Object o : (List<Object>) document) {
            Map<String, Object> r = (Map<String, Object>) o;
            String benchmark = String.valueOf(r.get("benchmark"));
            int lastDot = benchmark.lastIndexOf('.');
            int classDot = benchmark.lastIndexOf('.', lastDot - 1);
            String className = benchmark.substring(classDot + 1, lastDot);
            String method = benchmark.substring(lastDot + 1) + params(r.get("params"));
            Map<String, Object> primary = (Map<String, Object>) r.get("primaryMetric");
            double bytes = Double.NaN;
            Object secondary = r.get("secondaryMetrics");
            if (secondary instanceof Map) {
                Object norm = ((Map<String, Object>) secondary).get("gc.alloc.rate.norm");
                if (norm instanceof Map) {
                    bytes = Json.number(((Map<String, Object>) norm).get("score"));
                }
            }
            measurements.add(new Measurement(
                    className,
                    method,
                    (int) Json.number(r.get("threads")),
                    Json.number(primary.get("score")),
                    Json.number(primary.get("scoreError")),
                    String.valueOf(primary.get("scoreUnit")),
                    bytes));
            raw.add(r);
        }
    }
}
