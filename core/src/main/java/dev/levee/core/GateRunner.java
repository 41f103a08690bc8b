package dev.levee.core;

import dev.levee.core.internal.Exceptions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * The permit protocol around a call, for one gate or a fused group of consecutive gates that share
 * a ticker. One clock reading before the call and one after; nothing allocated on the synchronous
 * path.
 */
final class GateRunner {
    private GateRunner() {}

    static <T, E extends Throwable> T execute(Gate gate, Chain next, CheckedSupplier<T, E> call) throws E {
        Ticker ticker = gate.ticker();
        long start = ticker.read();
        gate.acquire(start);
        T result;
        try {
            result = next.proceed(call);
        } catch (Throwable t) {
            long end = ticker.read();
            gate.onFailureAt(end, end - start, t);
            throw t;
        }
        long end = ticker.read();
        gate.onResultAt(end, end - start, result);
        return result;
    }

    static <T> CompletionStage<T> executeAsync(Gate gate, Chain next, Supplier<? extends CompletionStage<T>> call) {
        Ticker ticker = gate.ticker();
        long start = ticker.read();
        try {
            gate.acquire(start);
        } catch (RejectedException rejected) {
            return CompletableFuture.failedFuture(rejected);
        }
        CompletionStage<T> stage = next.proceedAsync(call);
        return stage.whenComplete((result, failure) -> {
            long end = ticker.read();
            if (failure != null) {
                gate.onFailureAt(end, end - start, Exceptions.unwrap(failure));
            } else {
                gate.onResultAt(end, end - start, result);
            }
        });
    }

    /** Runs a call through consecutive gates: acquire outermost first, release innermost first. */
    static <T, E extends Throwable> T execute(Gate[] gates, Ticker ticker, Chain next, CheckedSupplier<T, E> call)
            throws E {
        long start = ticker.read();
        acquireAll(gates, start);
        T result;
        try {
            result = next.proceed(call);
        } catch (Throwable t) {
            long end = ticker.read();
            for (int i = gates.length - 1; i >= 0; i--) {
                gates[i].onFailureAt(end, end - start, t);
            }
            throw t;
        }
        long end = ticker.read();
        for (int i = gates.length - 1; i >= 0; i--) {
            gates[i].onResultAt(end, end - start, result);
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
        long start = ticker.read();
        a.acquire(start);
        try {
            b.acquire(start);
        } catch (Throwable refused) {
            a.onIgnoredAt(start);
            throw refused;
        }
        T result;
        try {
            result = next.proceed(call);
        } catch (Throwable t) {
            long end = ticker.read();
            b.onFailureAt(end, end - start, t);
            a.onFailureAt(end, end - start, t);
            throw t;
        }
        long end = ticker.read();
        b.onResultAt(end, end - start, result);
        a.onResultAt(end, end - start, result);
        return result;
    }

    /** Three gates, unrolled for the same reason as the two-gate form. */
    static <T, E extends Throwable> T execute(
            Gate a, Gate b, Gate c, Ticker ticker, Chain next, CheckedSupplier<T, E> call) throws E {
        long start = ticker.read();
        a.acquire(start);
        try {
            b.acquire(start);
        } catch (Throwable refused) {
            a.onIgnoredAt(start);
            throw refused;
        }
        try {
            c.acquire(start);
        } catch (Throwable refused) {
            b.onIgnoredAt(start);
            a.onIgnoredAt(start);
            throw refused;
        }
        T result;
        try {
            result = next.proceed(call);
        } catch (Throwable t) {
            long end = ticker.read();
            c.onFailureAt(end, end - start, t);
            b.onFailureAt(end, end - start, t);
            a.onFailureAt(end, end - start, t);
            throw t;
        }
        long end = ticker.read();
        c.onResultAt(end, end - start, result);
        b.onResultAt(end, end - start, result);
        a.onResultAt(end, end - start, result);
        return result;
    }

    static <T> CompletionStage<T> executeAsync(
            Gate[] gates, Ticker ticker, Chain next, Supplier<? extends CompletionStage<T>> call) {
        long start = ticker.read();
        try {
            acquireAll(gates, start);
        } catch (RejectedException rejected) {
            return CompletableFuture.failedFuture(rejected);
        }
        return next.proceedAsync(call).whenComplete((result, failure) -> {
            long end = ticker.read();
            Throwable cause = failure == null ? null : Exceptions.unwrap(failure);
            for (int i = gates.length - 1; i >= 0; i--) {
                if (cause != null) {
                    gates[i].onFailureAt(end, end - start, cause);
                } else {
                    gates[i].onResultAt(end, end - start, result);
                }
            }
        });
    }

    /** Acquires every gate in order; if one refuses (or throws), releases those already passed as ignored. */
    private static void acquireAll(Gate[] gates, long start) {
        int acquired = 0;
        try {
            for (; acquired < gates.length; acquired++) {
                gates[acquired].acquire(start);
            }
        } catch (Throwable t) {
            for (int i = acquired - 1; i >= 0; i--) {
                gates[i].onIgnoredAt(start);
            }
            throw t;
        }
    }
}
