package dev.levee.benchmarks.report;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The per-issue speed and allocation targets, as the issues state them, and their check against a run.
 * Every target is checked on Levee rows on the user's path only (labelled extras are skipped, see
 * {@link Measurement#extra()}), and met only when the ratio's confidence interval clears it (see
 * {@link Target}).
 *
 * <ul>
 *   <li><b>Circuit breaker</b> (classes {@code CircuitBreaker*Benchmark}): count-window permit protocol
 *       (methods {@code *countBased*}) ≤ 0.6× resilience4j's and time window ≤ 0.5× at 1 thread; faster
 *       than Failsafe at 1 thread; no slower than resilience4j at 2 threads. Issue 13: the count-window
 *       permit protocol without a slow-call rule ≤ 0.5× Failsafe's (the general path, with failures:
 *       {@code CircuitBreakerMixedOutcomesBenchmark}); {@code execute} ≤ 0.6× resilience4j's
 *       {@code decorateSupplier} for the count window and ≤ 0.5× for the time window.</li>
 *   <li><b>Rate limiter</b> ({@code RateLimiter*Benchmark}): GCRA and token bucket ≤ 1.25× the floor
 *       and ≤ 0.75× the fastest peer at 1 thread; the fastest (≤ 1.0× the fastest peer) at 2
 *       threads.</li>
 *   <li><b>Retry</b> ({@code Retry*Benchmark}): ≤ 0.5× resilience4j at 1 thread; issue 13: with a shared
 *       budget ≤ 1.5× resilience4j's retry without one.</li>
 *   <li><b>Bulkhead</b> ({@code Bulkhead*Benchmark}), issue 13: the semaphore bulkhead's permit protocol
 *       ≤ 1.0× resilience4j at 1 and 2 threads; {@code execute} ≤ 0.6× resilience4j.</li>
 *   <li><b>Pipeline</b> ({@code PipelineOfFourBenchmark}), issue 13: ≤ 0.5× resilience4j with the system
 *       ticker and ≤ 0.25× with the coarse ticker, at 1 thread.</li>
 *   <li><b>Timeout</b> ({@code CallerThreadTimeoutBenchmark}), issue 13: the caller-thread timeout
 *       ({@code TimeoutMode.INTERRUPT}) ≤ 0.5× Failsafe's synchronous timeout at 1 thread, and at most
 *       100 B/op.</li>
 *   <li><b>Allocation</b>: every Levee method 0 B/op (below 0.01 B/op), in every class, at every thread
 *       count.</li>
 * </ul>
 */
final class Targets {
    private static final String BREAKER = "circuit breaker";
    private static final String LIMITER = "rate limiter";
    private static final String RETRY = "retry";
    private static final String BULKHEAD = "bulkhead (#13)";
    private static final String PIPELINE = "pipeline (#13)";
    private static final String ALLOCATION = "allocation (#8)";

    private static final Pattern BREAKERS = Pattern.compile("CircuitBreaker.*Benchmark");
    private static final Pattern MIXED_BREAKERS = Pattern.compile("CircuitBreakerMixedOutcomesBenchmark");
    private static final Pattern LIMITERS = Pattern.compile("RateLimiter.*Benchmark");
    private static final Pattern RETRIES = Pattern.compile("Retry.*Benchmark");
    private static final Pattern RETRY_CLASS = Pattern.compile("RetryBenchmark");
    private static final Pattern CALLER_THREAD_TIMEOUTS = Pattern.compile("CallerThreadTimeoutBenchmark");
    private static final Pattern BULKHEADS = Pattern.compile("Bulkhead.*Benchmark");
    private static final Pattern PIPELINES = Pattern.compile("PipelineOfFourBenchmark");

    /** The speed targets, in the order the report lists them. */
    static final List<Target> SPEED = List.of(
            peer(BREAKER, "count window ≤ 0.6× resilience4j count window", BREAKERS, "countBased",
                    Library.RESILIENCE4J, "countBased", 1, 0.6, false),
            peer(BREAKER, "time window ≤ 0.5× resilience4j time window", BREAKERS, "timeBased",
                    Library.RESILIENCE4J, "timeBased", 1, 0.5, false),
            peer(BREAKER, "faster than Failsafe (permit protocol)", BREAKERS, "countBased|timeBased|tryAcquire|rejection",
                    Library.FAILSAFE, "", 1, 1.0, true),
            peer(BREAKER, "count window no slower than resilience4j count window at 2 threads", BREAKERS,
                    "countBased", Library.RESILIENCE4J, "countBased", 2, 1.0, false),
            peer(BREAKER, "time window no slower than resilience4j time window at 2 threads", BREAKERS,
                    "timeBased", Library.RESILIENCE4J, "timeBased", 2, 1.0, false),
            peer(BREAKER + " (#13)", "count-window permit protocol, no slow-call rule, ≤ 0.5× Failsafe",
                    MIXED_BREAKERS, "countBasedNoSlowCallRule", Library.FAILSAFE, "", 1, 0.5, false),
            peer(BREAKER + " (#13)", "count-window execute ≤ 0.6× resilience4j decorateSupplier", BREAKERS,
                    "countExecute", Library.RESILIENCE4J, "countExecute", 1, 0.6, false),
            peer(BREAKER + " (#13)", "time-window execute ≤ 0.5× resilience4j decorateSupplier", BREAKERS,
                    "timeExecute", Library.RESILIENCE4J, "timeExecute", 1, 0.5, false),
            floor(LIMITER, "GCRA ≤ 1.25× floor", LIMITERS, "gcra", 1, 1.25),
            fastest(LIMITER, "GCRA ≤ 0.75× fastest peer", LIMITERS, "gcra", 1, 0.75),
            fastest(LIMITER, "GCRA fastest at 2 threads", LIMITERS, "gcra", 2, 1.0),
            floor(LIMITER, "token bucket ≤ 1.25× floor", LIMITERS, "token", 1, 1.25),
            fastest(LIMITER, "token bucket ≤ 0.75× fastest peer", LIMITERS, "token", 1, 0.75),
            fastest(LIMITER, "token bucket fastest at 2 threads", LIMITERS, "token", 2, 1.0),
            peer(RETRY, "≤ 0.5× resilience4j", RETRY_CLASS, "", Library.RESILIENCE4J, "", 1, 0.5, false),
            peer(RETRY + " (#13)", "with a shared budget ≤ 1.5× resilience4j without one", RETRIES,
                    "sharedBudget|withBudget", Library.RESILIENCE4J, "", 1, 1.5, false),
            peer("timeout (#13)", "caller-thread timeout ≤ 0.5× Failsafe's synchronous timeout", CALLER_THREAD_TIMEOUTS,
                    "interrupt", Library.FAILSAFE, "", 1, 0.5, false),
            peer(BULKHEAD, "semaphore permit protocol ≤ 1.0× resilience4j", BULKHEADS, "tryAcquire",
                    Library.RESILIENCE4J, "tryAcquire", 1, 1.0, false),
            peer(BULKHEAD, "semaphore permit protocol ≤ 1.0× resilience4j at 2 threads", BULKHEADS, "tryAcquire",
                    Library.RESILIENCE4J, "tryAcquire", 2, 1.0, false),
            peer(BULKHEAD, "semaphore execute ≤ 0.6× resilience4j", BULKHEADS, "execute",
                    Library.RESILIENCE4J, "execute", 1, 0.6, false),
            peer(PIPELINE, "pipeline of four ≤ 0.5× resilience4j (system ticker)", PIPELINES, "leveePipelineOfFour",
                    Library.RESILIENCE4J, "", 1, 0.5, false),
            peer(PIPELINE, "pipeline of four ≤ 0.25× resilience4j (coarse ticker)", PIPELINES, "coarse",
                    Library.RESILIENCE4J, "", 1, 0.25, false));

    private Targets() {}

    /**
     * Checks every target against a run: the speed targets, then the allocation target per class.
     *
     * @param table the run
     * @return the checks, in report order
     */
    static List<TargetCheck> check(ResultTable table) {
        List<TargetCheck> checks = new ArrayList<>();
        for (Target t : SPEED) {
            checks.addAll(t.check(table));
        }
        checks.addAll(bytesAtMost(table, "timeout (#13)", "caller-thread timeout ≤ 100 B/op", CALLER_THREAD_TIMEOUTS,
                "interrupt", 100.0));
        checks.addAll(zeroAllocation(table));
        return checks;
    }

    /** One check per matching Levee row and thread count: met when its B/op is at most {@code bound}. */
    private static List<TargetCheck> bytesAtMost(ResultTable table, String issue, String goal, Pattern classes,
            String keyword, double bound) {
        List<TargetCheck> checks = new ArrayList<>();
        for (Measurement m : table.where(m -> classes.matcher(m.className()).matches() && m.library() == Library.LEVEE
                && !m.extra() && m.method().toLowerCase(java.util.Locale.ROOT).contains(keyword))) {
            Verdict verdict = Double.isNaN(m.bytesPerOp()) ? Verdict.NOT_MEASURED
                    : m.bytesPerOp() <= bound ? Verdict.MET : Verdict.NOT_MET;
            checks.add(new TargetCheck(issue, goal, m.threads(), m.className() + "." + m.method(), "", Double.NaN,
                    Double.NaN, Double.NaN, verdict, Format.bytes(m.bytesPerOp()) + " B/op"));
        }
        if (checks.isEmpty()) {
            checks.add(new TargetCheck(issue, goal, 1, classes.pattern(), "", Double.NaN, Double.NaN, Double.NaN,
                    Verdict.NOT_MEASURED, "no levee* method containing '" + keyword + "' in a class matching "
                    + classes.pattern()));
        }
        return checks;
    }

    /** One check per class holding Levee methods: met when every Levee row is 0 B/op. */
    private static List<TargetCheck> zeroAllocation(ResultTable table) {
        List<TargetCheck> checks = new ArrayList<>();
        for (String cls : table.classes()) {
            List<Measurement> levee = table.where(m -> m.className().equals(cls) && m.library() == Library.LEVEE);
            if (levee.isEmpty()) {
                continue;
            }
            String goal = "every Levee method 0 B/op";
            if (levee.stream().anyMatch(m -> Double.isNaN(m.bytesPerOp()))) {
                checks.add(new TargetCheck(ALLOCATION, goal, 0, cls, "", Double.NaN, Double.NaN, Double.NaN,
                        Verdict.NOT_MEASURED,
                        "run without -prof gc"));
                continue;
            }
            String offenders = levee.stream()
                    .filter(m -> !m.allocatesNothing())
                    .map(m -> m.method() + " @" + m.threads() + "t: " + Format.bytes(m.bytesPerOp()) + " B/op"
                            + (m.extra() ? " (extra)" : ""))
                    .collect(Collectors.joining("; "));
            checks.add(new TargetCheck(ALLOCATION, goal, 0, cls, "", Double.NaN, Double.NaN, Double.NaN,
                    offenders.isEmpty() ? Verdict.MET : Verdict.NOT_MET, offenders));
        }
        if (checks.isEmpty()) {
            checks.add(new TargetCheck(ALLOCATION, "every Levee method 0 B/op", 0, "(any class)", "", Double.NaN,
                    Double.NaN, Double.NaN,
                    Verdict.NOT_MEASURED, "no levee* method in the run"));
        }
        return checks;
    }

    private static Target peer(String issue, String goal, Pattern classes, String leveeKeyword, Library peer,
            String peerKeyword, int threads, double bound, boolean strict) {
        return new Target(issue, goal, classes, leveeKeyword, Target.Against.PEER, peer, peerKeyword, threads, bound,
                strict);
    }

    private static Target fastest(String issue, String goal, Pattern classes, String leveeKeyword, int threads,
            double bound) {
        return new Target(issue, goal, classes, leveeKeyword, Target.Against.FASTEST_PEER, null, "", threads, bound,
                false);
    }

    private static Target floor(String issue, String goal, Pattern classes, String leveeKeyword, int threads,
            double bound) {
        return new Target(issue, goal, classes, leveeKeyword, Target.Against.FLOOR, null, "", threads, bound, false);
    }
}
