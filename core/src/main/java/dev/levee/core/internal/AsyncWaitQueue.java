package dev.levee.core.internal;

import dev.levee.core.Scheduler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Asynchronous waiters of an event-driven gate (a bulkhead slot, a concurrency-limit permit): the
 * non-blocking counterpart of a lock and condition. Not for users: may change without notice.
 *
 * <p><b>Model.</b> A caller that finds no permit {@linkplain #enqueue enqueues} a waiter and gets a
 * pending stage; nothing blocks. Whenever a permit may have been freed, the gate calls
 * {@link #drain}: it takes a permit on behalf of the oldest waiter (the newest, for a queue built
 * last-in first-out) and grants it. Each waiter's
 * maximum wait is a task on the {@link Scheduler}; when it fires first, the waiter is refused.
 *
 * <p><b>No Levee timer thread runs user code.</b> Stages are completed through the given
 * {@link Executor}, never inline: a grant found by a releasing thread or an expiry fired by the
 * scheduler hands the completion (and with it every dependent stage, the user's call included) to
 * the executor. The scheduler's task only hands the expiry to the executor.
 *
 * <p><b>No lost grant.</b> {@link #enqueue} adds the waiter and then drains once itself; a releaser
 * frees its permit and then drains. Of two such threads at least one sees the other's write, so a
 * permit freed while a waiter is being added is never left unused while that waiter waits.
 *
 * <p><b>A caller that gives up.</b> A waiter's stage completed by its caller (cancelled, or failed by
 * {@code orTimeout}) leaves the queue at once, like an expiry. A drain may have decided to grant it just
 * before: its permit is then given back (and the waiters drained again) when the completion finds the
 * stage already done. Either way a permit is never granted to a stage nobody will release it from.
 */
public final class AsyncWaitQueue {
    private static final int WAITING = 0;
    private static final int GRANTED = 1;
    private static final int EXPIRED = 2;

    /** The permits the waiters wait for. */
    public interface Permits {
        /**
         * Takes one permit if one is free now, ignoring waiters (the queue is what decides the order).
         *
         * @return true if taken
         */
        boolean tryTake();

        /** Gives back a permit taken by {@link #tryTake()} that no waiter could use. */
        void giveBack();

        /**
         * A waiter left the queue (granted or expired), before its stage is completed. The default does
         * nothing; a gate that counts its waiters lowers the count here.
         */
        default void waiterLeft() {}
    }

    private final ConcurrentLinkedDeque<Waiter> queue = new ConcurrentLinkedDeque<>();
    private final AtomicInteger size = new AtomicInteger();
    private final Scheduler scheduler;
    private final Executor executor;
    private final boolean lifo;

    /**
     * A first-in first-out queue.
     *
     * @param scheduler runs the expiry of each wait
     * @param executor completes the waiters' stages (dependent stages run there)
     */
    public AsyncWaitQueue(Scheduler scheduler, Executor executor) {
        this(scheduler, executor, false);
    }

    /**
     * @param scheduler runs the expiry of each wait
     * @param executor completes the waiters' stages (dependent stages run there)
     * @param lifo true to grant the newest waiter first (adaptive LIFO), false for the oldest first
     */
    public AsyncWaitQueue(Scheduler scheduler, Executor executor, boolean lifo) {
        this.scheduler = scheduler;
        this.executor = executor;
        this.lifo = lifo;
    }

    /**
     * The executor {@link CompletableFuture} uses for its {@code *Async} methods: the common
     * fork-join pool, or a thread per task when that pool has a single thread. The default place where
     * Levee completes asynchronous waits.
     *
     * @return the default executor
     */
    public static Executor defaultExecutor() {
        return ForkJoinPool.getCommonPoolParallelism() > 1
                ? ForkJoinPool.commonPool()
                : task -> new Thread(task, "levee-async").start();
    }

    /**
     * Waiters in the queue right now.
     *
     * @return the count
     */
    public int size() {
        return size.get();
    }

    /**
     * Adds a waiter that is granted a permit by a later {@link #drain}, or refused after
     * {@code maxWaitNanos} with what {@code refusal} builds (run on the executor).
     *
     * @param maxWaitNanos how long the waiter may wait, positive
     * @param permits the gate's permits
     * @param refusal builds the refusal when the wait ends unfulfilled; runs on the executor
     * @return a stage completed (on the executor) when the permit is granted or the wait ends
     */
    public CompletableFuture<Void> enqueue(long maxWaitNanos, Permits permits, Supplier<? extends Throwable> refusal) {
        Waiter waiter = new Waiter(refusal, permits);
        waiter.future.whenComplete((ignored, failure) -> {
            if (failure != null) {
                abandoned(waiter); // the caller gave up (cancel, orTimeout); a no-op after an expiry
            }
        });
        queue.add(waiter);
        size.incrementAndGet();
        waiter.timer = scheduler.schedule(() -> {
            if (!handOff(() -> expire(waiter))) {
                expire(waiter); // the executor is gone: refusing here beats a waiter that never ends
            }
        }, maxWaitNanos);
        if (waiter.state.get() != WAITING) {
            waiter.timer.cancel();
        }
        drain(permits);
        return waiter.future;
    }

    /**
     * Grants free permits to waiters, oldest first (newest first if last-in first-out), until no
     * permit or no waiter is left. Call it
     * after every release (when {@link #size()} is non-zero).
     *
     * @param permits the gate's permits
     */
    public void drain(Permits permits) {
        Waiter waiter;
        while ((waiter = lifo ? queue.peekLast() : queue.peekFirst()) != null) {
            if (waiter.state.get() != WAITING) {
                queue.remove(waiter);
                continue;
            }
            if (!permits.tryTake()) {
                return;
            }
            if (leave(waiter, GRANTED)) {
                Waiter granted = waiter;
                if (!handOff(() -> complete(granted, permits))) {
                    permits.giveBack();
                    granted.future.completeExceptionally(new RejectedExecutionException(
                            "the executor that completes asynchronous waits rejected the grant"));
                }
            } else {
                permits.giveBack();
            }
        }
    }

    /**
     * The time-driven counterpart of {@link #enqueue}, for a gate that knows when its permit will be
     * free (a rate limiter that booked it): a stage completed after {@code delayNanos}. The scheduler's
     * task only hands the completion to {@code executor}, so dependent stages (the user's call) never
     * run on a Levee timer thread.
     *
     * @param scheduler runs the delay
     * @param executor completes the stage
     * @param delayNanos the wait, positive
     * @return a stage completed on {@code executor} after the delay
     */
    public static CompletableFuture<Void> after(Scheduler scheduler, Executor executor, long delayNanos) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        scheduler.schedule(() -> {
            try {
                executor.execute(() -> done.complete(null));
            } catch (RejectedExecutionException e) {
                done.completeExceptionally(e);
            }
        }, delayNanos);
        return done;
    }

    /** Completes a granted waiter's stage; if its caller gave up meanwhile, the permit is nobody's: back it goes. */
    private void complete(Waiter granted, Permits permits) {
        if (!granted.future.complete(null)) {
            permits.giveBack();
            drain(permits);
        }
    }

    /** A waiter whose caller completed its stage leaves the queue, unless it was granted or expired first. */
    private void abandoned(Waiter waiter) {
        leave(waiter, EXPIRED);
    }

    private void expire(Waiter waiter) {
        if (leave(waiter, EXPIRED)) {
            waiter.future.completeExceptionally(waiter.refusal.get());
        }
    }

    /**
     * Takes {@code waiter} out of the queue with {@code outcome} (granted or expired) if it is still
     * waiting, and disarms its timer (a no-op when the timer is what expired it); false if another
     * outcome came first. The one place a waiter leaves, so the queue, the size and the gate's waiter
     * count move together.
     */
    private boolean leave(Waiter waiter, int outcome) {
        if (!waiter.state.compareAndSet(WAITING, outcome)) {
            return false;
        }
        queue.remove(waiter);
        size.decrementAndGet();
        waiter.permits.waiterLeft();
        Scheduler.Cancellable timer = waiter.timer;
        if (timer != null) {
            timer.cancel();
        }
        return true;
    }

    private boolean handOff(Runnable completion) {
        try {
            executor.execute(completion);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    private static final class Waiter {
        final CompletableFuture<Void> future = new CompletableFuture<>();
        final AtomicInteger state = new AtomicInteger(WAITING);
        final Supplier<? extends Throwable> refusal;
        final Permits permits;
        volatile Scheduler.@Nullable Cancellable timer;

        Waiter(Supplier<? extends Throwable> refusal, Permits permits) {
            this.refusal = refusal;
            this.permits = permits;
        }
    }
}
