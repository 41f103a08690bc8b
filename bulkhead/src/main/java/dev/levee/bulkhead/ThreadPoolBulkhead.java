package dev.levee.bulkhead;

import dev.levee.core.internal.VirtualThreads;
import dev.levee.core.internal.Waits;
import dev.levee.core.BulkheadFullException;
import dev.levee.core.Chain;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.ContextScope;
import dev.levee.core.ContextSnapshot;
import dev.levee.core.Deadline;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.internal.EventListeners;
import dev.levee.core.Policy;
import dev.levee.core.Subscription;
import dev.levee.core.internal.Exceptions;
import dev.levee.core.internal.Nanos;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.function.IntFunction;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.jspecify.annotations.Nullable;

/**
 * A thread-pool bulkhead: calls run on the bulkhead's own bounded set of worker threads, so a
 * dependency that hangs ties up only those workers, never the caller's threads, and the caller can
 * stop waiting at any time.
 *
 * <p><b>Model.</b> A call is accepted if a worker is free or the bounded queue has room; otherwise it is
 * refused at once with a {@link BulkheadFullException}. There is never an unbounded queue. Accepted
 * calls return a {@link CompletionStage}. On platform threads the pool follows the
 * {@link ThreadPoolExecutor} rule: up to {@code coreThreads} threads, then the queue, then threads up to
 * {@code maxThreads}. With {@link ThreadPoolBulkheadConfig#virtualThreads()} each accepted call gets its
 * own virtual thread, at most {@code maxThreads} run at once and up to {@code queueCapacity} more wait
 * (parked, holding no carrier).
 *
 * <p><b>Context.</b> At submission the caller's current {@link Deadline} and the contexts of the
 * configured {@link dev.levee.core.ContextPropagator}s are captured; the worker runs the call inside
 * them and completes the returned stage while they are still installed, so a dependent stage that runs
 * on completion (a non-async {@code thenApply}) sees the caller's context too. A call whose deadline
 * passed while it was queued is not started: its stage fails with {@link DeadlineExceededException}.
 *
 * <p><b>Synchronous use.</b> {@link #execute(CheckedSupplier)} runs the call on a worker and blocks the
 * caller until it ends, at most until the current deadline (then the task is cancelled and the caller
 * gets {@link DeadlineExceededException}). Interrupting the waiting caller cancels the task, restores
 * the caller's interrupt flag and throws {@link BulkheadFullException}. What the call throws comes out
 * unchanged, the same instance.
 *
 * <p><b>Asynchronous calls.</b> {@link #executeAsync(Supplier)} creates the stage on a worker; the
 * worker is free again as soon as the stage is returned, so this isolates the stage's creation (often a
 * blocking client call), not its whole lifetime.
 *
 * <p><b>Closing.</b> {@link #close()} stops taking work at once, lets accepted work finish within
 * {@link ThreadPoolBulkheadConfig#closeGracePeriod()}, then interrupts what still runs and fails what
 * never started (with {@link BulkheadFullException}, also on virtual threads). It returns after at
 * most the grace period: a call that ignores the interrupt (a busy loop, an uninterruptible read) keeps
 * its worker thread until it ends, and {@code close()} does not wait for that.
 * {@link #closeAndAwait(Duration)} does: it closes and then waits for every worker thread to end, and
 * says whether they all did. Idle worker threads (core ones included) end after
 * {@link ThreadPoolBulkheadConfig#keepAlive()}, so a bulkhead that is idle, or never closed, holds no
 * thread.
 *
 * <p>A thread hop costs microseconds and allocates a task per call; prefer the semaphore
 * {@link Bulkhead} unless the caller must be able to walk away from a hung call.
 */
public final class ThreadPoolBulkhead implements Policy, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ThreadPoolBulkhead.class);

    private final ThreadPoolBulkheadConfig config;
    private final String name;
    private final List<dev.levee.core.ContextPropagator<?>> propagators;
    private final ExecutorService executor;
    /** The platform pool, or null on virtual threads. */
    private final @Nullable ThreadPoolExecutor pool;
    /** Virtual threads only: bounds running tasks. */
    private final @Nullable Semaphore running;
    /** Virtual threads only: accepted and not yet finished tasks, at most maxThreads + queueCapacity. */
    private final AtomicInteger admitted = new AtomicInteger();
    private final int virtualCapacity;
    private final AtomicInteger active = new AtomicInteger();
    private final LongAdder rejections = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final EventListeners<BulkheadEvent> listeners = new EventListeners<>();
    private volatile boolean closed;
    /** Set when the grace period is over: a task reaching a worker after this does not start. */
    private volatile boolean aborting;

    private ThreadPoolBulkhead(String name, ThreadPoolBulkheadConfig config) {
        this.name = dev.levee.core.internal.Validate.name("ThreadPoolBulkhead", name);
        this.config = dev.levee.core.internal.Validate.notNull(dev.levee.core.internal.Validate.describe("ThreadPoolBulkhead", name),
                "config", config);
        this.propagators = config.propagators();
        String prefix = config.threadNamePrefix() != null ? config.threadNamePrefix() : "levee-bulkhead-" + name + "-";
        if (config.virtualThreads()) {
            this.pool = null;
            this.executor = VirtualThreads.threadPerTaskExecutor(prefix);
            this.running = new Semaphore(config.maxThreads(), true);
            this.virtualCapacity = config.maxThreads() + config.queueCapacity();
        } else {
            IntFunction<? extends BlockingQueue<Runnable>> factory = config.workQueue();
            BlockingQueue<Runnable> queue = factory != null
                    ? Objects.requireNonNull(factory.apply(config.queueCapacity()), "the workQueue factory returned null")
                    : config.queueCapacity() == 0
                            ? new SynchronousQueue<>()
                            : new ArrayBlockingQueue<>(config.queueCapacity());
            // keepAlive capped: the config accepts any positive duration, and toNanos() overflows past 292 years.
            this.pool = new ThreadPoolExecutor(config.coreThreads(), config.maxThreads(),
                    Nanos.ofCapped(config.keepAlive()), TimeUnit.NANOSECONDS, queue, daemonThreads(prefix),
                    new ThreadPoolExecutor.AbortPolicy());
            // Idle core threads end after keepAlive too: a bulkhead that is idle (or never closed) holds
            // no thread; the next call starts one again.
            this.pool.allowCoreThreadTimeOut(true);
            this.executor = pool;
            this.running = null;
            this.virtualCapacity = 0;
        }
    }

    /**
     * A thread-pool bulkhead with the given configuration. It owns threads: close it.
     *
     * @param name the name, used in rejections, events, metrics and the worker threads' names
     * @param config the configuration, shareable
     * @return the bulkhead
     * @throws dev.levee.core.InvalidConfigException if the name is blank or the config null
     */
    public static ThreadPoolBulkhead of(String name, ThreadPoolBulkheadConfig config) {
        return new ThreadPoolBulkhead(name, config);
    }

    /**
     * A thread-pool bulkhead with the default configuration ({@link ThreadPoolBulkheadConfig#defaults()}).
     *
     * @param name the name
     * @return the bulkhead
     */
    public static ThreadPoolBulkhead ofDefaults(String name) {
        return new ThreadPoolBulkhead(name, ThreadPoolBulkheadConfig.defaults());
    }

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + counter.getAndIncrement());
            thread.setDaemon(true);
            return thread;
        };
    }

    @Override
    public String name() {
        return name;
    }

    /** @return the configuration */
    public ThreadPoolBulkheadConfig config() {
        return config;
    }

    /**
     * Runs {@code call} on a worker.
     *
     * @param call the call
     * @param <T> the result type
     * @return a stage completing with the call's result or with exactly what it threw; failed with
     *     {@link BulkheadFullException} if the bulkhead was full or closed. Cancelling it cancels the
     *     task, interrupting the worker if the call is running.
     */
    public <T> CompletableFuture<T> submit(CheckedSupplier<? extends T, ?> call) {
        java.util.Objects.requireNonNull(call, "call");
        TaskFuture<T> promise = new TaskFuture<>();
        try {
            enqueue(promise, p -> p.complete(call.get()));
        } catch (BulkheadFullException rejected) {
            promise.completeExceptionally(rejected);
        }
        return promise;
    }

    @Override
    public <T, E extends Throwable> T execute(Chain next, CheckedSupplier<T, E> call) throws E {
        TaskFuture<T> promise = new TaskFuture<>();
        enqueue(promise, p -> p.complete(next.proceed(call)));
        return await(promise);
    }

    @Override
    public <T> CompletionStage<T> executeAsync(Chain next, Supplier<? extends CompletionStage<T>> call) {
        TaskFuture<T> promise = new TaskFuture<>();
        try {
            enqueue(promise, p -> next.proceedAsync(call).whenComplete((value, failure) -> {
                if (failure != null) {
                    p.completeExceptionally(Exceptions.unwrap(failure));
                } else {
                    p.complete(value);
                }
            }));
        } catch (BulkheadFullException rejected) {
            promise.completeExceptionally(rejected);
        }
        return promise;
    }

    /** Blocks the caller for a synchronous execute: until done, the deadline, or an interrupt. */
    private <T> T await(TaskFuture<T> promise) {
        Deadline deadline = Deadline.currentOrNull();
        try {
            if (deadline == null) {
                return promise.get();
            }
            while (true) {
                long remaining = deadline.remainingNanos();
                if (remaining <= 0) {
                    promise.cancel(true);
                    throw new DeadlineExceededException(name, "ThreadPoolBulkhead '" + name
                            + "': the deadline passed while the call ran; it was cancelled", 0L);
                }
                try {
                    return promise.get(Waits.parkNanos(deadline.ticker(), remaining), TimeUnit.NANOSECONDS);
                } catch (TimeoutException notYet) {
                    // Re-read the deadline's ticker and wait again.
                }
            }
        } catch (InterruptedException e) {
            promise.cancel(true);
            Thread.currentThread().interrupt();
            throw new BulkheadFullException(name, "ThreadPoolBulkhead '" + name
                    + "': interrupted while waiting for the call; it was cancelled and the interrupt flag restored", 0L);
        } catch (ExecutionException e) {
            throw Exceptions.sneakyThrow(e.getCause());
        }
    }

    /** Work run on a worker; completes the promise. */
    @FunctionalInterface
    private interface Job<T> {
        void run(TaskFuture<T> promise) throws Throwable;
    }

    private <T> void enqueue(TaskFuture<T> promise, Job<T> job) {
        if (closed) {
            throw reject("closed");
        }
        if (running != null && !admitVirtual()) {
            throw reject("full: " + config.maxThreads() + " running and " + config.queueCapacity() + " queued");
        }
        Task<T> task = new Task<>(ContextSnapshot.capture(propagators), promise, job);
        promise.task = task;
        try {
            executor.execute(task);
        } catch (RejectedExecutionException e) {
            // The task never reaches the executor: unlink it so cancelling the failed stage cannot run
            // its done() and release an admission twice.
            promise.task = null;
            if (running != null) {
                admitted.decrementAndGet();
            }
            throw reject(closed || executor.isShutdown() ? "closed" : "full: " + active.get() + " running and "
                    + queueDepth() + " of " + config.queueCapacity() + " queue slots taken");
        }
    }

    private boolean admitVirtual() {
        while (true) {
            int current = admitted.get();
            if (current >= virtualCapacity) {
                return false;
            }
            if (admitted.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    private BulkheadFullException reject(String why) {
        rejections.increment();
        if (LOG.isDebugEnabled()) {
            LOG.debug("ThreadPoolBulkhead '{}' rejected a call: {}", name, why);
        }
        if (!listeners.isEmpty()) {
            listeners.publish(new BulkheadEvent.Rejected(name, config.ticker().read(), active.get(), config.maxThreads()));
        }
        return new BulkheadFullException(name, "ThreadPoolBulkhead '" + name + "' is " + why, 0L);
    }

    /**
     * Stops taking work and waits {@link ThreadPoolBulkheadConfig#closeGracePeriod()} for accepted work.
     */
    @Override
    public void close() {
        close(config.closeGracePeriod());
    }

    /**
     * Stops taking work at once; lets accepted work (running and queued) finish within {@code grace};
     * then interrupts running calls and fails queued ones with {@link BulkheadFullException}. Blocks up
     * to {@code grace}. If the calling thread is interrupted, it stops waiting, cancels at once and
     * restores the flag. Closing twice is harmless.
     *
     * @param grace how long to wait for accepted work
     * @return true if all accepted work finished within the grace period
     */
    public boolean close(Duration grace) {
        java.util.Objects.requireNonNull(grace, "grace");
        boolean first = !closed;
        closed = true;
        executor.shutdown();
        boolean finished;
        try {
            finished = executor.awaitTermination(Math.max(0L, Deadline.saturatedNanos(grace)), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            finished = false;
        }
        if (!finished) {
            aborting = true;
            List<Runnable> neverStarted = executor.shutdownNow();
            for (Runnable r : neverStarted) {
                if (r instanceof Task) {
                    ((Task<?>) r).abandon(reject("closed before the call started"));
                }
            }
            LOG.warn("ThreadPoolBulkhead '{}' closed after a grace period of {}: {} queued calls failed, "
                    + "running calls interrupted", name, grace, neverStarted.size());
        } else if (first) {
            LOG.info("ThreadPoolBulkhead '{}' closed", name);
        }
        if (first && !listeners.isEmpty()) {
            listeners.publish(new BulkheadEvent.Closed(name, config.ticker().read(), active.get(), config.maxThreads()));
        }
        return finished;
    }

    /**
     * Closes as {@link #close()} does and then waits up to {@code timeout} for every worker thread to
     * end, including workers still running a call that ignored the interrupt. If the calling thread is
     * interrupted while waiting, it stops waiting and its interrupt flag is restored.
     *
     * @param timeout the longest wait after the grace period, at least zero
     * @return true if no worker thread of this bulkhead is left
     */
    public boolean closeAndAwait(Duration timeout) {
        java.util.Objects.requireNonNull(timeout, "timeout");
        close();
        try {
            return executor.awaitTermination(Math.max(0L, Deadline.saturatedNanos(timeout)), TimeUnit.NANOSECONDS)
                    && (running == null || admitted.get() == 0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Waits for the workers to end after {@link #close()}.
     *
     * @param timeout the longest wait
     * @return true if every worker ended
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        return executor.awaitTermination(Deadline.saturatedNanos(timeout), TimeUnit.NANOSECONDS);
    }

    /** @return whether {@link #close()} was called */
    public boolean isClosed() {
        return closed;
    }

    /** @return calls running on a worker right now */
    public int activeCount() {
        return active.get();
    }

    /** @return calls accepted and waiting for a worker right now */
    public int queueDepth() {
        if (pool != null) {
            return pool.getQueue().size();
        }
        // Without a pool, the semaphore bounds the running calls (see the constructor).
        Semaphore slots = Objects.requireNonNull(running, "running");
        return Math.max(0, admitted.get() - (config.maxThreads() - slots.availablePermits()));
    }

    /** @return free queue slots right now */
    public int remainingQueueCapacity() {
        return Math.max(0, config.queueCapacity() - queueDepth());
    }

    /** @return worker threads alive right now (for virtual threads: the calls accepted and not finished) */
    public int threadCount() {
        return pool != null ? pool.getPoolSize() : admitted.get();
    }

    /** @return calls refused since creation */
    public long rejectedCount() {
        return rejections.sum();
    }

    /** @return calls that ran to completion (normally or by throwing) since creation */
    public long completedCount() {
        return completed.sum();
    }

    /** @return a snapshot of this bulkhead's figures */
    public ThreadPoolBulkheadMetrics metrics() {
        return new ThreadPoolBulkheadMetrics(config.maxThreads(), activeCount(), threadCount(), queueDepth(),
                config.queueCapacity(), rejectedCount(), completedCount());
    }

    /**
     * Registers a listener for this bulkhead's events.
     *
     * @param listener the listener
     * @return closing it unregisters the listener
     */
    public Subscription onEvent(Consumer<? super BulkheadEvent> listener) {
        return listeners.subscribe(listener);
    }

    @Override
    public String toString() {
        return "ThreadPoolBulkhead[" + name + ", active=" + active.get() + "/" + config.maxThreads() + ", queued="
                + queueDepth() + "/" + config.queueCapacity() + (closed ? ", closed" : "") + "]";
    }

    /** The stage handed to the caller; cancelling it cancels the task. */
    private static final class TaskFuture<T> extends CompletableFuture<T> {
        volatile @Nullable FutureTask<?> task;

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            FutureTask<?> t = task;
            if (t != null) {
                t.cancel(true);
            }
            return cancelled;
        }
    }

    /**
     * One accepted call. A {@link FutureTask} so that cancellation interrupts exactly this call's run,
     * never a later task on the same worker.
     */
    private final class Task<T> extends FutureTask<Void> {
        private final TaskFuture<T> promise;
        /**
         * Virtual threads: set by whichever of {@link #runIn} (the task started) and {@link #done()} (it
         * was cancelled before starting) comes first; that side returns the admission. A running task
         * that is cancelled keeps its admission until its call actually stops.
         */
        final java.util.concurrent.atomic.AtomicBoolean claimed = new java.util.concurrent.atomic.AtomicBoolean();

        Task(ContextSnapshot snapshot, TaskFuture<T> promise, Job<T> job) {
            this(new TaskBody<>(snapshot, promise, job), promise);
        }

        private Task(TaskBody<T> body, TaskFuture<T> promise) {
            super(body);
            this.promise = promise;
            body.task = this;
        }

        void abandon(BulkheadFullException why) {
            promise.completeExceptionally(why);
            cancel(false);
        }

        @Override
        protected void done() {
            if (running != null && claimed.compareAndSet(false, true)) {
                admitted.decrementAndGet(); // cancelled before it started: nothing else will return it
            }
            if (!promise.isDone()) {
                // Cancelled before the call ran (close, or the caller cancelled).
                promise.cancel(false);
            }
        }
    }

    /** The body of a {@link Task}; a class, not a lambda, so it can reach its task's admission claim. */
    private final class TaskBody<T> implements java.util.concurrent.Callable<Void> {
        private final ContextSnapshot snapshot;
        private final TaskFuture<T> promise;
        private final Job<T> job;
        /** Set right after construction, before the body can run; read only in the semaphore mode. */
        @Nullable Task<T> task;

        TaskBody(ContextSnapshot snapshot, TaskFuture<T> promise, Job<T> job) {
            this.snapshot = snapshot;
            this.promise = promise;
            this.job = job;
        }

        @Override
        public Void call() throws InterruptedException {
            boolean owns = running != null && Objects.requireNonNull(task, "task").claimed.compareAndSet(false, true);
            if (running != null && !owns) {
                return null; // cancelled (and its admission returned) before it started
            }
            try {
                runIn(snapshot, promise, job);
            } finally {
                if (owns) {
                    admitted.decrementAndGet(); // only now, when the call has really stopped
                }
            }
            return null;
        }
    }

    @SuppressWarnings("try")
    private <T> void runIn(ContextSnapshot snapshot, TaskFuture<T> promise, Job<T> job) throws InterruptedException {
        if (promise.isDone()) {
            return;
        }
        if (running != null) {
            try {
                running.acquire();
            } catch (InterruptedException e) {
                // Interrupted while waiting for a running slot: by close() past its grace period, or by
                // the caller cancelling. Either way the call never started: say so as documented.
                Thread.currentThread().interrupt();
                promise.completeExceptionally(new BulkheadFullException(name, "ThreadPoolBulkhead '" + name
                        + "' is " + (closed ? "closed" : "cancelled") + " before the call started", 0L));
                return;
            }
        }
        active.incrementAndGet();
        try (ContextScope ignored = snapshot.attach()) {
            if (aborting) {
                // Reached a worker (or, on virtual threads, a running slot) after the grace period.
                promise.completeExceptionally(new BulkheadFullException(name, "ThreadPoolBulkhead '" + name
                        + "' is closed before the call started", 0L));
                return;
            }
            Deadline deadline = snapshot.deadline();
            if (deadline != null && deadline.isExpired()) {
                promise.completeExceptionally(new DeadlineExceededException(name, "ThreadPoolBulkhead '" + name
                        + "': the deadline passed while the call was queued; it was not started", 0L));
                return;
            }
            try {
                job.run(promise);
            } catch (Throwable t) {
                // Complete inside the caller's context so dependent stages see it; an Error reaches the
                // caller through the stage (the worker survives), never swallowed.
                promise.completeExceptionally(t);
            }
            completed.increment();
        } finally {
            active.decrementAndGet();
            if (running != null) {
                running.release();
            }
        }
    }
}
