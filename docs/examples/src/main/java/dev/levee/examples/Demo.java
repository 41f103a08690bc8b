package dev.levee.examples;

import java.io.PrintStream;

/**
 * The README's run command: sends a flaky simulated call through Levee's policies and prints what
 * happened to each call, then shows each pattern on its own.
 */
public final class Demo {
    private Demo() {}

    /**
     * Runs the demo.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        run(System.out);
    }

    /**
     * Runs every section of the demo.
     *
     * @param out where to print
     */
    public static void run(PrintStream out) {
        section(out, "A flaky dependency behind retry, circuit breaker, rate limiter, bulkhead and timeout");
        PipelineDemo.run(out);
        section(out, "Circuit breaker");
        CircuitBreakerDemo.run(out);
        section(out, "Retry, retry budgets and hedging");
        RetryDemo.run(out);
        section(out, "Rate limiters");
        RateLimiterDemo.run(out);
        section(out, "Bulkheads");
        BulkheadDemo.run(out);
        section(out, "Calls across replicas: P2C with Peak-EWMA, ejection, panic");
        ReplicasDemo.run(out);
        section(out, "Health checks, the health endpoint and a watchdog");
        HealthDemo.run(out);
        section(out, "Timeouts and deadline propagation");
        TimeoutDemo.run(out);
        section(out, "Load shedding: adaptive concurrency limits and client-side throttling");
        ConcurrencyLimitDemo.run(out);
        section(out, "Load shedding: CoDel, priorities, the composite shedder, load-signal headers");
        SheddingDemo.run(out);
        section(out, "Graceful degradation: fallback chains, coalescing, feature toggles");
        DegradeDemo.run(out);
        section(out, "Chaos: fault injection into a pipeline");
        ChaosDemo.run(out);
        section(out, "Idempotency: a retried charge is replayed, not charged twice");
        IdempotencyDemo.run(out);
        section(out, "Core: pipelines, the permit protocol, deadlines");
        CoreExamples.run(out);
    }

    static void section(PrintStream out, String title) {
        out.println();
        out.println("=== " + title + " ===");
    }
}
