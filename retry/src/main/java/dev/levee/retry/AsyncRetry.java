package dev.levee.retry;

import dev.levee.core.Chain;
import dev.levee.core.ContextScope;
import dev.levee.core.ContextSnapshot;
import dev.levee.core.Scheduler;
import dev.levee.core.internal.Exceptions;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One asynchronous call through a {@link Retry}: attempts chained by completion callbacks, backoffs
 * waited on the {@link Scheduler}, so no thread is blocked. When a backoff elapses, the scheduler's
 * thread only hands the next attempt to the executor ({@link RetryConfig#executor()}, by default the
 * first attempt's stage's default async executor): a timer thread never runs user code. The
 * caller's context (its current {@link dev.levee.core.Deadline}) is captured once and restored around
 * every later attempt and decision. Cancelling the returned future cancels a pending backoff and the attempt in flight, and
 * no further attempt starts.
 *
 * <p>Package-private: reached through {@link Retry#executeAsync}.
 *
 * @param <T> the result type
 */
@SuppressWarnings("try") // scopes opened only to install and restore context
final class AsyncRetry<T> implements BiConsumer<T, Throwable>, Runnable {
    private final Retry retry;
    /** Where attempts after a backoff run; set from the first attempt's stage when not configured. */
    private @Nullable Executor executor;
    /** The scheduler's task: hands the attempt to {@link #executor}, nothing else. */
    private final Runnable handOver = this::handOver;
    /** The outcome that made the pending retry necessary, kept to give up with if the executor refuses. */
    private @Nullable Throwable lastFailure;
    private @Nullable T lastValue;
    private final Chain next;
    private final Supplier<? extends CompletionStage<T>> call;
    private final ContextSnapshot context;
    private final CompletableFuture<T> result = new CompletableFuture<>();
    private final long start;
    /** Written by the completion of one attempt, read by the next: ordered by the scheduler hand-off. */
    private int attempt = 1;
    private long previousDelay;
    /**
     * The newest backoff scheduled, tagged with the attempt it starts. Only ever replaced by a newer
     * one (see {@link #storePending}), so a slow store of an older backoff whose task already ran cannot
     * hide a newer one from cancellation.
     */
    private final AtomicReference<PendingBackoff> pendingBackoff = new AtomicReference<>();
    private volatile @Nullable CompletionStage<T> inFlight;
    /**
     * The attempts started so far, for a cancellation's give-up: {@link #attempt} already counts the
     * next attempt during a backoff, and the caller may cancel from any thread.
     */
    private volatile int launched;

    /** A scheduled backoff and the attempt its task starts. */
    private record PendingBackoff(int attempt, Scheduler.Cancellable handle) {
    }

    private AsyncRetry(Retry retry, Chain next, Supplier<? extends CompletionStage<T>> call, long start) {
        this.retry = retry;
        this.next = next;
        this.call = call;
        this.context = ContextSnapshot.capture();
        this.start = start;
        this.executor = retry.config().executor();
    }

    static <T> CompletionStage<T> start(Retry retry, Chain next, Supplier<? extends CompletionStage<T>> call) {
        RetryBudget budget = retry.budget();
        boolean deposited = false;
        if (budget != null && !budget.insideRequest()) {
            budget.onRequestStart();
            deposited = true;
        }
        boolean outermost = deposited;
        AsyncRetry<T> execution = new AsyncRetry<>(retry, next, call, retry.ticker().read());
        execution.result.whenComplete((value, failure) -> execution.finished(outermost, budget));
        execution.launch();
        return execution.result;
    }

    /**
     * Starts one attempt on the current thread.
     *
     * @return false if the call was already complete (cancelled), so no attempt started
     */
    private boolean launch() {
        if (result.isDone()) {
            return false;
        }
        launched = attempt;
        CompletionStage<T> stage;
        try {
            stage = next.proceedAsync(call);
        } catch (Throwable t) {
            // The chain promises not to throw; a policy that breaks the promise still fails this attempt.
            stage = CompletableFuture.failedFuture(t);
        }
        inFlight = stage;
        if (executor == null) {
            executor = stage instanceof CompletableFuture<?> future ? future.defaultExecutor() : result.defaultExecutor();
        }
        if (result.isDone()) {
            // Cancelled while the attempt was starting: finished() may have read inFlight before it was set.
            cancel(stage);
        }
        stage.whenComplete(this);
        return true;
    }

    /**
     * A backoff elapsed, on the scheduler's thread: hand the next attempt to the executor. If the
     * executor refuses it, the call gives up with the last outcome (the refusal added as suppressed)
     * and the retry withdrawn for the attempt is returned.
     */
    private void handOver() {
        try {
            java.util.Objects.requireNonNull(executor, "set by the first launch").execute(this);
        } catch (RuntimeException refused) {
            retry.retryEnded();
            Throwable failure = lastFailure;
            retry.recordGiveUp(GiveUpReason.NOT_RETRYABLE, attempt - 1, failure, lastValue);
            if (failure != null) {
                if (failure != refused) {
                    failure.addSuppressed(refused);
                }
                result.completeExceptionally(failure);
            } else {
                result.complete(lastValue);
            }
        }
    }

    /**
     * A backoff elapsed and the executor runs the next attempt, in the caller's context. The retry withdrawn for it is
     * returned by {@link #accept} when the attempt ends, or here if no attempt starts; a backoff whose
     * task runs was not cancelled, so {@link #cancelPending()} did not return it.
     */
    @Override
    public void run() {
        boolean started;
        try (ContextScope ignored = context.attach()) {
            started = launch();
        }
        if (!started) {
            retry.retryEnded();
        }
    }

    /** An attempt completed. */
    @Override
    public void accept(@Nullable T value, @Nullable Throwable thrown) {
        inFlight = null;
        if (attempt > 1) {
            retry.retryEnded();
        }
        if (result.isDone()) {
            return;
        }
        Throwable failure = thrown == null ? null : Exceptions.unwrap(thrown);
        if (failure == null && !retry.isFailedResult(value)) {
            if (attempt == 1) {
                retry.succeededFirstTime();
            } else {
                retry.succeededAfterRetry(attempt);
            }
            result.complete(value);
            return;
        }
        long delay;
        try (ContextScope ignored = context.attach()) {
            delay = retry.decide(attempt, previousDelay, failure, value, start, false);
        } catch (Throwable t) {
            result.completeExceptionally(t);
            return;
        }
        if (delay < 0) {
            retry.recordGiveUp(Retry.reasonOf(delay), attempt, failure, value);
            if (failure != null) {
                result.completeExceptionally(failure);
            } else {
                result.complete(value);
            }
            return;
        }
        int nextAttempt = ++attempt;
        previousDelay = delay;
        lastFailure = failure;
        lastValue = value;
        Scheduler.Cancellable handle = retry.config().scheduler().schedule(handOver, delay);
        if (storePending(new PendingBackoff(nextAttempt, handle)) && result.isDone()) {
            cancelPending();
        }
    }

    /**
     * Records a scheduled backoff unless a newer one is already recorded (with a zero delay, the task
     * may have run, and its attempt failed and scheduled the next backoff, before this store).
     *
     * @return true if stored
     */
    private boolean storePending(PendingBackoff scheduled) {
        while (true) {
            PendingBackoff current = pendingBackoff.get();
            if (current != null && current.attempt() > scheduled.attempt()) {
                return false; // ours already ran: the newer one is the one to cancel
            }
            if (pendingBackoff.compareAndSet(current, scheduled)) {
                return true;
            }
        }
    }

    /** The returned future completed: by us, or cancelled by the caller. */
    private void finished(boolean deposited, @Nullable RetryBudget budget) {
        if (result.isCancelled()) {
            cancelPending();
            CompletionStage<T> running = inFlight;
            if (running != null) {
                cancel(running);
            }
            // The attempts that started: a cancellation during a backoff is not another attempt.
            retry.recordGiveUp(GiveUpReason.CANCELLED, launched, new CancellationException("cancelled"), null);
        }
        if (deposited && budget != null) {
            budget.onRequestEnd();
        }
    }

    /**
     * Cancels the newest backoff. Exactly one of a successful {@code cancel()} here and the task's
     * {@link #run()} returns the retry withdrawn for it (a handle cancels at most once, and only a task
     * that has not started).
     */
    private void cancelPending() {
        PendingBackoff pending = pendingBackoff.get();
        if (pending != null && pending.handle().cancel()) {
            retry.retryEnded();
        }
    }

    private static void cancel(CompletionStage<?> stage) {
        try {
            stage.toCompletableFuture().cancel(true);
        } catch (UnsupportedOperationException notCancellable) {
            // A stage that cannot be converted just runs to completion; its outcome is dropped.
        }
    }
}
