package dev.levee.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report generator on hand-written JMH results: parsing, ratios, target verdicts, page splicing. */
class ReportGeneratorTest {

    /** One JMH JSON result, as {@code -rf json} writes it (trimmed to the fields the reader uses). */
    private static String result(String benchmark, int threads, double score, String error, double bytes) {
        return "{ \"jmhVersion\" : \"1.37\", \"benchmark\" : \"dev.levee.benchmarks." + benchmark + "\","
                + " \"mode\" : \"avgt\", \"threads\" : " + threads + ", \"forks\" : 1, \"jvmArgs\" : [ ],"
                + " \"jdkVersion\" : \"17.0.15\", \"vmName\" : \"OpenJDK 64-Bit Server VM\", \"vmVersion\" : \"17.0.15+6\","
                + " \"warmupIterations\" : 1, \"warmupTime\" : \"1 s\", \"measurementIterations\" : 2,"
                + " \"measurementTime\" : \"1 s\", \"primaryMetric\" : { \"score\" : " + score + ", \"scoreError\" : "
                + error + ", \"scoreConfidence\" : [ \"NaN\", \"NaN\" ], \"scoreUnit\" : \"ns/op\", \"rawData\" : [ [ 1.0 ] ] },"
                + " \"secondaryMetrics\" : { \"gc.alloc.rate.norm\" : { \"score\" : " + bytes
                + ", \"scoreError\" : \"NaN\", \"scoreUnit\" : \"B/op\" } } }";
    }

    private static Path write(Path dir, String name, String... results) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, "[\n" + String.join(",\n", results) + "\n]\n");
        return file;
    }

    private static ResultTable table(Path dir) throws IOException {
        return new ResultTable(ResultsReader.read(dir).measurements());
    }

    @Test
    void jsonReadsJmhShapesIncludingNanStrings() {
        Object parsed = Json.parse("{\"a\" : [1, -2.5e1, \"NaN\", true, null], \"s\" : \"q\\\"\\u00e9\"}");
        assertThat(parsed).isInstanceOf(Map.class);
        Map<?, ?> map = (Map<?, ?>) parsed;
        @SuppressWarnings("unchecked")
        List<Object> a = (List<Object>) map.get("a");
        assertThat(a).containsExactly(1.0, -25.0, "NaN", true, null);
        assertThat(Json.number(a.get(2))).isNaN();
        assertThat(map.get("s")).isEqualTo("q\"é");
        assertThatThrownBy(() -> Json.parse("{\"a\" 1}")).hasMessageContaining("offset");
    }

    @Test
    void ratiosUseTheFloorAndTheFastestPeerOfTheSameOperationAndThreadCount(@TempDir Path dir) throws IOException {
        write(dir, "t1.json",
                result("FloorBenchmark.nanoTimeAndCas", 1, 20.0, "0.5", 0.0001),
                result("BulkheadBenchmark.leveeTryAcquireRelease", 1, 10.0, "0.2", 0.0001),
                result("BulkheadBenchmark.leveeExecute", 1, 30.0, "\"NaN\"", 0.0001),
                result("BulkheadBenchmark.resilience4jTryAcquireRelease", 1, 40.0, "1", 0.0),
                result("BulkheadBenchmark.netflixAcquireRelease", 1, 25.0, "1", 24.0),
                result("BulkheadBenchmark.resilience4jExecute", 1, 60.0, "1", 0.0),
                result("BulkheadBenchmark.failsafeExecute", 1, 5.0, "1", 0.0));
        write(dir, "t2.json", result("FloorBenchmark.nanoTimeAndCas", 2, 40.0, "0.5", 0.0001));
        ResultTable table = table(dir);

        Measurement tryAcquire = find(table, "leveeTryAcquireRelease");
        assertThat(table.ratioToFloor(tryAcquire)).isEqualTo(0.5);
        // netflixAcquireRelease is the same operation (suffix) and the fastest of those: 10 / 25.
        assertThat(table.ratioToFastestPeer(tryAcquire)).isEqualTo(0.4);
        // execute is compared with execute only: failsafeExecute, 30 / 5.
        assertThat(table.ratioToFastestPeer(find(table, "leveeExecute"))).isEqualTo(6.0);
        assertThat(table.classes()).containsExactly("FloorBenchmark", "BulkheadBenchmark");
    }

    @Test
    void aPeerlessRowIsNeverDividedByAPeer(@TempDir Path dir) throws IOException {
        write(dir, "t1.json",
                result("TimeoutBenchmark.leveeCooperativePeerless", 1, 30.0, "1", 24.0),
                result("TimeoutBenchmark.leveeAsync", 1, 300.0, "10", 200.0),
                result("TimeoutBenchmark.resilience4jTimeLimiterAsync", 1, 600.0, "10", 300.0),
                result("TimeoutBenchmark.failsafeTimeout", 1, 2000.0, "10", 1000.0));
        ResultTable table = table(dir);

        assertThat(table.ratioToFastestPeer(find(table, "leveeCooperativePeerless"))).isNaN();
        // The async timeout is compared with resilience4j's TimeLimiter (same operation: "...async").
        assertThat(table.ratioToFastestPeer(find(table, "leveeAsync"))).isEqualTo(0.5);
    }

    @Test
    void targetsAreMetNotMetOrNotMeasuredWithTheReason(@TempDir Path dir) throws IOException {
        write(dir, "t1.json",
                result("FloorBenchmark.nanoTimeAndCas", 1, 20.0, "0.5", 0.0001),
                result("CircuitBreakerClosedBenchmark.leveeCountBased", 1, 12.0, "1", 0.0001),
                result("CircuitBreakerClosedBenchmark.resilience4jCountBased", 1, 40.0, "1", 0.0),
                result("CircuitBreakerClosedBenchmark.leveeTimeBased", 1, 30.0, "1", 0.0001),
                result("CircuitBreakerClosedBenchmark.resilience4jTimeBased", 1, 50.0, "1", 0.0),
                result("CircuitBreakerClosedBenchmark.failsafeCountBased", 1, 100.0, "1", 0.0),
                result("RetryBenchmark.leveeRetry", 1, 10.0, "1", 16.0),
                result("RetryBenchmark.resilience4jRetry", 1, 100.0, "1", 0.0));
        List<TargetCheck> checks = Targets.check(table(dir));

        assertThat(verdict(checks, "count window ≤ 0.6×", "leveeCountBased")).isEqualTo(Verdict.MET); // 0.3
        assertThat(verdict(checks, "time window ≤ 0.5×", "leveeTimeBased")).isEqualTo(Verdict.NOT_MET); // 0.6
        assertThat(verdict(checks, "faster than Failsafe", "leveeTimeBased")).isEqualTo(Verdict.MET);
        assertThat(verdict(checks, "≤ 0.5× resilience4j", "leveeRetry")).isEqualTo(Verdict.MET);
        // Not run at 2 threads, no rate limiter, no pipeline: not measured, with the reason.
        TargetCheck twoThreads = check(checks, "count window no slower");
        assertThat(twoThreads.verdict()).isEqualTo(Verdict.NOT_MEASURED);
        assertThat(twoThreads.note()).contains("not run at 2 thread(s)");
        assertThat(check(checks, "GCRA ≤ 1.25× floor").note()).contains("no levee* method containing 'gcra'");
        assertThat(check(checks, "pipeline of four").verdict()).isEqualTo(Verdict.NOT_MEASURED);
        // Allocation: the breaker allocates nothing; the retry's 16 B/op is named.
        TargetCheck retryAlloc = checks.stream()
                .filter(c -> c.goal().contains("0 B/op") && c.subject().equals("RetryBenchmark"))
                .findFirst().orElseThrow();
        assertThat(retryAlloc.verdict()).isEqualTo(Verdict.NOT_MET);
        assertThat(retryAlloc.note()).contains("leveeRetry @1t: 16.00 B/op");
    }

    @Test
    void aTargetIsMetOnlyWhenTheRatiosConfidenceIntervalClearsIt(@TempDir Path dir) throws IOException {
        write(dir, "t1.json",
                // 12 ± 1 over 40 ± 1: [0.27, 0.33], clear of 0.6.
                result("CircuitBreakerClosedBenchmark.leveeCountBased", 1, 12.0, "1", 0.0),
                result("CircuitBreakerClosedBenchmark.resilience4jCountBased", 1, 40.0, "1", 0.0),
                // 22 ± 4 over 40 ± 2: point 0.55 ≤ 0.6, but the interval [0.43, 0.68] straddles it.
                result("CircuitBreakerMixedOutcomesBenchmark.leveeCountBased", 1, 22.0, "4", 0.0),
                result("CircuitBreakerMixedOutcomesBenchmark.resilience4jCountBased", 1, 40.0, "2", 0.0),
                // 30 ± 1 over 40 ± 1: [0.71, 0.79], wholly above 0.6.
                result("CircuitBreakerOpenBenchmark.leveeCountBased", 1, 30.0, "1", 0.0),
                result("CircuitBreakerOpenBenchmark.resilience4jCountBased", 1, 40.0, "1", 0.0),
                // No interval (one iteration): a point estimate within the bound is not enough.
                result("BulkheadBenchmark.leveeTryAcquireRelease", 1, 5.0, "\"NaN\"", 0.0),
                result("BulkheadBenchmark.resilience4jTryAcquireRelease", 1, 10.0, "1", 0.0));
        List<TargetCheck> checks = Targets.check(table(dir));
        String goal = "count window ≤ 0.6×";
        TargetCheck clear = checks.stream().filter(c -> c.goal().startsWith(goal)
                && c.subject().equals("CircuitBreakerClosedBenchmark.leveeCountBased")).findFirst().orElseThrow();
        assertThat(clear.verdict()).isEqualTo(Verdict.MET);
        assertThat(clear.low()).isCloseTo(11.0 / 41.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(clear.high()).isCloseTo(13.0 / 39.0, org.assertj.core.data.Offset.offset(1e-9));
        TargetCheck noisy = checks.stream().filter(c -> c.goal().startsWith(goal)
                && c.subject().equals("CircuitBreakerMixedOutcomesBenchmark.leveeCountBased")).findFirst().orElseThrow();
        assertThat(noisy.ratio()).isLessThan(0.6);
        assertThat(noisy.verdict()).isEqualTo(Verdict.WITHIN_NOISE);
        assertThat(noisy.note()).contains("straddles 0.60×");
        assertThat(checks.stream().filter(c -> c.goal().startsWith(goal)
                && c.subject().equals("CircuitBreakerOpenBenchmark.leveeCountBased")).findFirst().orElseThrow()
                .verdict()).isEqualTo(Verdict.NOT_MET);
        TargetCheck noInterval = check(checks, "semaphore permit protocol ≤ 1.0× resilience4j");
        assertThat(noInterval.verdict()).isEqualTo(Verdict.WITHIN_NOISE);
        assertThat(noInterval.note()).contains("no confidence interval");
        assertThat(Format.ratio(clear.ratio(), clear.low(), clear.high())).isEqualTo("0.30× [0.27–0.33]");
    }

    @Test
    void extrasAreShownButNeverCheckedNorUsedAsDivisors(@TempDir Path dir) throws IOException {
        write(dir, "t1.json",
                result("BulkheadBenchmark.leveeTryAcquireReleaseGivenReadingExtra", 1, 1.0, "0.1", 0.0),
                result("BulkheadBenchmark.leveeTryAcquireRelease", 1, 9.0, "0.1", 0.0),
                result("BulkheadBenchmark.resilience4jTryAcquireReleaseExtra", 1, 1.0, "0.1", 0.0),
                result("BulkheadBenchmark.resilience4jTryAcquireRelease", 1, 10.0, "0.1", 0.05));
        ResultTable table = table(dir);
        List<TargetCheck> checks = Targets.check(table).stream()
                .filter(c -> c.goal().equals("semaphore permit protocol ≤ 1.0× resilience4j")).toList();
        assertThat(checks).singleElement().satisfies(c -> {
            assertThat(c.subject()).isEqualTo("BulkheadBenchmark.leveeTryAcquireRelease");
            assertThat(c.comparedWith()).startsWith("resilience4jTryAcquireRelease ");
            assertThat(c.verdict()).isEqualTo(Verdict.MET);
        });
        String md = new MarkdownReport(table, null, new RunContext("full", "benchmarks/run", "d", "c")).render();
        assertThat(md).contains("| 1 | **leveeTryAcquireReleaseGivenReadingExtra** | Levee (extra) |")
                .contains("| 1 | resilience4jTryAcquireRelease | resilience4j | 10.0 | ± 0.1 | 0.05 |");
    }

    @Test
    void theCallerThreadTimeoutIsCheckedAgainstFailsafeAndItsByteBound(@TempDir Path dir) throws IOException {
        write(dir, "t1.json",
                result("CallerThreadTimeoutBenchmark.leveeInterrupt", 1, 40.0, "1", 96.0),
                result("CallerThreadTimeoutBenchmark.failsafeTimeout", 1, 400.0, "10", 500.0),
                result("RetryBudgetBenchmark.leveeRetrySharedBudget", 1, 20.0, "1", 0.0),
                result("RetryBudgetBenchmark.resilience4jRetry", 1, 18.0, "1", 48.0));
        List<TargetCheck> checks = Targets.check(table(dir));
        assertThat(check(checks, "caller-thread timeout ≤ 0.5×").verdict()).isEqualTo(Verdict.MET);
        TargetCheck bytes = check(checks, "caller-thread timeout ≤ 100 B/op");
        assertThat(bytes.verdict()).isEqualTo(Verdict.MET);
        assertThat(bytes.note()).isEqualTo("96.00 B/op");
        // 20 ± 1 over 18 ± 1: [1.00, 1.24], within 1.5.
        assertThat(check(checks, "with a shared budget ≤ 1.5×").verdict()).isEqualTo(Verdict.MET);
    }

    @Test
    void bytesPerOperationAlwaysHaveTwoDecimals() {
        assertThat(Format.bytes(0.0001)).isEqualTo("0.00");
        assertThat(Format.bytes(0.05)).isEqualTo("0.05"); // one 16-byte object every 320 calls
        assertThat(Format.bytes(24.0)).isEqualTo("24.00");
        assertThat(Format.bytes(Double.NaN)).isEqualTo("n/a");
        assertThat(Format.bytes(0.012)).isEqualTo("0.01"); // one 16-byte object every 1,300 calls
        assertThat(new Measurement("X", "leveeA", 1, 1.0, 0.1, "ns/op", 0.012).allocatesNothing()).isFalse();
        assertThat(new Measurement("X", "leveeA", 1, 1.0, 0.1, "ns/op", 0.002).allocatesNothing()).isTrue();
    }

    @Test
    void spliceKeepsTheHandWrittenTextAndReplacesOnlyTheGeneratedSection() {
        String page = "# Benchmarks\n\npreamble\n\n" + ReportGenerator.BEGIN + "\nold\n" + ReportGenerator.END + "\nfooter\n";
        String spliced = ReportGenerator.splice(page, "new\n");
        assertThat(spliced).startsWith("# Benchmarks\n\npreamble\n\n" + ReportGenerator.BEGIN)
                .contains("new\n" + ReportGenerator.END)
                .doesNotContain("old")
                .endsWith("footer\n");
        assertThat(ReportGenerator.splice(spliced, "new\n")).isEqualTo(spliced);
        assertThat(ReportGenerator.splice("hand only\n", "gen\n")).startsWith("hand only\n\n" + ReportGenerator.BEGIN);
    }

    @Test
    void reportRendersEveryClassWithBytesAndRatios(@TempDir Path dir) throws IOException {
        write(dir, "t1.json",
                result("FloorBenchmark.nanoTimeAndCas", 1, 20.0, "0.5", 0.0001),
                result("PipelineOverheadBenchmark.leveeTwoNoOpGates", 1, 40.0, "0.5", 0.0001),
                result("PipelineOverheadBenchmark.baselineDirectCall", 1, 0.5, "0.1", 0.0));
        ResultsReader reader = ResultsReader.read(dir);
        String md = new MarkdownReport(new ResultTable(reader.measurements()), reader.settings(),
                new RunContext("quick", "benchmarks/run --quick", "2025-01-01 00:00 UTC", "test cpu")).render();
        assertThat(md).contains("smoke figures, not the published table")
                .contains("| JDK | 17.0.15 (OpenJDK 64-Bit Server VM 17.0.15+6) |")
                .contains("forks 1; warm-up 1 × 1 s; measurement 2 × 1 s; threads 1; profilers: gc")
                .contains("| 1 | **leveeTwoNoOpGates** | Levee | 40.0 | ± 0.5 | 0.00 | – | 2.00× |")
                .contains("| 1 | baselineDirectCall | reference | 0.5 | ± 0.1 | 0.00 |  | 0.03× |");
    }

    @Test
    void failedBenchmarksAreNamedWithTheirErrorFromTheJmhLog(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("t2.log"), String.join("\n",
                "# Threads: 2 threads, will synchronize iterations",
                "# Benchmark: dev.levee.benchmarks.XBenchmark.leveeOk",
                "# Warmup Iteration   1: 10.0 ns/op",
                "# Threads: 2 threads, will synchronize iterations",
                "# Benchmark: dev.levee.benchmarks.XBenchmark.leveeBroken",
                "# Warmup Iteration   1: <failure>",
                "",
                "java.lang.IllegalStateException: bad setup",
                "\tat dev.levee.benchmarks.XBenchmark.setUp(XBenchmark.java:1)",
                ""));
        assertThat(FailedBenchmarks.in(dir))
                .containsExactly(Map.entry("XBenchmark.leveeBroken @2t", "java.lang.IllegalStateException: bad setup"));
    }

    private static Measurement find(ResultTable table, String method) {
        return table.all().stream().filter(m -> m.method().equals(method)).findFirst().orElseThrow();
    }

    private static TargetCheck check(List<TargetCheck> checks, String goal) {
        return checks.stream().filter(c -> c.goal().startsWith(goal)).findFirst().orElseThrow();
    }

    private static Verdict verdict(List<TargetCheck> checks, String goal, String method) {
        return checks.stream()
                .filter(c -> c.goal().startsWith(goal) && c.subject().endsWith("." + method))
                .findFirst().orElseThrow().verdict();
    }
}
