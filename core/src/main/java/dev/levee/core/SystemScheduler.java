package dev.levee.core;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** The shared one-thread daemon scheduler; cancelled tasks are removed at once so they cannot pile up. */
final class SystemScheduler implements Scheduler {
    static final SystemScheduler INSTANCE = new SystemScheduler();

    private final ScheduledThreadPoolExecutor executor;

    private SystemScheduler() {
        executor = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "levee-scheduler");
            thread.setDaemon(true);
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
    }

    @Override
    public Cancellable schedule(Runnable task, long delayNanos) {
        var future = executor.schedule(task, Math.max(0L, delayNanos), TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
    }

    @Override
    public String toString() {
        return "Scheduler.system()";
    }
}
