package dev.levee.examples;

import dev.levee.bulkhead.Bulkhead;
import dev.levee.bulkhead.BulkheadConfig;
import dev.levee.bulkhead.BulkheadMetricsBinder;
import dev.levee.bulkhead.KeyedBulkhead;
import dev.levee.bulkhead.KeyedBulkheadConfig;
import dev.levee.bulkhead.ShuffleShardedBulkhead;
import dev.levee.bulkhead.ShuffleSharding;
import dev.levee.bulkhead.ThreadPoolBulkhead;
import dev.levee.bulkhead.ThreadPoolBulkheadConfig;
import dev.levee.core.BulkheadFullException;
import dev.levee.core.ContextPropagator;
import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.core.Policy;
import dev.levee.core.RandomSource;
import dev.levee.core.Ticker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Bulkheads in front of a simulated slow, flaky dependency, and every code example of
 * {@code docs/bulkhead.md}. Deterministic: manual time and seeded randomness, except the thread-pool
 * section, which uses real threads for a few milliseconds.
 */
public final class BulkheadDemo {
    private BulkheadDemo() {}

    /**
     * Runs the demo.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        run(System.out);
    }

    /**
     * Runs every section.
     *
     * @param out where to print
     */
    public static void run(PrintStream out) {
        semaphoreInFrontOfASlowDependency(out);
        perTenantIsolation(out);
        shuffleSharding(out);
        threadPoolWithContext(out);
    }

    /** One simulated call in flight: when it ends and how. */
    private static final class InFlight {
        final int id;
        final long endNanos;
        final boolean fails;

        InFlight(int id, long endNanos, boolean fails) {
            this.id = id;
            this.endNanos = endNanos;
            this.fails = fails;
        }
    }

    /**
     * A bulkhead of 3 in front of a dependency that slows down: calls arrive every 10 ms and take
     * 20-80 ms, a fifth of them fail. The bulkhead caps what the slow dependency can tie up.
     */
    static void semaphoreInFrontOfASlowDependency(PrintStream out) {
        out.println("-- semaphore bulkhead: 3 slots, calls every 10 ms, latency 20-80 ms, 20% failures");
        ManualTicker ticker = new ManualTicker();
        RandomSource random = RandomSource.seeded(7);
        Bulkhead bulkhead = Bulkhead.of("inventory", BulkheadConfig.builder()
                .maxConcurrentCalls(3)
                .ticker(ticker)
                .build());
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        new BulkheadMetricsBinder(bulkhead).bindTo(meters);
        List<InFlight> inFlight = new ArrayList<>();
        int succeeded = 0;
        int failed = 0;
        int rejected = 0;
        for (int id = 1; id <= 16; id++) {
            ticker.advance(Duration.ofMillis(10));
            long now = ticker.read();
            for (InFlight call : new ArrayList<>(inFlight)) {
                if (call.endNanos <= now) {
                    inFlight.remove(call);
                    if (call.fails) {
                        bulkhead.onFailure(0L, new IllegalStateException("dependency error"));
                        failed++;
                    } else {
                        bulkhead.onSuccess(0L);
                        succeeded++;
                    }
                }
            }
            long latencyMs = 20 + random.nextLong(61);
            boolean fails = random.nextDouble() < 0.2;
            if (bulkhead.tryAcquire(now)) {
                inFlight.add(new InFlight(id, now + Duration.ofMillis(latencyMs).toNanos(), fails));
                out.printf("  t=%3d ms call %2d admitted (%d/3 in flight), will %s after %d ms%n",
                        now / 1_000_000, id, bulkhead.activeCount(), fails ? "fail" : "succeed", latencyMs);
            } else {
                rejected++;
                out.printf("  t=%3d ms call %2d rejected at once: %s%n", now / 1_000_000, id,
                        bulkhead.rejection(now).getMessage());
            }
        }
        out.printf("  summary: %d succeeded, %d failed, %d rejected fast, %d still in flight; "
                        + "levee.bulkhead.rejected=%.0f%n",
                succeeded, failed, rejected, inFlight.size(),
                meters.get("levee.bulkhead.rejected").functionCounter().count());
    }

    /** One bulkhead per tenant: a noisy tenant fills its own slots and the quiet one is still served. */
    static void perTenantIsolation(PrintStream out) {
        out.println("-- keyed bulkhead: 2 slots per tenant");
        KeyedBulkhead<String> tenants = perTenantBulkheads();
        Bulkhead noisy = tenants.forKey("noisy");
        int admitted = 0;
        for (int i = 0; i < 5; i++) {
            if (noisy.tryAcquire()) {
                admitted++;
            }
        }
        out.printf("  noisy tenant: %d of 5 concurrent calls admitted, %d rejected%n", admitted,
                noisy.rejectedCount());
        String quiet = tenants.execute("quiet", () -> "served");
        out.printf("  quiet tenant: %s while noisy is saturated (%d tenants tracked)%n", quiet, tenants.size());
        for (int i = 0; i < admitted; i++) {
            noisy.onSuccess(0L);
        }
    }

    /**
     * The keyed bulkhead of {@code docs/bulkhead.md}.
     *
     * @return a bulkhead per tenant, at most 10,000 tenants, idle ones evicted after 10 minutes
     */
    static KeyedBulkhead<String> perTenantBulkheads() {
        BulkheadConfig perTenant = BulkheadConfig.builder().maxConcurrentCalls(2).build();
        return KeyedBulkhead.of("tenants", KeyedBulkheadConfig.builder().perKey(perTenant)
                .maxEntries(10_000)
                .idleTimeout(Duration.ofMinutes(10))
                .build());
    }

    /** Eight partitions, two per tenant: a flooding tenant blocks only tenants with its exact pair. */
    static void shuffleSharding(PrintStream out) {
        out.println("-- shuffle sharding: 8 partitions of 1 slot, 2 per tenant");
        ShuffleShardedBulkhead sharded = shardedBulkhead();
        ShuffleSharding sharding = sharded.sharding();
        for (String tenant : List.of("acme", "globex", "initech", "umbrella")) {
            out.printf("  %-9s -> partitions %s%n", tenant, Arrays.toString(sharding.shard(tenant)));
        }
        Bulkhead first = sharded.tryAcquire("acme", 0L);
        Bulkhead second = sharded.tryAcquire("acme", 0L);
        int served = 0;
        int blocked = 0;
        for (int i = 0; i < 1_000; i++) {
            try {
                sharded.execute("tenant-" + i, () -> null);
                served++;
            } catch (BulkheadFullException e) {
                blocked++;
            }
        }
        out.printf("  acme holds both of its partitions; of 1000 other tenants %d served, %d blocked "
                + "(expected %.1f%%: 1/C(8,2))%n", served, blocked, 100 * sharding.fullOverlapProbability());
        first.onSuccess(0L);
        second.onSuccess(0L);
    }

    /**
     * The shuffle-sharded bulkhead of {@code docs/bulkhead.md}.
     *
     * @return 8 partitions of 1 slot, 2 per key
     */
    static ShuffleShardedBulkhead shardedBulkhead() {
        BulkheadConfig partition = BulkheadConfig.builder().maxConcurrentCalls(1).build();
        return ShuffleShardedBulkhead.of("search", partition, 8, 2, 42L);
    }

    private static final ThreadLocal<String> REQUEST_ID = new ThreadLocal<>();

    /** A user context propagator, as one would write for an MDC or a tracing span. */
    static final ContextPropagator<String> REQUEST_ID_PROPAGATOR = new ContextPropagator<>() {
        @Override
        public String capture() {
            return REQUEST_ID.get();
        }

        @Override
        public ContextScope restore(String captured) {
            String previous = REQUEST_ID.get();
            REQUEST_ID.set(captured);
            return () -> REQUEST_ID.set(previous);
        }
    };

    /** A thread-pool bulkhead: the call runs on the bulkhead's worker, with the caller's deadline and context. */
    @SuppressWarnings("try")
    static void threadPoolWithContext(PrintStream out) {
        out.println("-- thread-pool bulkhead: 2 workers, queue of 2, context carried to the worker");
        try (ThreadPoolBulkhead pool = reportPool()) {
            REQUEST_ID.set("req-42");
            try (ContextScope ignored = Deadline.after(Duration.ofSeconds(5)).attach()) {
                CompletableFuture<String> report = pool.submit(() -> "rendered on a worker for " + REQUEST_ID.get()
                        + ", deadline present: " + Deadline.current().isPresent());
                out.println("  " + report.join());
            } finally {
                REQUEST_ID.remove();
            }
            out.printf("  rejected so far: %d; closing lets accepted work finish%n", pool.rejectedCount());
        }
    }

    /**
     * The thread-pool bulkhead of {@code docs/bulkhead.md}.
     *
     * @return a pool of 2 workers and a queue of 2, propagating the request id
     */
    static ThreadPoolBulkhead reportPool() {
        return ThreadPoolBulkhead.of("reports", ThreadPoolBulkheadConfig.builder()
                .maxThreads(2)
                .queueCapacity(2)
                .closeGracePeriod(Duration.ofSeconds(5))
                .propagators(List.of(REQUEST_ID_PROPAGATOR))
                .build());
    }

    /**
     * The permit protocol without a lambda, as a framework filter would use it.
     *
     * @param bulkhead the bulkhead
     * @param ticker the bulkhead's ticker
     * @param handler the protected work
     * @return what the handler returned
     */
    static String guarded(Bulkhead bulkhead, Ticker ticker, Supplier<String> handler) {
        long start = ticker.read();
        if (!bulkhead.tryAcquire(start)) {
            throw bulkhead.rejection(start);
        }
        try {
            String response = handler.get();
            bulkhead.onSuccess(ticker.read() - start);
            return response;
        } catch (RuntimeException e) {
            bulkhead.onFailure(ticker.read() - start, e);
            throw e;
        }
    }

    /**
     * The recommended place of a bulkhead in a pipeline: inside the rate limiter and breaker, outside
     * the timeout, so a slot is held only while the call may really run.
     *
     * @param breaker the circuit breaker
     * @param limiter the rate limiter
     * @param timeout the timeout
     * @return the pipeline
     */
    static Pipeline pipelineWithBulkhead(Policy breaker, Policy limiter, Policy timeout) {
        Bulkhead bulkhead = Bulkhead.of("payments", BulkheadConfig.builder()
                .maxConcurrentCalls(20)
                .maxWait(Duration.ofMillis(50))
                .build());
        return Pipeline.of(breaker, limiter, bulkhead, timeout);
    }
}
