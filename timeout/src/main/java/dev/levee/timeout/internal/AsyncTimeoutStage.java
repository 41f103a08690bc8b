package dev.levee.timeout.internal;

import dev.levee.core.internal.Nanos;
import dev.levee.core.Scheduler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * The stage an asynchronous timeout returns. It completes with whichever comes first: the
 * underlying stage's outcome (passed through unchanged, the same value or exception instance), or
 * the deadline, when the scheduler runs this object and it completes exceptionally with the
 * rejection and cancels the underlying future.
 *
 * <p>One object is the returned future, the scheduler's task and the underlying stage's completion
 * callback, so a call allocates it, the scheduler's handle and nothing else here.
 *
 * @param <T> the result type
 */
public final class AsyncTimeoutStage<T> extends CompletableFuture<T> implements Runnable, BiConsumer<T, Throwable> {

    /** Told how the race ended; called exactly once, by the winner. */
    public interface Listener {
        /**
         * The underlying stage finished first.
         *
         * @param startNanos the call's start reading
         * @param effectiveNanos the call's timeout
         * @param failure its failure, or null on success
         */
        void completed(long startNanos, long effectiveNanos, Throwable failure);

        /**
         * Builds the rejection the returned stage fails with if the deadline wins.
         *
         * @param effectiveNanos the call's timeout
         * @return the exception
         */
        RuntimeException timeoutRejection(long effectiveNanos);

        /**
         * The deadline came first; the returned stage has failed with the rejection.
         *
         * @param startNanos the call's start reading
         * @param effectiveNanos the call's timeout
         */
        void timedOut(long startNanos, long effectiveNanos);
    }

    private final CompletionStage<T> underlying;
    private final Listener listener;
    private final long startNanos;
    private final long effectiveNanos;
    private final boolean cancelUnderlying;
    private volatile Scheduler.@Nullable Cancellable timer;

    /**
     * @param underlying the stage being bounded
     * @param listener told the outcome
     * @param startNanos the call's start reading
     * @param effectiveNanos the call's timeout
     * @param cancelUnderlying whether to cancel the underlying future at the deadline
     */
    public AsyncTimeoutStage(CompletionStage<T> underlying, Listener listener, long startNanos, long effectiveNanos,
            boolean cancelUnderlying) {
        this.underlying = underlying;
        this.listener = listener;
        this.startNanos = startNanos;
        this.effectiveNanos = effectiveNanos;
        this.cancelUnderlying = cancelUnderlying;
    }

    /**
     * Arms the deadline and follows the underlying stage.
     *
     * @param scheduler fires the deadline; its thread only hands the timeout to {@code executor}
     * @param executor completes this stage at the deadline (so dependent stages, the user's code, never
     *     run on the scheduler's thread)
     * @param nowNanos a reading of the timeout's ticker
     * @return this stage
     */
    public AsyncTimeoutStage<T> start(Scheduler scheduler, Executor executor, long nowNanos) {
        timer = scheduler.schedule(() -> {
            if (isDone()) {
                return;
            }
            try {
                executor.execute(this);
            } catch (RejectedExecutionException e) {
                run(); // the executor is gone: firing here beats a stage that never times out
            }
        }, Nanos.subtract(Nanos.add(startNanos, effectiveNanos), nowNanos));
        underlying.whenComplete(this);
        return this;
    }

    /** The deadline: fail this stage and cancel the underlying one, unless the outcome came first. */
    @Override
    public void run() {
        if (isDone()) {
            return;
        }
        if (completeExceptionally(listener.timeoutRejection(effectiveNanos))) {
            if (cancelUnderlying) {
                cancel(underlying);
            }
            listener.timedOut(startNanos, effectiveNanos);
        }
    }

    /** The underlying outcome: pass it on unchanged, unless the deadline came first. */
    @Override
    public void accept(T value, Throwable failure) {
        boolean won = failure == null ? complete(value) : completeExceptionally(failure);
        if (won) {
            Scheduler.Cancellable t = timer;
            if (t != null) {
                t.cancel();
            }
            listener.completed(startNanos, effectiveNanos, failure);
        }
    }

    /** Cancelling the returned stage cancels the underlying call and the timer. */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        if (cancelled) {
            Scheduler.Cancellable t = timer;
            if (t != null) {
                t.cancel();
            }
            cancel(underlying);
        }
        return cancelled;
    }

    private static void cancel(CompletionStage<?> stage) {
        try {
            stage.toCompletableFuture().cancel(true);
        } catch (UnsupportedOperationException notAFuture) {
            // A stage that cannot be viewed as a future cannot be cancelled; it is abandoned instead.
        }
    }
}
