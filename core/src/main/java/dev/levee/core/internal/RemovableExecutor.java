package dev.levee.core.internal;

import java.util.concurrent.Executor;

/**
 * An executor that can take back a task it has not started, like
 * {@link java.util.concurrent.ThreadPoolExecutor#remove(Runnable)}, also when it wraps each task before
 * queueing it. A THREAD-mode timeout uses it to remove a call it cancelled while queued. Not for
 * users: may change without notice.
 */
public interface RemovableExecutor extends Executor {

    /**
     * Removes {@code task} (as given to {@link #execute}) if it is still queued.
     *
     * @param task the task
     * @return true if it was removed and will not run
     */
    boolean remove(Runnable task);

    /**
     * Removes a queued task from {@code executor} if it is a {@link java.util.concurrent.ThreadPoolExecutor}
     * or a {@code RemovableExecutor}; otherwise does nothing.
     *
     * @param executor any executor
     * @param task the task as given to {@code executor.execute}
     * @return true if it was removed
     */
    static boolean removeFrom(Executor executor, Runnable task) {
        if (executor instanceof java.util.concurrent.ThreadPoolExecutor) {
            return ((java.util.concurrent.ThreadPoolExecutor) executor).remove(task);
        }
        if (executor instanceof RemovableExecutor) {
            return ((RemovableExecutor) executor).remove(task);
        }
        return false;
    }
}
