package dev.levee.core;

import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs a task after a delay without blocking a thread meanwhile: asynchronous backoffs, timeouts of
 * {@code CompletionStage}s, a breaker's optional automatic transition.
 *
 * <p>Tasks run on the scheduler's thread and must be short: complete a future, start the next
 * attempt. {@link #system()} is one shared daemon thread; {@link #of(ScheduledExecutorService)}
 * adapts an executor the application owns; {@link ManualScheduler} runs tasks when a
 * {@link ManualTicker} is advanced, for tests.
 */
@FunctionalInterface
public interface Scheduler {

    /**
     * Schedules {@code task} to run once after {@code delayNanos}.
     *
     * @param task what to run
     * @param delayNanos the delay in nanoseconds; zero or negative runs as soon as possible
     * @return a handle that cancels the task if it has not started
     */
    Cancellable schedule(Runnable task, long delayNanos);

    /**
     * The shared scheduler: one daemon thread named {@code levee-scheduler}, created on first use.
     *
     * @return the shared scheduler
     */
    static Scheduler system() {
        return SystemScheduler.INSTANCE;
    }

    /**
     * Adapts an application-owned executor. Levee never shuts it down.
     *
     * @param executor the executor
     * @return a scheduler backed by {@code executor}
     */
    static Scheduler of(ScheduledExecutorService executor) {
        Objects.requireNonNull(executor, "executor");
        return (task, delayNanos) -> {
            var future = executor.schedule(task, Math.max(0L, delayNanos), TimeUnit.NANOSECONDS);
            return () -> future.cancel(false);
        };
    }

    /** A handle on a scheduled task. */
    @FunctionalInterface
    interface Cancellable {
        /**
         * Cancels the task if it has not started.
         *
         * @return true if this call prevented the task from running
         */
        boolean cancel();
    }
}
