package dev.levee.testing;

import dev.levee.core.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs a body on many threads that start together, and fails with every thread's failure if any
 * thread fails, or with a clear message if they do not all finish in time. The harness each module's
 * stress tests used to write for itself.
 *
 * <pre>{@code
 * Concurrently.run(16, thread -> {
 *     for (int i = 0; i < 10_000; i++) {
 *         if (bulkhead.tryAcquire(0L)) {
 *             bulkhead.onSuccess(0L);
 *         }
 *     }
 * });
 * }</pre>
 *
 * <p>Threads are platform threads named {@code concurrently-<i>}; they are daemons, so a test that
 * times out does not keep the JVM alive. The start is a latch released once every thread is ready,
 * so the bodies overlap as much as the scheduler allows.
 */
public final class Concurrently {
    /** The default 16 threads of Levee's stress tests. */
    public static final int THREADS = 16;

    /** How long {@link #run(int, Body)} waits for the threads before failing. */
    public static final long TIMEOUT_SECONDS = 60;

    private Concurrently() {}

    /**
     * A body run on each thread.
     */
    @FunctionalInterface
    public interface Body {
        /**
         * Runs on one thread.
         *
         * @param thread the thread's index in {@code [0, threads)}
         * @throws Exception anything; it fails the run
         */
        void run(int thread) throws Exception;
    }

    /**
     * Runs {@code body} on {@code threads} threads started together and waits for all of them.
     *
     * @param threads how many threads, at least 1
     * @param body what each thread runs
     * @throws AssertionError if a thread failed (the first failure, with the others suppressed) or
     *     the threads did not finish within {@link #TIMEOUT_SECONDS}
     * @throws InterruptedException if the calling thread is interrupted while waiting
     */
    public static void run(int threads, Body body) throws InterruptedException {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1 but was " + threads);
        }
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> started = new ArrayList<>(threads);
        for (int t = 0; t < threads; t++) {
            int index = t;
            Thread thread = new Thread(() -> {
                ready.countDown();
                try {
                    go.await();
                    body.run(index);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "concurrently-" + t);
            thread.setDaemon(true);
            started.add(thread);
            thread.start();
        }
        ready.await();
        go.countDown();
        // A safety bound on real threads (a hung test must fail, not hang CI), so real time, read
        // through core's ticker like every other clock read in Levee.
        Ticker clock = Ticker.system();
        long end = clock.read() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        for (Thread thread : started) {
            thread.join(Math.max(1L, TimeUnit.NANOSECONDS.toMillis(end - clock.read())));
            if (thread.isAlive()) {
                AssertionError hung = new AssertionError(thread.getName() + " did not finish within "
                        + TIMEOUT_SECONDS + " s (a lost wake-up or a livelock?)");
                hung.setStackTrace(thread.getStackTrace());
                throw hung;
            }
        }
        if (!failures.isEmpty()) {
            AssertionError failed = new AssertionError(failures.size() + " of " + threads + " threads failed",
                    failures.get(0));
            for (int i = 1; i < failures.size(); i++) {
                failed.addSuppressed(failures.get(i));
            }
            throw failed;
        }
    }

    /**
     * Runs {@code body} on {@link #THREADS} threads.
     *
     * @param body what each thread runs
     * @throws InterruptedException if the calling thread is interrupted while waiting
     */
    public static void run(Body body) throws InterruptedException {
        run(THREADS, body);
    }
}
