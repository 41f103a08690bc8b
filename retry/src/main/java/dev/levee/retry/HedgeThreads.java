package dev.levee.retry;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The default executor of synchronous hedges: cached daemon threads, created on first use, idle ones retire after 60 s. */
final class HedgeThreads {
    private HedgeThreads() {}

    private static final class Holder {
        static final ExecutorService POOL = create();

        private static ExecutorService create() {
            AtomicInteger count = new AtomicInteger();
            return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), task -> {
                Thread thread = new Thread(task, "levee-hedge-" + count.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            });
        }
    }

    static ExecutorService shared() {
        return Holder.POOL;
    }
}
