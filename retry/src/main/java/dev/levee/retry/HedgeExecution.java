package dev.levee.retry;

import dev.levee.core.Chain;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.ContextScope;
import dev.levee.core.ContextSnapshot;
import dev.levee.core.Scheduler;
import dev.levee.core.internal.Exceptions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One call through a {@link Hedge}: the attempts, the hedge timer, and the race for the answer.
 *
 * <p>Lock-free bookkeeping: {@code started} counts attempts launched (incremented before launching),
 * {@code failed} counts attempts that ended unacceptably. The attempt whose failure makes
 * {@code failed == started} completes the call with its failure; because {@code started} only grows
 * before a launch, no completion is lost when a hedge starts at the same moment. The first acceptable
 * answer completes the call; completing cancels the timer and every other attempt.
 *
 * @param <T> the result type
 */
@SuppressWarnings("try") // scopes opened only to install and restore context
final class HedgeExecution<T> {
    private final Hedge hedge;
    private final ContextSnapshot context = ContextSnapshot.capture();
    private final CompletableFuture<T> result = new CompletableFuture<>();
    private final AtomicReferenceArray<CompletableFuture<T>> attempts;
    private final AtomicInteger started = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final Launcher<T> launcher;
    private volatile Scheduler.@Nullable Cancellable timer;
    private final boolean deposited;
    /**
     * Where the timer hands {@link #onTimer} over: the timer's thread never runs user code (the
     * attempt, listeners). The sync form's attempts run on its executor; the async form's here.
     */
    private final Executor handOff;

    /** Starts one attempt and returns its future. */
    private interface Launcher<T> {
        CompletableFuture<T> launch();
    }

    private HedgeExecution(Hedge hedge, Launcher<T> launcher, @Nullable Executor handOff) {
        this.hedge = hedge;
        this.launcher = launcher;
        this.handOff = handOff != null ? handOff : result.defaultExecutor();
        this.attempts = new AtomicReferenceArray<>(1 + hedge.config().maxHedges());
        RetryBudget budget = hedge.budget();
        if (budget != null && !budget.insideRequest()) {
            budget.onRequestStart();
            this.deposited = true;
        } else {
            this.deposited = false;
        }
        hedge.callStarted();
        result.whenComplete((value, failure) -> finish());
    }

    static <T, E extends Throwable> HedgeExecution<T> sync(Hedge hedge, Chain next, CheckedSupplier<T, E> call) {
        HedgeExecution<T>[] self = newArray();
        HedgeExecution<T> execution = new HedgeExecution<>(hedge, () -> {
            CompletableFuture<T> attempt = new CompletableFuture<>();
            ContextSnapshot context = self[0].context;
            FutureTask<Void> task = new FutureTask<>(() -> {
                try (ContextScope ignored = context.attach()) {
                    attempt.complete(next.proceed(call));
                } catch (Throwable t) {
                    attempt.completeExceptionally(t);
                }
            }, null);
            attempt.whenComplete((v, t) -> {
                if (attempt.isCancelled()) {
                    task.cancel(true);
                }
            });
            hedge.config().executor().execute(task);
            return attempt;
        }, hedge.config().executor());
        self[0] = execution;
        execution.start();
        return execution;
    }

    static <T> HedgeExecution<T> async(Hedge hedge, Chain next, Supplier<? extends CompletionStage<T>> call) {
        HedgeExecution<T> execution = new HedgeExecution<>(hedge, () -> {
            CompletableFuture<T> attempt = new CompletableFuture<>();
            CompletionStage<T> stage;
            try {
                stage = next.proceedAsync(call);
            } catch (Throwable t) {
                stage = CompletableFuture.failedFuture(t);
            }
            CompletionStage<T> running = stage;
            stage.whenComplete((v, t) -> {
                if (t != null) {
                    attempt.completeExceptionally(Exceptions.unwrap(t));
                } else {
                    attempt.complete(v);
                }
            });
            attempt.whenComplete((v, t) -> {
                if (attempt.isCancelled()) {
                    try {
                        running.toCompletableFuture().cancel(true);
                    } catch (UnsupportedOperationException notCancellable) {
                        // Runs to completion; its answer is dropped.
                    }
                }
            });
            return attempt;
        }, hedge.config().asyncExecutor());
        execution.start();
        return execution;
    }

    @SuppressWarnings("unchecked")
    private static <T> HedgeExecution<T>[] newArray() {
        return (HedgeExecution<T>[]) new HedgeExecution<?>[1];
    }

    CompletableFuture<T> result() {
        return result;
    }

    private void start() {
        launch(0);
        scheduleHedge();
    }

    private void scheduleHedge() {
        if (result.isDone() || started.get() >= attempts.length()) {
            return;
        }
        long delay = hedge.currentDelayNanos();
        Runnable fire = () -> {
            try (ContextScope ignored = context.attach()) {
                onTimer(delay);
            }
        };
        timer = hedge.config().scheduler().schedule(() -> {
            try {
                handOff.execute(fire);
            } catch (RuntimeException refused) {
                // No hedge this time: the attempts already running still answer the call.
            }
        }, delay);
        if (result.isDone()) {
            cancelTimer();
        }
    }

    private void onTimer(long delay) {
        int index = started.get();
        if (result.isDone() || index >= attempts.length()) {
            return;
        }
        if (!hedge.tryHedge(index + 1, delay)) {
            return; // refused: no further hedge for this call
        }
        launch(index);
        scheduleHedge();
    }

    private void launch(int index) {
        started.incrementAndGet();
        long begin = hedge.config().ticker().read();
        CompletableFuture<T> attempt;
        try {
            attempt = launcher.launch();
        } catch (Throwable t) { // e.g. the executor rejected the task
            attempt = CompletableFuture.failedFuture(t);
        }
        attempts.set(index, attempt);
        if (result.isDone()) {
            attempt.cancel(true);
        }
        attempt.whenComplete((value, failure) -> {
            if (index > 0) {
                RetryBudget budget = hedge.budget();
                if (budget != null) {
                    budget.onRetryEnd();
                }
            }
            if (result.isDone()) {
                return;
            }
            if (failure != null && hedge.definitive(failure)) {
                result.completeExceptionally(failure);
            } else if (failure == null && hedge.acceptable(value)) {
                if (result.complete(value)) {
                    hedge.recordLatency(hedge.config().ticker().read() - begin);
                    if (index > 0) {
                        hedge.hedgeWon();
                    }
                }
            } else if (failed.incrementAndGet() == started.get()) {
                if (failure != null) {
                    result.completeExceptionally(failure);
                } else {
                    result.complete(value);
                }
            }
        });
    }

    private void cancelTimer() {
        Scheduler.Cancellable pending = timer;
        if (pending != null) {
            pending.cancel();
        }
    }

    /** The call is decided: stop the timer, cancel the losers, end the request in the budget. */
    private void finish() {
        cancelTimer();
        for (int i = 0; i < attempts.length(); i++) {
            CompletableFuture<T> attempt = attempts.get(i);
            if (attempt != null && !attempt.isDone()) {
                attempt.cancel(true);
            }
        }
        RetryBudget budget = hedge.budget();
        if (deposited && budget != null) {
            budget.onRequestEnd();
        }
    }
}
