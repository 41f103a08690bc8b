package dev.levee.core.internal;

import dev.levee.core.ContextScope;
import org.jspecify.annotations.Nullable;

/**
 * One entry of a per-thread stack of context values (the current {@code Deadline}, the current
 * {@code IdempotencyKey}): opened on a thread on top of the scope that was current, closed on the same
 * thread in reverse order of opening (try-with-resources does both), which makes its parent current
 * again.
 *
 * <p>Misuse is reported with an {@link IllegalStateException} and never leaves a stale value behind:
 * <ul>
 *   <li>closed out of order (a scope opened after it is still open): this scope is marked closed and
 *       stops applying at once; the inner scopes keep their values; closing them later restores the
 *       first open scope below;</li>
 *   <li>closed on another thread: this scope is marked closed, and the owner thread skips it at its
 *       next lookup (a thread-local cannot be changed from outside), with {@link #firstOpen}.</li>
 * </ul>
 * A second close does nothing.
 *
 * @param <S> the concrete scope type
 */
public abstract class StackedScope<S extends StackedScope<S>> implements ContextScope {
    private final @Nullable S parent;
    private final Thread owner = Thread.currentThread();
    private volatile boolean closed;

    /**
     * Creates a scope on top of {@code parent}; the caller then makes it the thread's current scope.
     *
     * @param parent the scope that was current on this thread, or null
     */
    protected StackedScope(@Nullable S parent) {
        this.parent = parent;
    }

    /**
     * The scope that was current when this one opened (possibly closed since).
     *
     * @return the parent, or null at the bottom of the stack
     */
    public final @Nullable S parent() {
        return parent;
    }

    /**
     * Whether this scope was closed (in turn, out of order, or from another thread).
     *
     * @return true once closed
     */
    public final boolean isClosed() {
        return closed;
    }

    /**
     * The first scope that is not closed, from {@code scope} down its parents.
     *
     * @param scope the scope to start from, or null
     * @param <S> the scope type
     * @return the first open scope, or null if there is none
     */
    public static <S extends StackedScope<S>> @Nullable S firstOpen(@Nullable S scope) {
        S s = scope;
        while (s != null && s.isClosed()) {
            s = s.parent();
        }
        return s;
    }

    /**
     * The thread-local that holds the innermost scope of this kind.
     *
     * @return the thread's stack
     */
    protected abstract ThreadLocal<S> stack();

    /**
     * What the scope makes current, for messages (e.g. {@code "Deadline"}).
     *
     * @return the name of the context value
     */
    protected abstract String kind();

    @Override
    public final void close() {
        if (closed) {
            return;
        }
        closed = true;
        Thread current = Thread.currentThread();
        if (current != owner) {
            throw new IllegalStateException(kind() + " scope must be closed on the thread that opened it ("
                    + owner.getName() + ") but was closed on " + current.getName() + "; its "
                    + kind() + " no longer applies on " + owner.getName());
        }
        ThreadLocal<S> stack = stack();
        S top = stack.get();
        while (top != null && top != this && top.isClosed()) {
            top = top.parent();
        }
        if (top == this) {
            stack.set(firstOpen(parent));
            return;
        }
        throw new IllegalStateException(kind() + " scopes must be closed in reverse order of opening: " + this
                + " was closed while a scope opened after it is still open; its " + kind()
                + " no longer applies and the inner scopes keep theirs");
    }
}
