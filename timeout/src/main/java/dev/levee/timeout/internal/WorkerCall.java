package dev.levee.timeout.internal;

import dev.levee.core.Chain;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.ContextScope;
import dev.levee.core.ContextSnapshot;
import dev.levee.core.Deadline;
import dev.levee.core.internal.Exceptions;
import java.util.concurrent.Callable;

/**
 * The body of a THREAD-mode call on its worker: installs the caller's captured context, attaches the
 * call's deadline on top (the earlier of the two stays current), runs the rest of the chain, and
 * restores the worker's own context afterwards so a pooled thread carries nothing to its next task.
 *
 * <p>Whatever the chain throws — a checked exception, an {@link Error}, any {@link Throwable} — is
 * rethrown unchanged; the {@link java.util.concurrent.FutureTask} around it stores it as the cause of
 * an {@code ExecutionException}, from which the caller takes the same instance.
 *
 * @param <T> the result type
 * @param <E> the call's checked exception type
 */
@SuppressWarnings("try") // scopes are opened for their effect on the thread context
public final class WorkerCall<T, E extends Throwable> implements Callable<T> {
    private final Chain next;
    private final CheckedSupplier<T, E> call;
    private final ContextSnapshot snapshot;
    private final Deadline deadline;

    /**
     * @param next the rest of the chain
     * @param call the user's call
     * @param snapshot the caller's context
     * @param deadline the call's deadline
     */
    public WorkerCall(Chain next, CheckedSupplier<T, E> call, ContextSnapshot snapshot, Deadline deadline) {
        this.next = next;
        this.call = call;
        this.snapshot = snapshot;
        this.deadline = deadline;
    }

    @Override
    public T call() {
        try (ContextScope callerContext = snapshot.attach();
             ContextScope callDeadline = deadline.attach()) {
            return next.proceed(call);
        } catch (Throwable t) {
            throw Exceptions.sneakyThrow(t);
        }
    }
}
