package dev.levee.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Policies composed in a fixed order; a pipeline is itself a {@link Policy}.
 *
 * <p>{@code Pipeline.of(fallback, retry, breaker, limiter, bulkhead, timeout)} runs a call as
 * {@code fallback(retry(breaker(limiter(bulkhead(timeout(call))))))}: the first policy is the
 * outermost. Any order is allowed and means what it says; {@code docs/core.md} explains the
 * recommended order and what the others mean.
 *
 * <p><b>Cost.</b> Building the pipeline builds one chain link per stage; a call walks the links
 * with the user's call as an argument, so no lambda is built per call. Consecutive {@link Gate}s that
 * share a {@link Ticker} are fused into one stage: the clock is read at most once before the call (only if
 * some gate of the run needs a start reading, {@link Gate#timeNeed()}) and at most once after (only if
 * some gate needs the latency), both readings are shared by every gate of the run, and when a later gate
 * of the run refuses,
 * the gates already passed are released with {@link Gate#onIgnored()} (a bulkhead slot is returned,
 * a half-open probe is given back). A nested pipeline is flattened into its parent.
 *
 * <p>Thread-safe and immutable.
 */
public final class Pipeline implements Policy {
    private final String name;
    private final List<Policy> policies;
    /** The fused stages, outermost first. */
    private final Policy[] stages;
    /** {@code links[i]} runs {@code stages[i]} with {@code links[i + 1]} as its continuation. */
    private final Link head;

    private Pipeline(List<Policy> policies) {
        this.policies = Collections.unmodifiableList(policies);
        StringJoiner joiner = new StringJoiner(",", "pipeline(", ")");
        policies.forEach(p -> joiner.add(p.name()));
        this.name = joiner.toString();
        this.stages = fuse(policies);
        this.head = link(stages, Chain.direct());
    }

    /**
     * Composes policies, outermost first.
     *
     * @param policies the policies; at least one; nested pipelines are flattened
     * @return the pipeline
     * @throws IllegalArgumentException if no policy is given
     * @throws NullPointerException if a policy is null
     */
    public static Pipeline of(Policy... policies) {
        Objects.requireNonNull(policies, "policies");
        return of(Arrays.asList(policies));
    }

    /**
     * Composes policies, outermost first.
     *
     * @param policies the policies; at least one; nested pipelines are flattened
     * @return the pipeline
     * @throws IllegalArgumentException if no policy is given
     * @throws NullPointerException if a policy is null
     */
    public static Pipeline of(List<? extends Policy> policies) {
        Objects.requireNonNull(policies, "policies");
        if (policies.isEmpty()) {
            throw new IllegalArgumentException("Pipeline: policies must hold at least 1 policy but held 0");
        }
        List<Policy> flat = new ArrayList<>();
        for (int i = 0; i < policies.size(); i++) {
            Policy p = policies.get(i);
            if (p == null) {
                throw new NullPointerException("Pipeline: policies[" + i + "] must not be null");
            }
            if (p instanceof Pipeline) {
                flat.addAll(((Pipeline) p).policies);
            } else {
                flat.add(p);
            }
        }
        return new Pipeline(flat);
    }

    /**
     * The policies of this pipeline, outermost first, nested pipelines flattened.
     *
     * @return an unmodifiable list
     */
    public List<Policy> policies() {
        return policies;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public <T, E extends Throwable> T execute(Chain next, CheckedSupplier<T, E> call) throws E {
        Link first = next == Chain.direct() ? head : link(stages, next);
        return first.proceed(call);
    }

    @Override
    public <T> CompletionStage<T> executeAsync(Chain next, Supplier<? extends CompletionStage<T>> call) {
        Link first = next == Chain.direct() ? head : link(stages, next);
        return first.proceedAsync(call);
    }

    @Override
    public String toString() {
        return name;
    }

    @SuppressWarnings("NullAway") // stages is never empty, so the loop assigns link at least once
    private static Link link(Policy[] stages, Chain end) {
        Chain next = end;
        Link link = null;
        for (int i = stages.length - 1; i >= 0; i--) {
            link = new Link(stages[i], next);
            next = link;
        }
        return link;
    }

    /** Groups each run of consecutive gates that share a ticker instance into one {@link GateRun}. */
    private static Policy[] fuse(List<Policy> policies) {
        List<Policy> stages = new ArrayList<>();
        List<Gate> run = new ArrayList<>();
        for (Policy p : policies) {
            if (p instanceof Gate && (run.isEmpty() || run.get(0).ticker() == ((Gate) p).ticker())) {
                run.add((Gate) p);
                continue;
            }
            flush(run, stages);
            if (p instanceof Gate) {
                run.add((Gate) p);
            } else {
                stages.add(p);
            }
        }
        flush(run, stages);
        return stages.toArray(new Policy[0]);
    }

    private static void flush(List<Gate> run, List<Policy> stages) {
        if (run.size() == 1) {
            stages.add(run.get(0));
        } else if (run.size() > 1) {
            stages.add(new GateRun(run.toArray(new Gate[0])));
        }
        run.clear();
    }

    /** One stage and its continuation; built once per pipeline. */
    private static final class Link implements Chain {
        private final Policy stage;
        private final Chain next;

        Link(Policy stage, Chain next) {
            this.stage = stage;
            this.next = next;
        }

        @Override
        public <T, E extends Throwable> T proceed(CheckedSupplier<T, E> call) throws E {
            return stage.execute(next, call);
        }

        @Override
        public <T> CompletionStage<T> proceedAsync(Supplier<? extends CompletionStage<T>> call) {
            return stage.executeAsync(next, call);
        }
    }

    /**
     * Consecutive gates sharing one ticker, run with at most two clock readings per call (none if no gate
     * of the run needs time now). Runs of two and three
     * gates (the common pipelines) use unrolled forms whose call sites the JIT can inline; longer runs
     * loop over the array.
     */
    private static final class GateRun implements Policy {
        private final Gate[] gates;
        private final Gate first;
        private final Gate second;
        private final @Nullable Gate third;
        private final Ticker ticker;
        private final String name;

        GateRun(Gate[] gates) {
            this.gates = gates;
            this.first = gates[0];
            this.second = gates[1];
            this.third = gates.length == 3 ? gates[2] : null;
            this.ticker = gates[0].ticker();
            StringJoiner joiner = new StringJoiner(",", "gates(", ")");
            for (Gate g : gates) {
                joiner.add(g.name());
            }
            this.name = joiner.toString();
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        @SuppressWarnings("NullAway") // third is set whenever gates.length == 3
        public <T, E extends Throwable> T execute(Chain next, CheckedSupplier<T, E> call) throws E {
            switch (gates.length) {
                case 2:
                    return GateRunner.execute(first, second, ticker, next, call);
                case 3:
                    return GateRunner.execute(first, second, third, ticker, next, call);
                default:
                    return GateRunner.execute(gates, ticker, next, call);
            }
        }

        @Override
        public <T> CompletionStage<T> executeAsync(Chain next, Supplier<? extends CompletionStage<T>> call) {
            return GateRunner.executeAsync(gates, ticker, next, call);
        }
    }
}
