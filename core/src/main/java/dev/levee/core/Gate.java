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
 * long start = gate.ticker().read();
 * if (!gate.tryAcquire(start)) throw gate.rejection(start);
 * try {
 *     Response r = send(request);
 *     gate.onSuccess(gate.ticker().read() - start);
 *     return r;
 * } catch (Exception e) {
 *     gate.onFailure(gate.ticker().read() - start, e);
 *     throw e;
 * }
 * }</pre>
 * After a successful {@code tryAcquire} (or {@code acquire}), exactly one of {@link #onSuccess},
 * {@link #onFailure}, {@link #onIgnored} (or {@link #onResult}) must follow: a bulkhead returns its
 * slot there and a breaker records the outcome. Calling none leaks the permit; calling two
 * corrupts counts. After a refused acquire, none must follow.
 *
 * <p><b>Time.</b> Every gate reads time from its {@link #ticker()}; {@link #tryAcquire(long)} takes
 * the time the caller has already read, so a {@link Pipeline} of consecutive gates reads the clock
 * once before the call and once after, and shares both readings with every gate.
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
     * Asks for a permit without waiting.
     *
     * @param nowNanos the current reading of {@link #ticker()}
     * @return true if the call may start; then exactly one completion method must follow
     */
    boolean tryAcquire(long nowNanos);

    /**
     * Asks for a permit without waiting, reading the ticker itself.
     *
     * @return true if the call may start; then exactly one completion method must follow
     */
    default boolean tryAcquire() {
        return tryAcquire(ticker().read());
    }

    /**
     * Acquires a permit, waiting if and as long as this gate's configuration allows (a bulkhead
     * with a maximum wait, a queueing limiter), and never past the current {@link Deadline}.
     * The default does not wait.
     *
     * <p>If the waiting thread is interrupted, the implementation restores the interrupt flag and
     * throws a rejection.
     *
     * @param nowNanos the current reading of {@link #ticker()}
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
     * @param nowNanos the current reading of {@link #ticker()}
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
     * @param nowNanos the ticker reading of the refused acquire
     * @return the rejection to throw
     */
    RejectedException rejection(long nowNanos);

    /**
     * The permitted call completed normally.
     *
     * @param latencyNanos how long the call took, in ticker nanoseconds
     */
    void onSuccess(long latencyNanos);

    /**
     * The permitted call threw {@code error}. The gate classifies it: an ignored exception counts as
     * {@link #onIgnored()}.
     *
     * @param latencyNanos how long the call took, in ticker nanoseconds
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
     * @param latencyNanos how long the call took, in ticker nanoseconds
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
     * @param endNanos the reading of {@link #ticker()} when the call ended
     * @param latencyNanos how long the call took, in ticker nanoseconds
     * @param result what the call returned, possibly null
     */
    default void onResultAt(long endNanos, long latencyNanos, Object result) {
        onResult(latencyNanos, result);
    }

    /**
     * The permitted call threw {@code error}, with the clock reading taken when it ended. The
     * counterpart of {@link #onResultAt}; the default calls {@link #onFailure(long, Throwable)}.
     *
     * @param endNanos the reading of {@link #ticker()} when the call ended
     * @param latencyNanos how long the call took, in ticker nanoseconds
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
     * @param startNanos the reading passed to the granted {@code tryAcquire}
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
