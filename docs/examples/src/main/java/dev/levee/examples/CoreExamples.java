package dev.levee.examples;

import dev.levee.core.BulkheadFullException;
import dev.levee.core.Chain;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.Classifier;
import dev.levee.core.ContextScope;
import dev.levee.core.ContextSnapshot;
import dev.levee.core.Deadline;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.Gate;
import dev.levee.core.KeyedRegistry;
import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.core.Policy;
import dev.levee.core.RejectedException;
import dev.levee.core.Ticker;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The code examples of {@code docs/core.md}, compiled by the build so the page cannot drift from the
 * API. Each method is one example; {@link #run(PrintStream)} runs them all.
 */
public final class CoreExamples {
    private CoreExamples() {}

    /** A gate written against the permit protocol: at most {@code max} calls in flight. */
    static final class InFlightLimit implements Gate {
        private final String name;
        private final int max;
        private final AtomicInteger inFlight = new AtomicInteger();

        InFlightLimit(String name, int max) {
            this.name = name;
            this.max = max;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public Ticker ticker() {
            return Ticker.system();
        }

        @Override
        public boolean tryAcquire(long nowNanos) {
            int current;
            do {
                current = inFlight.get();
                if (current >= max) {
                    return false;
                }
            } while (!inFlight.compareAndSet(current, current + 1));
            return true;
        }

        @Override
        public RejectedException rejection(long nowNanos) {
            return new BulkheadFullException(name, name + ": " + max + " calls in flight", 0);
        }

        @Override
        public void onSuccess(long latencyNanos) {
            inFlight.decrementAndGet();
        }

        @Override
        public void onFailure(long latencyNanos, Throwable error) {
            inFlight.decrementAndGet();
        }

        @Override
        public void onIgnored() {
            inFlight.decrementAndGet();
        }
    }

    /** A wrapper policy: logs each call around the rest of the chain. */
    static final class Logging implements Policy {
        private final PrintStream out;

        Logging(PrintStream out) {
            this.out = out;
        }

        @Override
        public String name() {
            return "logging";
        }

        @Override
        public <T, E extends Throwable> T execute(Chain next, CheckedSupplier<T, E> call) throws E {
            out.println("  -> call");
            try {
                T result = next.proceed(call);
                out.println("  <- " + result);
                return result;
            } catch (Throwable t) {
                out.println("  <- threw " + t);
                throw t;
            }
        }

        @Override
        public <T> CompletionStage<T> executeAsync(Chain next, Supplier<? extends CompletionStage<T>> call) {
            out.println("  -> async call");
            return next.proceedAsync(call);
        }
    }

    /** The dependency of the "Policies" examples. */
    interface Inventory {
        int count(String sku) throws java.io.IOException;

        void audit(String sku);

        CompletionStage<Integer> countAsync(String sku);
    }

    /** The forms of running a call under a policy ({@code docs/core.md}, "Policies"). */
    static int policyForms(Policy policy, Inventory inventory, String sku, Supplier<Integer> counter)
            throws java.io.IOException {
        int items = policy.execute(() -> inventory.count(sku));         // throws what count() throws
        policy.run(() -> inventory.audit(sku));                         // no result
        CompletionStage<Integer> later = policy.executeAsync(() -> inventory.countAsync(sku));
        Supplier<Integer> decorated = policy.decorate(counter);         // same type back
        return items + later.toCompletableFuture().join() + decorated.get();
    }

    /** Composing policies: the first is the outermost. */
    static String pipeline(PrintStream out) {
        Policy logging = new Logging(out);
        Gate limit = new InFlightLimit("inventory", 10);
        Pipeline pipeline = Pipeline.of(logging, limit);
        return pipeline.execute(() -> "42 items");
    }

    /**
     * The permit protocol without lambdas, as a framework integration would use it. {@code readStart} and
     * {@code latencySince} read the clock only if the gate needs it ({@code gate.timeNeed()}).
     */
    static String permitProtocol(Gate gate) {
        long start = gate.readStart();
        if (!gate.tryAcquire(start)) {
            throw gate.rejection(start);
        }
        try {
            String response = "response";
            gate.onSuccess(gate.latencySince(start));
            return response;
        } catch (RuntimeException e) {
            gate.onFailure(gate.latencySince(start), e);
            throw e;
        }
    }

    /** A deadline for a whole request, shortened for a callee, carried to another thread. */
    @SuppressWarnings("try") // the scope is held only for its close()
    static void deadlines(Executor pool, PrintStream out) {
        try (ContextScope request = Deadline.after(Duration.ofSeconds(2)).attach()) {
            Deadline forCallee = Deadline.currentOrNull().reserve(Duration.ofMillis(200));
            out.println("  callee gets " + forCallee.remaining().toMillis() + " ms (about 1800)");

            Executor propagating = ContextSnapshot.propagating(pool);
            CompletableFuture.runAsync(
                            () -> out.println("  worker sees a deadline: " + Deadline.current().isPresent()),
                            propagating)
                    .join();
        }
    }

    /** One classification vocabulary for breakers, retries and fallbacks. */
    static Classifier classifier() {
        return Classifier.builder()
                .failOn(DeadlineExceededException.class)
                .ignore(RejectedException.class, IllegalArgumentException.class)
                .failOnResult(result -> result instanceof Integer && (Integer) result >= 500)
                .build();
    }

    /** A bounded per-tenant registry: an attacker minting tenant ids cannot exhaust memory. */
    static KeyedRegistry<String, Gate> perTenantLimits(Ticker ticker) {
        return KeyedRegistry.builder("tenant-limits")
                .maxEntries(10_000)
                .idleTimeout(Duration.ofMinutes(10))
                .ticker(ticker)
                .build(tenant -> new InFlightLimit("tenant-" + tenant, 5));
    }

    /**
     * Runs every example.
     *
     * @param out where to print
     */
    public static void run(PrintStream out) {
        out.println("pipeline result: " + pipeline(out));
        Inventory inventory = new Inventory() {
            @Override
            public int count(String sku) {
                return 1;
            }

            @Override
            public void audit(String sku) {}

            @Override
            public CompletionStage<Integer> countAsync(String sku) {
                return CompletableFuture.completedFuture(2);
            }
        };
        try {
            out.println("policy forms: " + policyForms(new Logging(out), inventory, "sku-42", () -> 3));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        out.println("permit protocol: " + permitProtocol(new InFlightLimit("direct", 1)));
        Executor sameThreadPool = Runnable::run;
        deadlines(sameThreadPool, out);
        out.println("classifier says 503 is a " + classifier().classifyResult(503));
        KeyedRegistry<String, Gate> tenants = perTenantLimits(new ManualTicker());
        Gate tenantA = tenants.get("a");
        out.println("tenant a twice is one gate: " + (tenantA == tenants.get("a")));
    }
}
