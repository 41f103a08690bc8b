package dev.levee.retry;

import dev.levee.core.CheckedFunction;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Exceptions;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The attempts of one call across a {@link ReplicaSet}, for a {@link Hedge} or a {@link Retry}: each
 * invocation is one attempt, sent to a replica this call has not tried while an eligible one remains
 * (claimed atomically, so concurrent hedges never share a replica), its outcome recorded in the set.
 *
 * <p>How an attempt ends, as the set sees it: a value or exception the policy's classifier counts as
 * a failure → {@link ReplicaSet#onFailure}; any other value or exception → {@link ReplicaSet#onSuccess}
 * (the replica answered); a cancellation or interrupt (a hedge won elsewhere) →
 * {@link ReplicaSet#onCancelled} (in the synchronous form also any exception thrown with the thread's
 * interrupt flag set); an {@link Error} → {@link ReplicaSet#onIgnored}.
 *
 * @param <R> the replica type
 */
final class ReplicaAttempts<R> {
    /** Whether an attempt's outcome counts against the replica. */
    interface Judge {
        boolean failed(@Nullable Throwable failure, @Nullable Object result);
    }

    /** Told of each attempt's replica (publishes the policy's {@code ReplicaPicked} event). */
    interface Picked {
        void picked(int attempt, int index, Object replica);
    }

    private final ReplicaSet<R> set;
    private final Ticker ticker;
    private final Judge judge;
    private final Picked picked;
    private final AtomicLongArray tried;
    private final AtomicInteger attempts = new AtomicInteger();

    ReplicaAttempts(ReplicaSet<R> set, Judge judge, Picked picked) {
        this.set = set;
        this.ticker = set.config().ticker();
        this.judge = judge;
        this.picked = picked;
        this.tried = set.newTriedSet();
    }

    /** The synchronous form: each {@code get()} is one attempt. */
    <T, E extends Throwable> CheckedSupplier<T, E> sync(CheckedFunction<? super R, ? extends T, E> call) {
        return () -> {
            long start = ticker.read();
            int replica = start(start);
            T value;
            try {
                value = call.apply(set.replica(replica));
            } catch (Throwable failure) {
                // A losing synchronous hedge is cancelled by interrupting its thread: whatever the call
                // then throws (an InterruptedIOException, say), with the flag set it is a cancellation.
                record(replica, start, Thread.currentThread().isInterrupted() ? new CancellationException() : failure,
                        null);
                throw failure;
            }
            record(replica, start, null, value);
            return value;
        };
    }

    /** The asynchronous form: each {@code get()} starts one attempt and returns its stage (the call's own, so cancelling it cancels the call). */
    <T> Supplier<CompletionStage<T>> async(Function<? super R, ? extends CompletionStage<T>> call) {
        return () -> {
            long start = ticker.read();
            int replica = start(start);
            CompletionStage<T> stage;
            try {
                stage = call.apply(set.replica(replica));
            } catch (Throwable failure) {
                record(replica, start, failure, null);
                return CompletableFuture.failedFuture(failure);
            }
            if (stage == null) {
                NullPointerException missing = new NullPointerException("the call returned no stage");
                record(replica, start, missing, null);
                return CompletableFuture.failedFuture(missing);
            }
            stage.whenComplete((value, failure) -> record(replica, start,
                    failure == null ? null : Exceptions.unwrap(failure), value));
            return stage;
        };
    }

    /** @return how many attempts were made */
    int attempts() {
        return attempts.get();
    }

    private int start(long now) {
        int attempt = attempts.incrementAndGet();
        int replica = set.pickUntried(now, tried);
        picked.picked(attempt, replica, set.replica(replica));
        return replica;
    }

    private void record(int replica, long start, @Nullable Throwable failure, @Nullable Object value) {
        long elapsed = ticker.read() - start;
        if (failure instanceof Error) {
            set.onIgnored(replica);
        } else if (failure instanceof CancellationException || failure instanceof InterruptedException) {
            set.onCancelled(replica, elapsed);
        } else if (judgeSafely(failure, value)) {
            set.onFailure(replica, elapsed, failure);
        } else {
            set.onSuccess(replica, elapsed);
        }
    }

    /** A classifier that throws counts the outcome as a failure of the replica. */
    private boolean judgeSafely(@Nullable Throwable failure, @Nullable Object value) {
        try {
            return judge.failed(failure, value);
        } catch (RuntimeException callbackFailure) {
            return true;
        }
    }
}
