package dev.levee.timeout;

import dev.levee.core.internal.Validate;
import dev.levee.core.internal.VirtualThreads;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The executors a {@link Timeout} in {@link TimeoutMode#THREAD} mode runs calls on.
 *
 * <p><b>The default</b>, {@link #defaultExecutor()}, is chosen once, at run time:
 * <ul>
 *   <li>on a JDK with virtual threads (21 and later): one new virtual thread per call, named
 *       {@code levee-timeout-N}. A virtual thread blocked in I/O costs a few hundred bytes, not a
 *       platform thread, so there is no pool to size and no queue to wait in;</li>
 *   <li>on JDK 17: {@link #boundedDaemonPool(int)} of {@value #DEFAULT_POOL_SIZE} daemon threads.
 *       Threads are created on demand and die after {@value #KEEP_ALIVE_SECONDS} s idle; when all are
 *       busy, calls queue, and a queued call whose deadline passes is removed without ever running.</li>
 * </ul>
 * The choice is made by reflection on {@code Thread.ofVirtual()}, so the library is compiled for,
 * and runs on, Java 17.
 *
 * <p>Any {@link Executor} works; Levee never shuts down an executor it did not create. Give a
 * dependency its own executor to keep one slow dependency from starving the others of pool threads
 * on JDK 17.
 */
public final class TimeoutExecutors {
    /** Threads of the default JDK 17 pool. */
    public static final int DEFAULT_POOL_SIZE = 256;
    /** Seconds an idle pool thread lives. */
    public static final long KEEP_ALIVE_SECONDS = 30;

    private TimeoutExecutors() {}

    /**
     * Virtual threads when the JDK has them, otherwise the shared bounded daemon pool.
     *
     * @return the shared default executor
     */
    public static Executor defaultExecutor() {
        return Default.EXECUTOR;
    }

    /**
     * Whether this JDK has virtual threads, i.e. whether {@link #defaultExecutor()} uses them.
     *
     * @return true on JDK 21 and later
     */
    public static boolean virtualThreadsAvailable() {
        return VirtualThreads.supported();
    }

    /**
     * One new virtual thread per task.
     *
     * @return the executor
     * @throws UnsupportedOperationException on a JDK without virtual threads
     */
    public static Executor virtualThreadPerTask() {
        ThreadFactory factory = VirtualThreads.factoryOrNull("levee-timeout-");
        if (factory == null) {
            throw new UnsupportedOperationException("virtual threads need JDK 21 or later; this is "
                    + Runtime.version());
        }
        return new VirtualThreadExecutor(factory);
    }

    /**
     * A new pool of at most {@code threads} daemon platform threads named {@code levee-timeout-N},
     * created on demand and retired after {@value #KEEP_ALIVE_SECONDS} s idle; extra tasks queue.
     * The caller owns it and may shut it down.
     *
     * @param threads the maximum number of threads; at least 1
     * @return the pool
     */
    public static ThreadPoolExecutor boundedDaemonPool(int threads) {
        Validate.positive("TimeoutExecutors", "threads", threads);
        AtomicLong counter = new AtomicLong();
        ThreadFactory factory = runnable -> {
            Thread thread = new Thread(runnable, "levee-timeout-" + counter.getAndIncrement());
            thread.setDaemon(true);
            return thread;
        };
        // core == max with core timeout: threads are created up to the bound before anything queues,
        // and an idle pool shrinks to zero threads.
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), factory);
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** Starts each task on a new virtual thread. */
    private static final class VirtualThreadExecutor implements Executor {
        private final ThreadFactory factory;

        VirtualThreadExecutor(ThreadFactory factory) {
            this.factory = factory;
        }

        @Override
        public void execute(Runnable task) {
            factory.newThread(task).start();
        }

        @Override
        public String toString() {
            return "TimeoutExecutors.virtualThreadPerTask()";
        }
    }

    /** Holder: the default is built on first use, not when the class loads. */
    private static final class Default {
        static final Executor EXECUTOR = VirtualThreads.supported()
                ? virtualThreadPerTask()
                : boundedDaemonPool(DEFAULT_POOL_SIZE);
    }
}
