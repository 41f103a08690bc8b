package dev.levee.core;

import dev.levee.core.internal.Exceptions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.jspecify.annotations.Nullable;

/**
 * The permit protocol around a call, for one gate or a fused group of consecutive gates that share
 * a ticker. At most one clock reading before the call and one after, each taken only if some gate of
 * the run needs it ({@link Gate#timeNeed()}); a reading not taken is passed as {@link Gate#NO_READING}.
 * Nothing allocated on the synchronous path.
 *
 * <p><b>Every gate is completed.</b> A completion can throw — most often a user's classifier
 * predicate inside a breaker's {@code onFailure}. Each completion runs in its own try/catch, so the
 * other gates of the run are still completed (a fused bulkhead still gets its slot back, a breaker
 * still records its probe), and the caller gets the call's own outcome: its result, or exactly the
 * exception it threw with the completion's exception attached as suppressed. The completion's
 * exception is logged at WARN. Only an {@link Error} thrown by a completion replaces the outcome, as an
 * error is never swallowed (the call's failure is then suppressed on it). The retry module treats a
 * throwing callback the same way.
 */
final class GateRunner {
    private static final Logger LOG = LoggerFactory.getLogger(GateRunner.class);
    /** What {@link Gate#granted()} returns: complete, and a minimal stage so nobody can complete it again. */
    static final CompletionStage<Void> GRANTED = CompletableFuture.completedStage(null);

    private GateRunner() {}

    static <T, E extends Throwable> T execute(Gate gate, Chain next, CheckedSupplier<T, E> call) throws E {
        Ticker ticker = gate.ticker();
        TimeNeed need = gate.timeNeed();
        long start = need.readsStart() ? ticker.read() : Gate.NO_READING;
        gate.acquire(start);
        T result;
        try {
            result = next.proceed(call);
        } catch (Throwable t) {
            long end = end(gate, start, ticker);
            Throwable thrown = failure(gate, end, latency(start, end), t, null);
            if (thrown != null) {
                completionFailed(thrown, t);
            }
            throw t;
        }
        long end = end(gate, start, ticker);
        Throwable thrown = success(gate, end, latency(start, end), result, null);
        if (thrown != null) {
            completionFailed(thrown, null);
        }
        return result;
    }

    /*
     * The end reading. The gates are asked again when the call ends, because what a gate needs for its
     * completion depends on its state then: a breaker that admitted a half-open probe after it was asked
     * at the start (a reading taken for another gate) needs the probe's latency. Without a start reading
     * there is no latency to take, so no end reading either.
     */

    /** The end reading if the gate needs the latency now (and the start was read), else {@link Gate#NO_READING}. */
    private static long end(Gate gate, long start, Ticker ticker) {
        return start != Gate.NO_READING && gate.timeNeed().readsEnd() ? ticker.read() : Gate.NO_READING;
    }

    private static long end(Gate a, Gate b, long start, Ticker ticker) {
        return start != Gate.NO_READING && (a.timeNeed().readsEnd() || b.timeNeed().readsEnd())
                ? ticker.read() : Gate.NO_READING;
    }

    private static long end(Gate a, Gate b, Gate c, long start, Ticker ticker) {
        return start != Gate.NO_READING && (a.timeNeed().readsEnd() || b.timeNeed().readsEnd()
                || c.timeNeed().readsEnd()) ? ticker.read() : Gate.NO_READING;
    }

    private static long end(Gate[] gates, long start, Ticker ticker) {
        if (start == Gate.NO_READING) {
            return Gate.NO_READING;
        }
        for (Gate g : gates) {
            if (g.timeNeed().readsEnd()) {
                return ticker.read();
            }
        }
        return Gate.NO_READING;
    }

    /** {@code end - start}, or {@link Gate#NO_READING} if either was not read. */
    private static long latency(long start, long end) {
        return start == Gate.NO_READING || end == Gate.NO_READING ? Gate.NO_READING : end - start;
    }

    static <T> CompletionStage<T> executeAsync(Gate gate, Chain next, Supplier<? extends CompletionStage<T>> call) {
        Ticker ticker = gate.ticker();
        TimeNeed need = gate.timeNeed();
        long start = need.readsStart() ? ticker.read() : Gate.NO_READING;
        CompletionStage<Void> permit;
        try {
            permit = gate.acquireAsync(start);
        } catch (Throwable t) {
            return CompletableFuture.failedFuture(t);
        }
        if (permit != GRANTED) {
            // The gate waits (asynchronously) or refused: continue when the permit arrives. The call's
            // latency counts from the grant.
            CompletableFuture<T> out = new CompletableFuture<>();
            permit.whenComplete((ignored, refused) -> {
                if (refused != null) {
                    out.completeExceptionally(Exceptions.unwrap(refused));
                } else {
                    // The slow path: read the clock whatever the gate needs.
                    relay(runAsync(gate, ticker, ticker.read(), next, call), out);
                }
            });
            return out;
        }
        return runAsync(gate, ticker, start, next, call);
    }

    private static <T> void relay(CompletionStage<T> from, CompletableFuture<T> to) {
        from.whenComplete((r, f) -> {
            if (f != null) {
                to.completeExceptionally(Exceptions.unwrap(f));
            } else {
                to.complete(r);
            }
        });
    }

    private static <T> CompletionStage<T> runAsync(Gate gate, Ticker ticker, long start, Chain next,
            Supplier<? extends CompletionStage<T>> call) {
        CompletionStage<T> stage = next.proceedAsync(call);
        CompletableFuture<T> out = new CompletableFuture<>();
        stage.whenComplete((result, failure) -> {
            long end = end(gate, start, ticker);
            long latency = latency(start, end);
            Throwable cause = failure == null ? null : Exceptions.unwrap(failure);
            Throwable thrown = cause != null
                    ? failure(gate, end, latency, cause, null)
                    : success(gate, end, latency, result, null);
            settle(out, result, failure, cause, thrown);
        });
        return out;
    }

    /** Runs a call through consecutive gates: acquire outermost first, release innermost first. */
    static <T, E extends Throwable> T execute(Gate[] gates, Ticker ticker, Chain next, CheckedSupplier<T, E> call)
            throws E {
        TimeNeed need = need(gates);
        long start = need.readsStart() ? ticker.read() : Gate.NO_READING;
        acquireAll(gates, start);
        T result;
        try {
            result = next.proceed(call);
        } catch (Throwable t) {
            long end = end(gates, start, ticker);
            long latency = latency(start, end);
            Throwable thrown = null;
            for (int i = gates.length - 1; i >= 0; i--) {
                thrown = failure(gates[i], end, latency, t, thrown);
            }
            if (thrown != null) {
                completionFailed(thrown, t);
            }
            throw t;
        }
        long end = end(gates, start, ticker);
        long latency = latency(start, end);
        Throwable thrown = null;
        for (int i = gates.length - 1; i >= 0; i--) {
            thrown = success(gates[i], end, latency, result, thrown);
        }
        if (thrown != null) {
            completionFailed(thrown, null);
        }
        return result;
    }

    /**
     * Two gates, unrolled. A loop over a {@code Gate[]} makes each call site see every gate type of
     * the run, which stops the JIT from inlining past three types; fixed fields keep each site
     * monomorphic for a given pipeline. Same protocol as the array form.
     */
    static <T, E extends Throwable> T execute(Gate a, Gate b, Ticker ticker, Chain next, CheckedSupplier<T, E> call)
            throws E {
        TimeNeed need = a.timeNeed().and(b.timeNeed());
        long start = need.readsStart() ? ticker.read() : Gate.NO_READING;
        a.acquire(start);
        try {
            b.acquire(start);
        } catch (Throwable refused) {
            ignore(a, start, refused);
            throw refused;
        }
        T result;
        try {
            result = next.proceed(call);
        } catch (Throwable t) {
            long end = end(a, b, start, ticker);
            long latency = latency(start, end);
            Throwable thrown = failure(b, end, latency, t, null);
            thrown = failure(a, end, latency, t, thrown);
            if (thrown != null) {
                completionFailed(thrown, t);
            }
            throw t;
        }
        long end = end(a, b, start, ticker);
        long latency = latency(start, end);
        Throwable thrown = success(b, end, latency, result, null);
        thrown = success(a, end, latency, result, thrown);
        if (thrown != null) {
            completionFailed(thrown, null);
        }
        return result;
    }

    /** Three gates, unrolled for the same reason as the two-gate form. */
    static <T, E extends Throwable> T execute(
            Gate a, Gate b, Gate c, Ticker ticker, Chain next, CheckedSupplier<T, E> call) throws E {
        TimeNeed need = a.timeNeed().and(b.timeNeed()).and(c.timeNeed());
        long start = need.readsStart() ? ticker.read() : Gate.NO_READING;
        a.acquire(start);
        try {
            b.acquire(start);
        } catch (Throwable refused) {
            ignore(a, start, refused);
            throw refused;
        }
        try {
            c.acquire(start);
        } catch (Throwable refused) {
            ignore(b, start, refused);
            ignore(a, start, refused);
            throw refused;
        }
        T result;
        try {
            result = next.proceed(call);
        } catch (Throwable t) {
            long end = end(a, b, c, start, ticker);
            long latency = latency(start, end);
            Throwable thrown = failure(c, end, latency, t, null);
            thrown = failure(b, end, latency, t, thrown);
            thrown = failure(a, end, latency, t, thrown);
            if (thrown != null) {
                completionFailed(thrown, t);
            }
            throw t;
        }
        long end = end(a, b, c, start, ticker);
        long latency = latency(start, end);
        Throwable thrown = success(c, end, latency, result, null);
        thrown = success(b, end, latency, result, thrown);
        thrown = success(a, end, latency, result, thrown);
        if (thrown != null) {
            completionFailed(thrown, null);
        }
        return result;
    }

    static <T> CompletionStage<T> executeAsync(
            Gate[] gates, Ticker ticker, Chain next, Supplier<? extends CompletionStage<T>> call) {
        TimeNeed need = need(gates);
        long start = need.readsStart() ? ticker.read() : Gate.NO_READING;
        long[] starts = null;
        for (int i = 0; i < gates.length; i++) {
            CompletionStage<Void> permit;
            try {
                permit = gates[i].acquireAsync(start);
            } catch (Throwable t) {
                releaseAcquired(gates, i, start, starts, t);
                return CompletableFuture.failedFuture(t);
            }
            if (permit != GRANTED) {
                // A gate waits or refused: finish acquiring when its permit arrives. Each gate keeps
                // the reading its acquire was given, for onIgnoredAt and its latency.
                long[] readings = new long[gates.length];
                java.util.Arrays.fill(readings, 0, i + 1, start);
                return continueAcquiring(gates, ticker, i, permit, readings, next, call);
            }
        }
        return runAllAsync(gates, ticker, null, start, next, call);
    }

    /** The slow path of the fused asynchronous acquire: gate {@code index} answered with a pending stage. */
    private static <T> CompletionStage<T> continueAcquiring(Gate[] gates, Ticker ticker, int index,
            CompletionStage<Void> permit, long[] starts, Chain next, Supplier<? extends CompletionStage<T>> call) {
        CompletableFuture<T> out = new CompletableFuture<>();
        permit.whenComplete((ignored, refused) -> {
            if (refused != null) {
                releaseAcquired(gates, index, 0L, starts, refused);
                out.completeExceptionally(Exceptions.unwrap(refused));
                return;
            }
            for (int i = index + 1; i < gates.length; i++) {
                long now = ticker.read();
                starts[i] = now;
                CompletionStage<Void> next2;
                try {
                    next2 = gates[i].acquireAsync(now);
                } catch (Throwable t) {
                    releaseAcquired(gates, i, 0L, starts, t);
                    out.completeExceptionally(t);
                    return;
                }
                if (next2 != GRANTED) {
                    relay(continueAcquiring(gates, ticker, i, next2, starts, next, call), out);
                    return;
                }
            }
            // The slow path: read the clock whatever the gates need.
            relay(runAllAsync(gates, ticker, starts, 0L, next, call), out);
        });
        return out;
    }

    private static <T> CompletionStage<T> runAllAsync(Gate[] gates, Ticker ticker, long @Nullable [] starts,
            long start, Chain next, Supplier<? extends CompletionStage<T>> call) {
        CompletionStage<T> stage = next.proceedAsync(call);
        CompletableFuture<T> out = new CompletableFuture<>();
        stage.whenComplete((result, failure) -> {
            // The slow path (per-gate readings) reads the end whatever the gates need.
            long end = starts != null ? ticker.read() : end(gates, start, ticker);
            Throwable cause = failure == null ? null : Exceptions.unwrap(failure);
            Throwable thrown = null;
            for (int i = gates.length - 1; i >= 0; i--) {
                long latency = latency(starts == null ? start : starts[i], end);
                thrown = cause != null
                        ? failure(gates[i], end, latency, cause, thrown)
                        : success(gates[i], end, latency, result, thrown);
            }
            settle(out, result, failure, cause, thrown);
        });
        return out;
    }

    /** Completes the caller's stage with the call's outcome; a completion's exception is suppressed and logged. */
    private static <T> void settle(CompletableFuture<T> out, @Nullable T result, @Nullable Throwable failure,
            @Nullable Throwable cause, @Nullable Throwable thrown) {
        if (thrown != null) {
            try {
                completionFailed(thrown, cause);
            } catch (Error e) {
                out.completeExceptionally(e);
                return;
            }
        }
        if (failure != null) {
            out.completeExceptionally(cause);
        } else {
            out.complete(result);
        }
    }

    /** Gate {@code g}'s failure completion, isolated: returns what it threw (merged into {@code pending}). */
    private static @Nullable Throwable failure(Gate g, long end, long latency, Throwable t, @Nullable Throwable pending) {
        try {
            g.onFailureAt(end, latency, t);
            return pending;
        } catch (Throwable thrown) {
            return merge(pending, thrown);
        }
    }

    /** Gate {@code g}'s result completion, isolated: returns what it threw (merged into {@code pending}). */
    @SuppressWarnings("NullAway") // Gate.onResultAt documents a possibly-null result; its SPI is not annotated yet
    private static @Nullable Throwable success(Gate g, long end, long latency, @Nullable Object result,
            @Nullable Throwable pending) {
        try {
            g.onResultAt(end, latency, result);
            return pending;
        } catch (Throwable thrown) {
            return merge(pending, thrown);
        }
    }

    private static void ignore(Gate g, long start, Throwable refused) {
        try {
            g.onIgnoredAt(start);
        } catch (Throwable thrown) {
            if (thrown != refused) {
                refused.addSuppressed(thrown);
            }
        }
    }

    /** Keeps the first completion failure, an Error over an exception; the other is suppressed on it. */
    private static Throwable merge(@Nullable Throwable pending, Throwable thrown) {
        if (pending == null) {
            return thrown;
        }
        if (thrown instanceof Error && !(pending instanceof Error)) {
            thrown.addSuppressed(pending);
            return thrown;
        }
        if (pending != thrown) {
            pending.addSuppressed(thrown);
        }
        return pending;
    }

    /**
     * A gate's completion threw after the call ended. The call's outcome stands: its failure carries the
     * completion's exception as suppressed, a result is returned as is; the exception is logged at WARN.
     * An {@link Error} is never swallowed: it is thrown, with the call's failure suppressed on it.
     *
     * @param thrown what the completion threw
     * @param callFailure what the call threw, or null if it returned
     */
    private static void completionFailed(Throwable thrown, @Nullable Throwable callFailure) {
        if (thrown instanceof Error) {
            if (callFailure != null && callFailure != thrown) {
                thrown.addSuppressed(callFailure);
            }
            throw (Error) thrown;
        }
        if (callFailure != null && callFailure != thrown) {
            callFailure.addSuppressed(thrown);
        }
        LOG.warn("A gate's completion threw after the call {}; every gate was still completed and the call's "
                + "outcome kept", callFailure != null ? "failed with " + callFailure : "returned", thrown);
    }

    /** Releases gates {@code [0, acquired)} as ignored after a later one refused or threw. */
    private static void releaseAcquired(Gate[] gates, int acquired, long start, long @Nullable [] starts,
            Throwable refused) {
        for (int i = acquired - 1; i >= 0; i--) {
            ignore(gates[i], starts == null ? start : starts[i], refused);
        }
    }

    /** What the run needs: the largest need of its gates. */
    private static TimeNeed need(Gate[] gates) {
        TimeNeed need = TimeNeed.NONE;
        for (Gate g : gates) {
            need = need.and(g.timeNeed());
        }
        return need;
    }

    /** Acquires every gate in order; if one refuses (or throws), releases those already passed as ignored. */
    private static void acquireAll(Gate[] gates, long start) {
        int acquired = 0;
        try {
            for (; acquired < gates.length; acquired++) {
                gates[acquired].acquire(start);
            }
        } catch (Throwable t) {
            releaseAcquired(gates, acquired, start, null, t);
            throw t;
        }
    }
}
