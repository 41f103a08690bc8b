package dev.levee.timeout;

import dev.levee.core.BulkheadFullException;
import dev.levee.core.Chain;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.ContextPropagator;
import dev.levee.core.ContextScope;
import dev.levee.core.ContextSnapshot;
import dev.levee.core.Deadline;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.internal.EventListeners;
import dev.levee.core.Policy;
import dev.levee.core.PolicyRegistry;
import dev.levee.core.Scheduler;
import dev.levee.core.Subscription;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import dev.levee.core.internal.Exceptions;
import dev.levee.core.internal.RemovableExecutor;
import dev.levee.timeout.internal.AsyncTimeoutStage;
import dev.levee.core.internal.Nanos;
import dev.levee.timeout.internal.InterruptTimer;
import dev.levee.timeout.internal.SharedTimerWheel;
import dev.levee.timeout.internal.TimerWheel;
import dev.levee.timeout.internal.WorkerCall;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds how long a call may take: a wrapper policy that returns to the caller at the deadline with
 * a {@link DeadlineExceededException}, whether or not the call has finished.
 *
 * <p><b>The effective timeout.</b> Each call runs under
 * <pre>
 *   effective = min(timeout, current.remaining - reserve)      (just timeout when no deadline is current)
 * </pre>
 * where {@code timeout} is the configured one (or the {@link AdaptiveTimeout}'s current value),
 * {@code current} is the {@linkplain Deadline#currentOrNull() current deadline} — the caller's whole
 * budget, perhaps decoded from an incoming request by {@link DeadlinePropagation} — and
 * {@code reserve} is time the caller keeps for its own work after the call. If
 * {@code effective < max(minimumRemaining, 1 ns)}, the call is not started at all and the caller gets
 * a {@link DeadlineExceededException} at once: work that cannot finish in time is not worth starting.
 * Inside the call, {@code now + effective} is the current deadline, so nested policies and outgoing
 * requests see the tighter limit.
 *
 * <p><b>Synchronous calls</b>, by {@link TimeoutMode}:
 * <ul>
 *   <li>{@link TimeoutMode#THREAD} (default): the call runs on a worker from the configured executor
 *       (virtual threads on JDK 21+, a bounded daemon pool on 17) inside the caller's captured context
 *       (its deadline and the configured {@link ContextPropagator}s) plus the call's deadline. The
 *       caller waits and the deadline is armed before the call starts, so a started call always has
 *       its deadline (on manual time, advancing by the timeout fires it). If the call finishes first, its result
 *       or exception comes out unchanged (the same instance; an {@link Error} too). If the deadline
 *       comes first, the caller gets the rejection and the worker is interrupted
 *       ({@code interruptOnTimeout}, default true); a call still queued for a pool thread never runs.
 *       This bounds any blocking call, even one that never looks at the clock — what resilience4j's
 *       {@code TimeLimiter} cannot do for a plain synchronous call. No task outlives its call by more
 *       than the time the call takes to react to the interrupt.</li>
 *   <li>{@link TimeoutMode#COOPERATIVE}: the call runs on the caller's thread with its deadline
 *       attached; it stops at the first {@link #checkpoint()} (or Levee policy, or client timeout
 *       mapped from the deadline) past the deadline. No thread hop; a call that never checks is not
 *       bounded, and a call that finishes late returns its result normally.</li>
 *   <li>{@link TimeoutMode#INTERRUPT}: the call runs on the caller's thread with its deadline attached,
 *       and a shared timer wheel (1 ms ticks on the {@link Scheduler}) interrupts that thread at the
 *       deadline, never before it. If the call returns before the timer fires, its result or exception
 *       comes out unchanged and the thread's interrupt flag was never touched. If the timer fired, the
 *       caller gets a {@link DeadlineExceededException} (the call's own exception, if any, as its
 *       cause; an {@link Error} is rethrown as it is), even if the call returned a value after the
 *       interrupt. Bounds any call that stops when interrupted; a call that ignores interrupts runs to
 *       its end (use THREAD mode for those).
 *       <p><b>The interrupt flag afterwards.</b> The timer's interrupt never leaks past the call: when
 *       the timer has interrupted the thread, the flag is cleared before the caller returns (the timer
 *       firing just after the call returned included: the caller waits for the delivery, then takes it
 *       back). An interrupt from anyone else is kept: one pending when the timer fires is left alone
 *       (the timer does not interrupt then, and the flag is not cleared); one that arrives after the
 *       call consumed the timer's interrupt (it threw {@link InterruptedException}) is kept. The one
 *       case Levee cannot tell apart: another thread interrupting in the instants between the timer's
 *       interrupt and the call's return while the timer's interrupt is still pending. The flag is one
 *       bit, so the two are the same interrupt, and it is cleared. (The rule for a call that throws
 *       {@link InterruptedException} also means that a call that restores the timer's interrupt and
 *       then rethrows the {@code InterruptedException} itself leaves the flag set: the convention is
 *       to do one or the other.)</li>
 * </ul>
 *
 * <p><b>Interrupting the waiting caller</b> (THREAD mode) cancels the worker (with interrupt), restores
 * the caller's interrupt flag and throws a {@link CancellationException} whose cause is the
 * {@link InterruptedException}; a result that arrives at the same instant is discarded.
 *
 * <p><b>Asynchronous calls</b> ({@code executeAsync}): the returned stage completes with the call's
 * stage's outcome, unchanged, or exceptionally with the rejection at the deadline, which then cancels
 * the underlying future ({@code interruptOnTimeout}). The deadline is a timer on the timer wheel INTERRUPT
 * mode uses (1 ms ticks run on the {@link Scheduler}; one wheel shared by every timeout on the system
 * clock): armed and disarmed with a CAS each, never early, late by at most one tick plus the
 * scheduler's delay. The wheel's thread only hands the deadline to the configured
 * {@code asyncExecutor}: the stage's dependents (user code) never run on a Levee timer thread. Cancelling the returned
 * stage cancels the underlying one.
 *
 * <p><b>Classification.</b> A {@link DeadlineExceededException} is a failure for the circuit breaker
 * and retry by default ({@link dev.levee.core.Classifier#defaults()}), so put the timeout inside them:
 * {@code Pipeline.of(retry, breaker, timeout)}. If the configured executor rejects the task, the caller
 * gets a {@link BulkheadFullException}.
 *
 * <p><b>Knobs</b> ({@link TimeoutConfig}; defaults in its table): {@code timeout} 5 s (seed 003),
 * {@code mode} THREAD (INTERRUPT requires {@code interruptOnTimeout}), {@code interruptOnTimeout} true,
 * {@code reserve} 0, {@code minimumRemaining}
 * 1 ms, an optional {@link AdaptiveTimeout}, the executor, ticker and scheduler.
 *
 * <p><b>Cost.</b> INTERRUPT mode reads the ticker once, allocates a 40-byte timer and (without a
 * tighter current deadline) the attached deadline and its scope, and arms and disarms the timer with
 * a CAS each (O(1), whatever the number of pending timeouts). COOPERATIVE mode takes no lock and reads the ticker once per call (twice when a
 * listener or an adaptive timeout needs the latency). It allocates the attached deadline and its scope
 * (56 bytes in all, measured) only when the deadline is tighter than the current one; under a binding
 * request deadline it allocates nothing. THREAD mode costs a task, a thread hop and a scheduled timer per call.
 * An asynchronous call reads the ticker once, allocates the returned stage (also the outcome's callback
 * and the executor's task), its 40-byte timer and (without a tighter current deadline) the attached
 * deadline and its scope, and arms and disarms the timer with a CAS each. Thread-safe.
 */
@SuppressWarnings("try") // scopes are opened for their effect on the current deadline
public final class Timeout implements Policy {
    /*
     * Implementation notes (for maintainers).
     *
     * THREAD mode registers its timer on the Scheduler before handing the task to the executor, so the
     * call can never run unarmed (a test on manual time needs no spin). With the system ticker and
     * the system scheduler, the caller's own timed wait (FutureTask.get with a timeout) is the timer:
     * no scheduler round trip. A task cancelled while queued is removed from a ThreadPoolExecutor at
     * once; other executors cannot remove it, but a cancelled FutureTask drops its callable.
     *
     * COOPERATIVE mode reuses the current deadline when it is already the call's (no reserve cut it),
     * so under a binding request deadline nothing is allocated.
     */
    private static final Logger LOG = LoggerFactory.getLogger(Timeout.class);
    /** The scope of a deadline that was already current: closing it has nothing to restore. */
    private static final ContextScope NO_SCOPE = () -> { };
    private static final VarHandle WHEEL;

    static {
        try {
            WHEEL = MethodHandles.lookup().findVarHandle(Timeout.class, "wheel", TimerWheel.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    private final TimeoutConfig config;
    private final Ticker ticker;
    private final Scheduler scheduler;
    private final Executor executor;
    private final TimeoutMode mode;
    private final boolean interrupt;
    private final long timeoutNanos;
    private final long reserveNanos;
    private final long minimumNanos;
    private final @Nullable AdaptiveTimeout adaptive;
    private final List<ContextPropagator<?>> propagators;
    /**
     * The timers of INTERRUPT mode and of asynchronous calls: the shared wheel on the system clock, else
     * one of this timeout's own. Set at construction in INTERRUPT mode, else on the first asynchronous
     * call (see {@link #wheel()}).
     */
    private volatile @Nullable TimerWheel wheel;
    /** THREAD mode on real time: the caller waits with a timed park instead of a scheduled timer. */
    private final boolean timedWait;
    private final EventListeners<TimeoutEvent> listeners = new EventListeners<>();
    private final AsyncOutcomes asyncOutcomes = new AsyncOutcomes();

    private final LongAdder successes = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final LongAdder timeouts = new LongAdder();
    private final LongAdder rejectedBeforeStart = new LongAdder();
    private final LongAdder executorRejections = new LongAdder();
    private final LongAdder interruptions = new LongAdder();
    private final AtomicLong lastEffectiveNanos = new AtomicLong();

    private Timeout(String name, TimeoutConfig config) {
        this.name = Validate.name("Timeout", name);
        this.config = Validate.notNull(Validate.describe("Timeout", name), "config", config);
        this.ticker = config.ticker();
        this.scheduler = config.scheduler();
        this.executor = config.executor();
        this.mode = config.mode();
        this.interrupt = config.interruptOnTimeout();
        this.timeoutNanos = config.timeoutNanos();
        this.reserveNanos = config.reserveNanos();
        this.minimumNanos = Math.max(1L, config.minimumRemainingNanos());
        this.adaptive = config.adaptive();
        this.propagators = config.propagators();
        this.timedWait = ticker == Ticker.system() && scheduler == Scheduler.system();
        this.wheel = mode == TimeoutMode.INTERRUPT ? SharedTimerWheel.forClock(ticker, scheduler) : null;
        this.lastEffectiveNanos.set(adaptive != null ? adaptive.timeoutNanos() : timeoutNanos);
    }

    /**
     * A THREAD-mode timeout with every other default.
     *
     * @param name the name, for rejections, events and metrics
     * @param timeout the timeout; &gt; 0
     * @return the policy
     */
    public static Timeout of(String name, Duration timeout) {
        return of(name, TimeoutConfig.of(timeout));
    }

    /**
     * A timeout from a config.
     *
     * @param name the name, for rejections, events and metrics; not blank
     * @param config the config, shareable between timeouts
     * @return the policy
     * @throws dev.levee.core.InvalidConfigException if the name is blank or the config null
     */
    public static Timeout of(String name, TimeoutConfig config) {
        return new Timeout(name, config);
    }

    /**
     * A timeout with the default config ({@link TimeoutConfig#defaults()}: 5 s, THREAD mode).
     *
     * @param name the name
     * @return the policy
     */
    public static Timeout ofDefaults(String name) {
        return new Timeout(name, TimeoutConfig.defaults());
    }

    /**
     * A registry creating timeouts by name, e.g. one per dependency.
     *
     * @param defaultConfig the config of timeouts created without a named config
     * @return the registry
     */
    public static PolicyRegistry<TimeoutConfig, Timeout> registry(TimeoutConfig defaultConfig) {
        return PolicyRegistry.create(defaultConfig, Timeout::of);
    }

    /**
     * Throws if the {@linkplain Deadline#currentOrNull() current deadline} has passed: the check a
     * COOPERATIVE-mode call (or any long computation) makes between steps. Costs one thread-local read
     * and, when a deadline is current, one ticker read; allocates only when it throws.
     *
     * @throws DeadlineExceededException if a current deadline has no time left
     */
    public static void checkpoint() {
        Deadline current = Deadline.currentOrNull();
        if (current != null && current.remainingNanos() <= 0) {
            throw new DeadlineExceededException("deadline", "the current deadline passed (checkpoint)", 0L);
        }
    }

    /**
     * The effective timeout formula, exposed for tests and for callers that map it onto a client:
     * {@code min(configured, remaining - reserve)}, saturated; {@code configured} when there is no
     * current deadline.
     *
     * @param configuredNanos the configured (or adaptive) timeout
     * @param current the current deadline, or null
     * @param nowNanos a reading of the current deadline's ticker
     * @param reserveNanos the reserve
     * @return the effective timeout in nanoseconds; may be zero or negative
     */
    public static long effectiveTimeoutNanos(long configuredNanos, @Nullable Deadline current, long nowNanos,
            long reserveNanos) {
        if (current == null) {
            return configuredNanos;
        }
        long remaining = Nanos.subtract(current.remainingNanos(nowNanos), reserveNanos);
        return Math.min(configuredNanos, remaining);
    }

    /**
     * The timeout a call starting now on this thread would run under (see the class comment).
     *
     * @return the effective timeout in nanoseconds; below {@code minimumRemaining} means a call would
     *         be refused
     */
    public long effectiveTimeoutNanos() {
        return effectiveAt(ticker.read(), Deadline.currentOrNull());
    }

    private long effectiveAt(long now, @Nullable Deadline current) {
        AdaptiveTimeout adaptive = this.adaptive;
        long configured = adaptive != null ? adaptive.timeoutNanos() : timeoutNanos;
        if (current == null) {
            return configured;
        }
        // The current deadline may be on another ticker; read that one only then.
        long currentNow = current.ticker() == ticker ? now : current.ticker().read();
        return effectiveTimeoutNanos(configured, current, currentNow, reserveNanos);
    }

    @Override
    public String name() {
        return name;
    }

    /** @return the config this timeout was built from */
    public TimeoutConfig config() {
        return config;
    }

    /**
     * Subscribes to this timeout's events.
     *
     * @param listener receives every event; must be fast
     * @return closing it unsubscribes
     */
    public Subscription onEvent(Consumer<? super TimeoutEvent> listener) {
        return listeners.subscribe(listener);
    }

    /** @return calls that returned within their timeout */
    public long successCount() {
        return successes.sum();
    }

    /** @return calls that threw within their timeout */
    public long failureCount() {
        return failures.sum();
    }

    /** @return calls abandoned at their deadline */
    public long timeoutCount() {
        return timeouts.sum();
    }

    /** @return calls refused: too little time left, or the executor rejected the task */
    public long rejectedCount() {
        return rejectedBeforeStart.sum() + executorRejections.sum();
    }

    /** @return calls refused before starting because less than {@code minimumRemaining} was left */
    public long rejectedBeforeStartCount() {
        return rejectedBeforeStart.sum();
    }

    /** @return THREAD-mode calls refused because the executor rejected the task */
    public long executorRejectedCount() {
        return executorRejections.sum();
    }

    /** @return a snapshot of this timeout's counters */
    public TimeoutMetrics metrics() {
        return new TimeoutMetrics(successes.sum(), failures.sum(), timeouts.sum(), rejectedBeforeStart.sum(),
                executorRejections.sum(), interruptions.sum(), lastEffectiveNanos.get());
    }

    /** @return THREAD-mode calls cancelled because the waiting caller was interrupted */
    public long interruptedCount() {
        return interruptions.sum();
    }

    /**
     * @return the effective timeout of the latest call, within 1/64 of it (the gauge is written only when
     *     it moves by more), in ns; the configured one before any call
     */
    public long lastEffectiveTimeoutNanos() {
        return lastEffectiveNanos.get();
    }

    @Override
    public <T, E extends Throwable> T execute(Chain next, CheckedSupplier<T, E> call) throws E {
        long start = ticker.read();
        Deadline current = Deadline.currentOrNull();
        long effective = effectiveAt(start, current);
        if (effective < minimumNanos) {
            throw rejectBeforeStart(start, effective);
        }
        noteEffective(effective);
        Deadline callDeadline = callDeadline(current, start, effective);
        switch (mode) {
            case COOPERATIVE:
                return runCooperatively(next, call, callDeadline, callDeadline == current, start, effective);
            case INTERRUPT:
                return runInterruptibly(next, call, callDeadline, callDeadline == current, start, effective);
            default:
                return runOnWorker(next, call, callDeadline, start, effective);
        }
    }

    /**
     * The call's deadline, {@code start + effective}. When the current deadline is already that early
     * (no reserve cut it), it is reused: attaching it again would change nothing and allocate.
     */
    private Deadline callDeadline(@Nullable Deadline current, long start, long effective) {
        long instant = Nanos.add(start, effective);
        if (current != null && current.ticker() == ticker && current.instantNanos() <= instant) {
            return current;
        }
        return Deadline.at(instant, ticker);
    }

    private <T, E extends Throwable> T runCooperatively(Chain next, CheckedSupplier<T, E> call, Deadline callDeadline,
            boolean alreadyCurrent, long start, long effective) throws E {
        T result;
        try (ContextScope scope = alreadyCurrent ? NO_SCOPE : callDeadline.attach()) {
            result = next.proceed(call);
        } catch (Throwable t) {
            if (t instanceof DeadlineExceededException && callDeadline.remainingNanos() <= 0) {
                // The call stopped at a checkpoint past our deadline: that is this timeout firing.
                recordTimeout(start, effective);
            } else {
                recordCompletion(start, effective, t);
            }
            throw Exceptions.sneakyThrow(t);
        }
        recordCompletion(start, effective, null);
        return result;
    }

    /**
     * INTERRUPT mode: the call on this thread, a timer on the wheel to interrupt it at the deadline.
     * See the class comment for what the caller gets and the rule for the interrupt flag.
     */
    @SuppressWarnings("NullAway") // result: the call's value of the caller's type T, which may be null
    private <T, E extends Throwable> T runInterruptibly(Chain next, CheckedSupplier<T, E> call, Deadline callDeadline,
            boolean alreadyCurrent, long start, long effective) throws E {
        TimerWheel wheel = wheel();
        Thread caller = Thread.currentThread();
        InterruptTimer timer = new InterruptTimer(caller);
        wheel.schedule(timer, Nanos.add(start, effective));
        T result = null;
        Throwable failure = null;
        try (ContextScope scope = alreadyCurrent ? NO_SCOPE : callDeadline.attach()) {
            result = next.proceed(call);
        } catch (Throwable t) {
            failure = t;
        }
        if (wheel.cancel(timer)) {
            // Disarmed before it fired: the timer never touched this thread; the outcome is the call's.
            recordCompletion(start, effective, failure);
            if (failure != null) {
                throw Exceptions.sneakyThrow(failure);
            }
            return result;
        }
        // The timer fired (or is firing): wait until its interrupt is delivered, then take it back.
        timer.awaitExpired();
        if (!timer.foundInterrupted() && !(failure instanceof InterruptedException && caller.isInterrupted())) {
            // Ours, unless the call consumed ours (an InterruptedException clears the flag) and someone
            // interrupted it again since: that later interrupt is not ours, so it stays.
            Thread.interrupted();
        }
        recordTimeout(start, effective);
        if (failure instanceof Error) {
            throw (Error) failure; // never swallowed
        }
        throw new DeadlineExceededException(name, "Timeout '" + name + "': the call did not finish within " + effective
                + " ns and was interrupted", 0L, failure);
    }

    private <T, E extends Throwable> T runOnWorker(Chain next, CheckedSupplier<T, E> call, Deadline callDeadline,
            long start, long effective) throws E {
        ContextSnapshot snapshot = propagators.isEmpty()
                ? ContextSnapshot.capture()
                : ContextSnapshot.capture(propagators);
        FutureTask<T> task = new FutureTask<>(new WorkerCall<>(next, call, snapshot, callDeadline));
        // The timer is registered before the worker can start, so the call can never run (or hang)
        // without its deadline armed: on manual time, once the call has started, advancing the ticker
        // by the timeout fires it. With real time on both sides the caller's own timed wait is the
        // timer: no scheduler round trip.
        Scheduler.@Nullable Cancellable timer = timedWait ? null : scheduler.schedule(() -> abandon(task, interrupt), effective);
        try {
            executor.execute(task);
        } catch (RejectedExecutionException e) {
            disarm(timer);
            executorRejections.increment();
            throw new BulkheadFullException(name, "Timeout '" + name + "': the executor rejected the call", 0L, e);
        }
        try {
            T value = timedWait ? awaitTimed(task, effective) : task.get();
            disarm(timer);
            recordCompletion(start, effective, null);
            return value;
        } catch (ExecutionException e) {
            disarm(timer);
            Throwable cause = e.getCause();
            recordCompletion(start, effective, cause);
            throw Exceptions.sneakyThrow(cause);
        } catch (CancellationException e) {
            // Only the deadline cancels the task while the caller waits.
            recordTimeout(start, effective);
            throw timeoutRejection(effective);
        } catch (InterruptedException e) {
            disarm(timer);
            abandon(task, true);
            Thread.currentThread().interrupt();
            recordInterrupted(start, effective);
            CancellationException cancelled = new CancellationException(
                    "Timeout '" + name + "': the waiting caller was interrupted; the call was cancelled");
            cancelled.initCause(e);
            throw cancelled;
        }
    }

    /**
     * Waits up to {@code effectiveNanos}; at the deadline abandons the task, then reports whichever
     * won: the cancellation ({@link CancellationException}) or an outcome that completed at the same
     * instant.
     */
    private <T> T awaitTimed(FutureTask<T> task, long effectiveNanos) throws InterruptedException, ExecutionException {
        try {
            return task.get(effectiveNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException deadline) {
            abandon(task, interrupt);
            return task.get();
        }
    }

    private static void disarm(Scheduler.@Nullable Cancellable timer) {
        if (timer != null) {
            timer.cancel();
        }
    }

    /** Cancels a THREAD-mode task; a task still queued in a pool (or a Levee wrapper of one) is removed. */
    private void abandon(FutureTask<?> task, boolean mayInterrupt) {
        if (task.cancel(mayInterrupt)) {
            // From a pool, or from Levee's context-propagating wrapper around one (RemovableExecutor).
            RemovableExecutor.removeFrom(executor, task);
        }
    }

    @Override
    public <T> CompletionStage<T> executeAsync(Chain next, Supplier<? extends CompletionStage<T>> call) {
        long start = ticker.read();
        Deadline current = Deadline.currentOrNull();
        long effective = effectiveAt(start, current);
        if (effective < minimumNanos) {
            return CompletableFuture.failedFuture(rejectBeforeStart(start, effective));
        }
        noteEffective(effective);
        Deadline callDeadline = callDeadline(current, start, effective);
        CompletionStage<T> stage;
        try (ContextScope scope = callDeadline == current ? NO_SCOPE : callDeadline.attach()) {
            stage = next.proceedAsync(call);
        } catch (RuntimeException e) {
            stage = CompletableFuture.failedFuture(e);
        }
        return new AsyncTimeoutStage<>(stage, asyncOutcomes, start, effective, interrupt, wheel(), config.asyncExecutor())
                .start();
    }

    /**
     * The timer wheel, created on first use outside INTERRUPT mode. On the system clock every timeout
     * shares one wheel; on another ticker or scheduler (tests on manual time) a timeout has its own, and
     * two first calls racing may each build one: one is kept, the other was never started.
     */
    private TimerWheel wheel() {
        TimerWheel w = wheel;
        if (w == null) {
            w = SharedTimerWheel.forClock(ticker, scheduler);
            TimerWheel witness = (TimerWheel) WHEEL.compareAndExchange(this, null, w);
            if (witness != null) {
                w = witness;
            }
        }
        return w;
    }

    private DeadlineExceededException rejectBeforeStart(long now, long effective) {
        rejectedBeforeStart.increment();
        if (!listeners.isEmpty()) {
            listeners.publish(new TimeoutEvent.Rejected(name, now, effective, 0L));
        }
        return new DeadlineExceededException(name, "Timeout '" + name + "': only " + Math.max(0L, effective)
                + " ns would remain, less than the minimum of " + minimumNanos + " ns; the call was not started", 0L);
    }

    private DeadlineExceededException timeoutRejection(long effective) {
        return new DeadlineExceededException(name,
                "Timeout '" + name + "': the call did not finish within " + effective + " ns", 0L);
    }

    /**
     * Writes the gauge only when the value moves by more than 1/64 of it, so calls cost no shared write:
     * not with a fixed timeout, and not under a request deadline, whose remaining time differs at every
     * call (a write per call there made two threads' calls 3.6× slower, `TimeoutBenchmark`).
     */
    private void noteEffective(long effective) {
        long last = lastEffectiveNanos.get();
        long moved = Math.abs(effective - last);
        if (moved != 0 && moved > last >>> 6) {
            lastEffectiveNanos.lazySet(effective);
        }
    }

    private void recordCompletion(long start, long effective, @Nullable Throwable failure) {
        if (failure == null) {
            successes.increment();
        } else {
            failures.increment();
        }
        if (adaptive != null || !listeners.isEmpty()) {
            long now = ticker.read();
            long elapsed = now - start;
            if (adaptive != null) {
                adaptive.record(elapsed);
            }
            if (!listeners.isEmpty()) {
                listeners.publish(failure == null
                        ? new TimeoutEvent.Succeeded(name, now, effective, elapsed)
                        : new TimeoutEvent.Failed(name, now, effective, elapsed));
            }
        }
    }

    private void recordTimeout(long start, long effective) {
        timeouts.increment();
        if (adaptive != null) {
            // A timed-out call's true latency is unknown but at least the timeout: recording the
            // timeout pushes the estimate up, the safe direction.
            adaptive.record(effective);
        }
        if (LOG.isDebugEnabled()) {
            LOG.debug("Timeout '{}': call abandoned after {} ns", name, effective);
        }
        if (!listeners.isEmpty()) {
            long now = ticker.read();
            listeners.publish(new TimeoutEvent.TimedOut(name, now, effective, now - start));
        }
    }

    private void recordInterrupted(long start, long effective) {
        interruptions.increment();
        if (!listeners.isEmpty()) {
            long now = ticker.read();
            listeners.publish(new TimeoutEvent.Interrupted(name, now, effective, now - start));
        }
    }

    @Override
    public String toString() {
        return "Timeout[" + name + ", " + config + "]";
    }

    /** Receives the outcome of asynchronous calls from {@link AsyncTimeoutStage}. */
    private final class AsyncOutcomes implements AsyncTimeoutStage.Listener {
        @Override
        public void completed(long startNanos, long effectiveNanos, @Nullable Throwable failure) {
            recordCompletion(startNanos, effectiveNanos, failure);
        }

        @Override
        public RuntimeException timeoutRejection(long effectiveNanos) {
            return Timeout.this.timeoutRejection(effectiveNanos);
        }

        @Override
        public void timedOut(long startNanos, long effectiveNanos) {
            recordTimeout(startNanos, effectiveNanos);
        }
    }
}
