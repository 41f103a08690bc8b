package dev.levee.timeout.internal;

import dev.levee.core.internal.Nanos;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;

/**
 * The stage an asynchronous timeout returns. It completes with whichever comes first: the
 * underlying stage's outcome (passed through unchanged, the same value or exception instance), or
 * the deadline, when the executor runs this object (handed it by the timer) and it completes
 * exceptionally with the rejection and cancels the underlying future.
 *
 * <p>The deadline is a {@link TimerWheel} timer: armed and disarmed with a CAS each, whatever the number
 * of pending timeouts, never early, and late by at most the wheel's tick (1 ms) plus the scheduler's
 * delay. The wheel's thread only hands the expiry to the executor.
 *
 * <p>One object is the returned future, the executor's task and the underlying stage's completion
 * callback, so a call allocates it, its 40-byte timer and nothing else here.
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
    private final TimerWheel wheel;
    private final Executor executor;
    private final DeadlineTimer timer = new DeadlineTimer(this);

    /**
     * @param underlying the stage being bounded
     * @param listener told the outcome
     * @param startNanos the call's start reading, on the wheel's ticker
     * @param effectiveNanos the call's timeout
     * @param cancelUnderlying whether to cancel the underlying future at the deadline
     * @param wheel fires the deadline; its thread only hands the timeout to {@code executor}
     * @param executor completes this stage at the deadline (so dependent stages, the user's code, never
     *     run on the wheel's thread)
     */
    public AsyncTimeoutStage(CompletionStage<T> underlying, Listener listener, long startNanos, long effectiveNanos,
            boolean cancelUnderlying, TimerWheel wheel, Executor executor) {
        this.underlying = underlying;
        this.listener = listener;
        this.startNanos = startNanos;
        this.effectiveNanos = effectiveNanos;
        this.cancelUnderlying = cancelUnderlying;
        this.wheel = wheel;
        this.executor = executor;
    }

    /**
     * Arms the deadline, {@code startNanos + effectiveNanos}, and follows the underlying stage.
     *
     * @return this stage
     */
    public AsyncTimeoutStage<T> start() {
        wheel.schedule(timer, Nanos.add(startNanos, effectiveNanos));
        underlying.whenComplete(this); // after arming: an outcome that is already there disarms it
        return this;
    }

    /** On the wheel's thread at the deadline: hands the timeout to the executor. */
    private void expire() {
        if (isDone()) {
            return;
        }
        try {
            executor.execute(this);
        } catch (RejectedExecutionException e) {
            run(); // the executor is gone: firing here beats a stage that never times out
        }
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
            wheel.cancel(timer);
            listener.completed(startNanos, effectiveNanos, failure);
        }
    }

    /** Cancelling the returned stage cancels the underlying call and the timer. */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        if (cancelled) {
            wheel.cancel(timer);
            cancel(underlying);
        }
        return cancelled;
    }

    /** The deadline of one stage on the wheel. */
    private static final class DeadlineTimer extends TimerWheel.Timer {
        private final AsyncTimeoutStage<?> stage;

        DeadlineTimer(AsyncTimeoutStage<?> stage) {
            this.stage = stage;
        }

        @Override
        protected void expire() {
            stage.expire();
        }
    }

    private static void cancel(CompletionStage<?> stage) {
        try {
            stage.toCompletableFuture().cancel(true);
        } catch (UnsupportedOperationException notAFuture) {
            // A stage that cannot be viewed as a future cannot be cancelled; it is abandoned instead.
        }
    }
}
