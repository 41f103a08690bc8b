package dev.levee.core;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The context of one thread — its current {@link Deadline} and {@link IdempotencyKey}, plus whatever
 * the given {@link ContextPropagator}s capture — frozen so it can be restored on another thread.
 *
 * <p>Use it where work hops threads:
 * <pre>{@code
 * Executor executor = ContextSnapshot.propagating(pool);            // captures at each execute()
 * CompletableFuture.supplyAsync(() -> load(id), executor)
 *         .thenApplyAsync(this::render, executor);                   // the deadline travels along
 *
 * ContextSnapshot snapshot = ContextSnapshot.capture();
 * stage.thenApply(snapshot.wrap(this::render));                      // for non-async continuations
 * }</pre>
 *
 * <p>Restoring installs exactly the captured deadline (not the earlier of it and the worker's) and the
 * captured idempotency key (or none), and closing the scope restores the worker's own context — every part of it, even when a propagator's
 * scope throws on close (that exception is rethrown after everything is restored), so a pooled worker
 * never keeps a captured deadline into its next, unrelated task. Immutable; safe to restore on many threads.
 */
@SuppressWarnings("try") // scopes are opened for their effect on the thread's context
public final class ContextSnapshot {
    private static final ContextSnapshot EMPTY = new ContextSnapshot(null, null, List.of(), new Object[0]);

    private final @Nullable Deadline deadline;
    private final @Nullable IdempotencyKey idempotencyKey;
    private final List<ContextPropagator<?>> propagators;
    private final Object[] captured;

    private ContextSnapshot(@Nullable Deadline deadline, @Nullable IdempotencyKey idempotencyKey,
                            List<ContextPropagator<?>> propagators, Object[] captured) {
        this.deadline = deadline;
        this.idempotencyKey = idempotencyKey;
        this.propagators = propagators;
        this.captured = captured;
    }

    /**
     * Captures the current thread's deadline and idempotency key.
     *
     * @return the snapshot
     */
    public static ContextSnapshot capture() {
        Deadline current = Deadline.currentOrNull();
        IdempotencyKey key = IdempotencyKey.currentOrNull();
        return current == null && key == null ? EMPTY : new ContextSnapshot(current, key, List.of(), captured(List.of()));
    }

    /**
     * Captures the current thread's deadline, idempotency key and the contexts of {@code propagators}.
     *
     * @param propagators the application's propagators, restored in this order
     * @return the snapshot
     */
    public static ContextSnapshot capture(List<? extends ContextPropagator<?>> propagators) {
        Objects.requireNonNull(propagators, "propagators");
        List<ContextPropagator<?>> copy = List.copyOf(propagators);
        return new ContextSnapshot(Deadline.currentOrNull(), IdempotencyKey.currentOrNull(), copy, captured(copy));
    }

    private static Object[] captured(List<ContextPropagator<?>> propagators) {
        Object[] values = new Object[propagators.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = propagators.get(i).capture();
        }
        return values;
    }

    /**
     * The captured deadline.
     *
     * @return the deadline, or null if none was current
     */
    public @Nullable Deadline deadline() {
        return deadline;
    }

    /**
     * The captured idempotency key.
     *
     * @return the key, or null if none was current
     */
    public @Nullable IdempotencyKey idempotencyKey() {
        return idempotencyKey;
    }

    /**
     * Installs the captured context on the current thread.
     *
     * @return a scope that restores the thread's previous context, in reverse order
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public ContextScope attach() {
        // The key's scope is opened only when there is a key to install or one to hide: a snapshot
        // without a key restored on a thread without one costs nothing more than before keys existed.
        boolean restoreKey = idempotencyKey != null || IdempotencyKey.currentOrNull() != null;
        ContextScope[] scopes = new ContextScope[propagators.size() + (restoreKey ? 2 : 1)];
        scopes[0] = Deadline.restore(deadline);
        int opened = 1;
        try {
            if (restoreKey) {
                scopes[opened] = IdempotencyKey.restore(idempotencyKey);
                opened++;
            }
            for (int i = 0; i < propagators.size(); i++) {
                scopes[opened] = ((ContextPropagator) propagators.get(i)).restore(captured[i]);
                opened++;
            }
        } catch (RuntimeException | Error e) {
            try {
                closeAll(scopes, opened);
            } catch (RuntimeException | Error closing) {
                if (closing != e) {
                    e.addSuppressed(closing);
                }
            }
            throw e;
        }
        int count = opened;
        return () -> closeAll(scopes, count);
    }

    /**
     * Closes the scopes innermost first. Each close runs even if an earlier one threw, so a propagator
     * whose scope throws can never leave the captured deadline (scope 0, closed last) attached to a
     * pooled worker; the first exception is rethrown with the others suppressed.
     */
    private static void closeAll(ContextScope[] scopes, int count) {
        Throwable first = null;
        for (int i = count - 1; i >= 0; i--) {
            try {
                scopes[i].close();
            } catch (RuntimeException | Error e) {
                if (first == null) {
                    first = e;
                } else if (first != e) {
                    first.addSuppressed(e);
                }
            }
        }
        if (first instanceof RuntimeException) {
            throw (RuntimeException) first;
        }
        if (first != null) {
            throw (Error) first;
        }
    }

    /**
     * Wraps {@code task} to run inside this snapshot's context.
     *
     * @param task the task
     * @return the wrapped task
     */
    @SuppressWarnings("try") // the scope is held only for its close()
    public Runnable wrap(Runnable task) {
        Objects.requireNonNull(task, "task");
        return () -> {
            try (ContextScope ignored = attach()) {
                task.run();
            }
        };
    }

    /**
     * Wraps {@code task} to run inside this snapshot's context.
     *
     * @param task the task
     * @param <T> the result type
     * @return the wrapped task
     */
    @SuppressWarnings("try") // the scope is held only for its close()
    public <T> Callable<T> wrap(Callable<T> task) {
        Objects.requireNonNull(task, "task");
        return () -> {
            try (ContextScope ignored = attach()) {
                return task.call();
            }
        };
    }

    /**
     * Wraps {@code supplier} to run inside this snapshot's context.
     *
     * @param supplier the supplier
     * @param <T> the result type
     * @return the wrapped supplier
     */
    @SuppressWarnings("try") // the scope is held only for its close()
    public <T> Supplier<T> wrapSupplier(Supplier<T> supplier) {
        Objects.requireNonNull(supplier, "supplier");
        return () -> {
            try (ContextScope ignored = attach()) {
                return supplier.get();
            }
        };
    }

    /**
     * Wraps {@code function} to run inside this snapshot's context, for {@code thenApply}-style
     * continuations.
     *
     * @param function the function
     * @param <A> the argument type
     * @param <R> the result type
     * @return the wrapped function
     */
    @SuppressWarnings("try") // the scope is held only for its close()
    public <A, R> Function<A, R> wrap(Function<A, R> function) {
        Objects.requireNonNull(function, "function");
        return argument -> {
            try (ContextScope ignored = attach()) {
                return function.apply(argument);
            }
        };
    }

    /**
     * An executor that captures the submitting thread's deadline and idempotency key at each
     * {@code execute} and restores them around the task.
     *
     * @param executor the executor that runs the tasks
     * @return the propagating executor
     */
    public static Executor propagating(Executor executor) {
        return propagating(executor, List.of());
    }

    /**
     * An executor that captures the submitting thread's deadline, idempotency key and the contexts of
     * {@code propagators} at each {@code execute} and restores them around the task.
     *
     * @param executor the executor that runs the tasks
     * @param propagators the application's propagators
     * @return the propagating executor
     */
    public static Executor propagating(Executor executor, List<? extends ContextPropagator<?>> propagators) {
        Objects.requireNonNull(executor, "executor");
        return new PropagatingExecutor(executor, List.copyOf(propagators));
    }

    /**
     * Wraps each task with the submitter's context. It can take a queued task back from a pool it
     * wraps ({@link dev.levee.core.internal.RemovableExecutor}): a THREAD-mode timeout given this
     * executor removes a call it cancelled while queued, as it does from a plain pool.
     */
    private static final class PropagatingExecutor implements dev.levee.core.internal.RemovableExecutor {
        private final Executor delegate;
        private final List<ContextPropagator<?>> propagators;

        PropagatingExecutor(Executor delegate, List<ContextPropagator<?>> propagators) {
            this.delegate = delegate;
            this.propagators = propagators;
        }

        @Override
        public void execute(Runnable task) {
            delegate.execute(new PropagatingTask(capture(propagators), task));
        }

        @Override
        public boolean remove(Runnable task) {
            if (delegate instanceof java.util.concurrent.ThreadPoolExecutor) {
                for (Runnable queued : ((java.util.concurrent.ThreadPoolExecutor) delegate).getQueue()) {
                    if (queued instanceof PropagatingTask && ((PropagatingTask) queued).task == task) {
                        return ((java.util.concurrent.ThreadPoolExecutor) delegate).remove(queued);
                    }
                }
                return false;
            }
            return dev.levee.core.internal.RemovableExecutor.removeFrom(delegate, task);
        }

        @Override
        public String toString() {
            return "ContextSnapshot.propagating(" + delegate + ")";
        }
    }

    /** A task run inside a captured context; it keeps the task so a wrapper can find it again. */
    private static final class PropagatingTask implements Runnable {
        private final ContextSnapshot snapshot;
        final Runnable task;

        PropagatingTask(ContextSnapshot snapshot, Runnable task) {
            this.snapshot = snapshot;
            this.task = Objects.requireNonNull(task, "task");
        }

        @Override
        public void run() {
            try (ContextScope ignored = snapshot.attach()) {
                task.run();
            }
        }
    }
}
