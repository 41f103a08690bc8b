package dev.levee.core;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * A policy that decides whether a call may start and learns from how it ended: rate limiters,
 * circuit breakers, bulkheads, concurrency limiters, load shedders.
 *
 * <p><b>The permit protocol.</b> Usable directly, without lambdas, by frameworks and non-lambda code:
 * <pre>{@code
 * long start = gate.readStart();                 // reads the ticker only if the gate needs it now
 * if (!gate.tryAcquire(start)) throw gate.rejection(start);
 * try {
 *     Response r = send(request);
 *     gate.onSuccess(gate.latencySince(start));  // reads the ticker only if the gate needs the latency
 *     return r;
 * } catch (Exception e) {
 *     gate.onFailure(gate.latencySince(start), e);
 *     throw e;
 * }
 * }</pre>
 * After a successful {@code tryAcquire} (or {@code acquire}), exactly one of {@link #onSuccess},
 * {@link #onFailure}, {@link #onIgnored} (or {@link #onResult}) must follow: a bulkhead returns its
 * slot there and a breaker records the outcome. Calling none leaks the permit; calling two
 * corrupts counts. After a refused acquire, none must follow.
 *
 * <p><b>Time: read the clock only when a gate needs it.</b> One {@code System.nanoTime()} costs more
 * than most gates' whole decision, so a gate says which readings it needs for the next call
 * ({@link #timeNeed()}: {@link TimeNeed#NONE}, {@link TimeNeed#START} or {@link TimeNeed#LATENCY}), and
 * callers read only those; a reading not taken is passed as {@link #NO_READING}. The answer may depend
 * on the gate's state: a CLOSED count-window breaker without a slow-call rule needs nothing, an OPEN
 * one needs "now" to know when to half-open. {@link #tryAcquire(long)} takes the time the caller has
 * already read, so a {@link Pipeline} of consecutive gates reads the clock before the call only if some
 * gate of the run needs a start reading, after the call only if some gate needs the latency, and
 * shares both readings with every gate.
 *
 * <p><b>For implementers: the default is to need everything.</b> {@link #timeNeed()} returns
 * {@link TimeNeed#LATENCY} unless overridden, and a gate that never answers {@link TimeNeed#NONE} is
 * never handed {@code NO_READING} as "now" by a pipeline or {@code execute}; one that never answers
 * below {@link TimeNeed#LATENCY} always gets real latencies and end readings. A gate that does answer
 * less must accept {@code NO_READING} wherever it is handed a reading or a latency, because its state
 * (and so its need) can change between the caller's question and its {@code tryAcquire}: it reads its
 * own ticker when it then needs the time, and it must not grant a permit whose completion it could not
 * account for without the readings it declined (a breaker refuses a half-open probe offered
 * {@code NO_READING}, as it would a reading from an earlier era).
 *
 * <p><b>Outcome classification</b> is the gate's own: {@code onFailure} with an exception the gate's
 * configuration ignores counts as {@code onIgnored}, and {@link #onResult} lets a gate treat a
 * returned value as a failure.
 *
 * <p>The default {@code execute} methods implement the protocol around a call; implementations
 * only provide the permit methods.
 */
public interface Gate extends Policy {

    /**
     * The time source this gate measures with. Gates that share a ticker instance can share clock
     * readings inside a {@link Pipeline}.
     *
     * @return the ticker
     */
    Ticker ticker();

    /**
     * What a caller passes for a clock reading (or a latency) it did not take because this gate said it
     * did not need it ({@link #timeNeed()}): {@link Long#MIN_VALUE}. A ticker that really reads
     * {@code Long.MIN_VALUE} is taken for "not read", which only costs a gate one more reading of its own.
     */
    long NO_READING = Long.MIN_VALUE;

    /**
     * The clock readings this gate needs for a call starting now; callers ({@link Pipeline},
     * {@code execute}, {@link #readStart()}) read only those and pass {@link #NO_READING} for the rest.
     * Asked before {@code tryAcquire} (for the start reading) and again when the call ends (for the end
     * reading, taken only if the start was), each time for the state at that moment; so it must be cheap
     * (a field or a volatile read).
     *
     * <p>The default is {@link TimeNeed#LATENCY}: every reading, always. See the class comment for what
     * a gate that answers less must accept.
     *
     * @return the readings needed now
     */
    default TimeNeed timeNeed() {
        return TimeNeed.LATENCY;
    }

    /**
     * The reading to pass to {@link #tryAcquire(long)} when using the permit protocol by hand: the
     * ticker's reading if this gate needs one now, else {@link #NO_READING} (no clock read).
     *
     * @return a reading of {@link #ticker()}, or {@link #NO_READING}
     */
    default long readStart() {
        return timeNeed().readsStart() ? ticker().read() : NO_READING;
    }

    /**
     * The latency to pass to a completion when using the permit protocol by hand: the time since
     * {@code startNanos} if that was read and this gate needs latencies, else {@link #NO_READING}
     * (no clock read).
     *
     * @param startNanos what {@link #readStart()} returned for this call
     * @return the latency in ticker nanoseconds, or {@link #NO_READING}
     */
    default long latencySince(long startNanos) {
        return startNanos != NO_READING && timeNeed().readsEnd() ? ticker().read() - startNanos : NO_READING;
    }

    /**
     * Asks for a permit without waiting.
     *
     * @param nowNanos the current reading of {@link #ticker()}, or {@link #NO_READING} if
     *     {@link #timeNeed()} said none was needed
     * @return true if the call may start; then exactly one completion method must follow
     */
    boolean tryAcquire(long nowNanos);

    /**
     * Asks for a permit without waiting, reading the ticker only if {@link #timeNeed()} asks for it.
     *
     * @return true if the call may start; then exactly one completion method must follow
     */
    default boolean tryAcquire() {
        return tryAcquire(readStart());
    }

    /**
     * Acquires a permit, waiting if and as long as this gate's configuration allows (a bulkhead
     * with a maximum wait, a queueing limiter), and never past the current {@link Deadline}.
     * The default does not wait.
     *
     * <p>If the waiting thread is interrupted, the implementation restores the interrupt flag and
     * throws a rejection.
     *
     * @param nowNanos the current reading of {@link #ticker()}, or {@link #NO_READING} (see {@link #timeNeed()})
     * @throws RejectedException if no permit was granted
     */
    default void acquire(long nowNanos) {
        if (!tryAcquire(nowNanos)) {
            throw rejection(nowNanos);
        }
    }

    /**
     * Acquires a permit for an asynchronous call without ever blocking the calling thread. This is
     * what {@code executeAsync} and pipelines call.
     *
     * <ul>
     *   <li>A permit available now: returns {@link #granted()} (compare by identity); nothing is
     *       allocated.</li>
     *   <li>Refused now: a stage failed with the rejection.</li>
     *   <li>A gate configured to wait (a bulkhead with {@code maxWait}, a queueing limiter) returns a
     *       pending stage and <em>schedules</em> the wait: the stage completes when the permit is
     *       granted, or fails with the rejection when the wait ends (its maximum wait or the current
     *       {@link Deadline}). The thread that completes it is never a Levee timer thread: completions
     *       are handed to an executor, so the user's call never runs on the scheduler.</li>
     * </ul>
     * A completed permit is owned by the caller: exactly one completion method must follow, as after
     * {@link #acquire(long)}.
     *
     * <p>The default never waits: it grants if {@link #tryAcquire(long)} does and refuses otherwise. A
     * gate that overrides {@link #acquire(long)} to wait must override this too, or its asynchronous
     * callers are refused instead of waiting (they are never blocked).
     *
     * @param nowNanos the current reading of {@link #ticker()}, or {@link #NO_READING} (see {@link #timeNeed()})
     * @return {@link #granted()}, a failed stage, or a stage that completes when the permit is granted
     */
    default CompletionStage<Void> acquireAsync(long nowNanos) {
        if (tryAcquire(nowNanos)) {
            return granted();
        }
        return CompletableFuture.failedFuture(rejection(nowNanos));
    }

    /**
     * The stage {@link #acquireAsync(long)} returns for a permit granted at once. It is shared and
     * already complete; callers test for it by identity to skip composing a stage.
     *
     * @return the shared granted stage
     */
    static CompletionStage<Void> granted() {
        return GateRunner.GRANTED;
    }

    /**
     * Builds the exception for a refused acquire, with this gate's name and a {@code retryAfter}
     * hint. Called only on the rejecting path, so it may allocate.
     *
     * @param nowNanos the ticker reading of the refused acquire, or {@link #NO_READING}
     * @return the rejection to throw
     */
    RejectedException rejection(long nowNanos);

    /**
     * The permitted call completed normally.
     *
     * @param latencyNanos how long the call took, in ticker nanoseconds, or {@link #NO_READING} if not measured
     */
    void onSuccess(long latencyNanos);

    /**
     * The permitted call threw {@code error}. The gate classifies it: an ignored exception counts as
     * {@link #onIgnored()}.
     *
     * @param latencyNanos how long the call took, in ticker nanoseconds, or {@link #NO_READING} if not measured
     * @param error what the call threw
     */
    void onFailure(long latencyNanos, Throwable error);

    /**
     * The permitted call is to be forgotten: it did not run, or its outcome says nothing about the
     * protected resource. Returns the permit (a bulkhead slot, a half-open probe) without recording.
     */
    void onIgnored();

    /**
     * The permitted call returned {@code result}. The default records a success; a gate configured to
     * treat some results as failures overrides this.
     *
     * @param latencyNanos how long the call took, in ticker nanoseconds, or {@link #NO_READING} if not measured
     * @param result what the call returned, possibly null
     */
    default void onResult(long latencyNanos, Object result) {
        onSuccess(latencyNanos);
    }

    /**
     * The permitted call returned {@code result}, with the clock reading taken when it ended.
     * {@link Pipeline}s and the default {@code execute} call this form, so a gate that buckets
     * outcomes by time (a time-window breaker) need not read the clock again; the default ignores
     * {@code endNanos} and calls {@link #onResult(long, Object)}.
     *
     * @param endNanos the reading of {@link #ticker()} when the call ended, or {@link #NO_READING}
     * @param latencyNanos how long the call took, in ticker nanoseconds, or {@link #NO_READING} if not measured
     * @param result what the call returned, possibly null
     */
    default void onResultAt(long endNanos, long latencyNanos, Object result) {
        onResult(latencyNanos, result);
    }

    /**
     * The permitted call threw {@code error}, with the clock reading taken when it ended. The
     * counterpart of {@link #onResultAt}; the default calls {@link #onFailure(long, Throwable)}.
     *
     * @param endNanos the reading of {@link #ticker()} when the call ended, or {@link #NO_READING}
     * @param latencyNanos how long the call took, in ticker nanoseconds, or {@link #NO_READING} if not measured
     * @param error what the call threw
     */
    default void onFailureAt(long endNanos, long latencyNanos, Throwable error) {
        onFailure(latencyNanos, error);
    }

    /**
     * The call permitted at {@code startNanos} is to be forgotten, as {@link #onIgnored()}, with the
     * reading its {@code tryAcquire} was given. A gate whose state moves on while a permit is out (a
     * breaker that opened and went half-open) uses it to tell a permit of an earlier era from one of
     * its current probes; the default calls {@link #onIgnored()}. Pipelines call this form.
     *
     * @param startNanos the reading passed to the granted {@code tryAcquire}, possibly {@link #NO_READING}
     */
    default void onIgnoredAt(long startNanos) {
        onIgnored();
    }

    @Override
    default <T, E extends Throwable> T execute(Chain next, CheckedSupplier<T, E> call) throws E {
        return GateRunner.execute(this, next, call);
    }

    @Override
    default <T> CompletionStage<T> executeAsync(Chain next, Supplier<? extends CompletionStage<T>> call) {
        return GateRunner.executeAsync(this, next, call);
    }
}
