package dev.levee.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.levee.core.Gate;
import dev.levee.core.ManualTicker;
import dev.levee.core.RejectedException;
import dev.levee.core.TimeNeed;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link Gate} passes: the permit protocol, exception transparency, the interrupt
 * flag, asynchronous calls that never throw and, where the gate claims it, no allocation on the
 * success path. A module tests a gate by extending this class and saying how to build one.
 *
 * <pre>{@code
 * class BulkheadContractTest extends GateContract {
 *     protected Gate newGate(ManualTicker ticker) {
 *         return Bulkhead.of("contract", BulkheadConfig.builder().maxConcurrentCalls(3).ticker(ticker).build());
 *     }
 *     protected int permitsAtOnce() { return 3; }
 *     protected boolean completionReturnsPermit() { return true; }
 * }
 * }</pre>
 *
 * <p>What the contract pins, for a fresh gate on a {@link ManualTicker} that does not move:
 * <ul>
 *   <li>it grants exactly {@link #permitsAtOnce()} permits, then refuses; a refusal returns nothing
 *       and changes nothing (the next acquire is refused too);</li>
 *   <li>where completions return the permit (bulkheads, concurrency limiters), each of
 *       {@code onSuccess}, {@code onFailure} and {@code onIgnored} returns exactly one permit:
 *       exactly one more acquire succeeds afterwards, not two;</li>
 *   <li>the rejection names the gate and has a non-negative retry-after;</li>
 *   <li>a gate that says it needs no clock reading ({@link TimeNeed#NONE}) works when handed
 *       {@link Gate#NO_READING} for every reading and latency;</li>
 *   <li>{@code execute} returns the call's value (null included) and throws what the call threw, the
 *       same instance, for a checked exception, an unchecked one and an {@link Error}; a refusal is a
 *       {@link RejectedException} and the call does not run;</li>
 *   <li>a caller whose interrupt flag is set keeps it through {@code execute};</li>
 *   <li>{@code executeAsync} never throws: a refusal or a throwing supplier fails the stage;</li>
 *   <li>16 threads acquiring and completing concurrently leave the gate as they found it (no permit
 *       leaked or created), where completions return the permit;</li>
 *   <li>where {@link #claimsAllocationFreeSuccessPath()}, acquire plus success allocates nothing in
 *       steady state (measured with {@code ThreadMXBean.getThreadAllocatedBytes}).</li>
 * </ul>
 */
public abstract class GateContract {
    /** Operations measured by the allocation test, after as many for warm-up. */
    protected static final int ALLOCATION_OPERATIONS = 200_000;

    /**
     * Builds a fresh gate on {@code ticker} that grants {@link #permitsAtOnce()} permits at the
     * ticker's current reading and classifies {@link IOException} as a failure.
     *
     * @param ticker the manual time the gate must read
     * @return a new gate
     */
    protected abstract Gate newGate(ManualTicker ticker);

    /**
     * How many permits a fresh gate grants at one instant before refusing; {@link Integer#MAX_VALUE}
     * for a gate that refuses only after it has seen failures (a closed breaker).
     *
     * @return the count
     */
    protected abstract int permitsAtOnce();

    /**
     * Whether a completion gives the permit back (a bulkhead slot, a concurrency limit), as opposed to
     * a permit that is spent (a rate limiter) or not counted (a closed breaker).
     *
     * @return true if completions return permits
     */
    protected abstract boolean completionReturnsPermit();

    /**
     * Whether {@code execute} waits for a permit when none is free (a queueing limiter, a bulkhead
     * with a maximum wait), so that a drained gate delays a call instead of refusing it.
     *
     * @return true if calls wait
     */
    protected boolean waitsForAPermit() {
        return false;
    }

    /**
     * Whether the gate documents an allocation-free acquire and success.
     *
     * @return true to run the allocation test
     */
    protected boolean claimsAllocationFreeSuccessPath() {
        return false;
    }

    private Gate fresh() {
        return newGate(new ManualTicker());
    }

    private static int drain(Gate gate, int atMost) {
        long now = gate.ticker().read();
        int granted = 0;
        while (granted < atMost && gate.tryAcquire(now)) {
            granted++;
        }
        return granted;
    }

    @Test
    void aFreshGateGrantsItsPermitsThenRefusesAndARefusalChangesNothing() {
        assumeTrue(permitsAtOnce() < 1_000_000, "the gate does not refuse on its own");
        Gate gate = fresh();
        long now = gate.ticker().read();
        assertThat(drain(gate, permitsAtOnce() + 1)).as("permits granted at one instant").isEqualTo(permitsAtOnce());
        for (int i = 0; i < 3; i++) {
            assertThat(gate.tryAcquire(now)).as("acquire after a refusal").isFalse();
        }
    }

    @Test
    void theRejectionNamesTheGateAndHasANonNegativeRetryAfter() {
        assumeTrue(permitsAtOnce() < 1_000_000, "the gate does not refuse on its own");
        Gate gate = fresh();
        drain(gate, permitsAtOnce());
        long now = gate.ticker().read();
        assertThat(gate.tryAcquire(now)).isFalse();
        RejectedException rejection = gate.rejection(now);
        assertThat(rejection.policyName()).isEqualTo(gate.name());
        assertThat(rejection.retryAfterNanos()).isGreaterThanOrEqualTo(0L);
        assertThat(rejection.kind()).isNotBlank();
    }

    @Test
    void eachCompletionReturnsExactlyOnePermit() {
        assumeTrue(completionReturnsPermit() && permitsAtOnce() < 1_000_000, "completions do not return permits");
        Gate gate = fresh();
        long now = gate.ticker().read();
        assertThat(drain(gate, permitsAtOnce())).isEqualTo(permitsAtOnce());
        Runnable[] completions = {
            () -> gate.onSuccess(0L),
            () -> gate.onFailure(0L, new IOException("contract")),
            gate::onIgnored,
            () -> gate.onResult(0L, "value"),
            () -> gate.onIgnoredAt(now),
        };
        for (Runnable completion : completions) {
            completion.run();
            assertThat(gate.tryAcquire(now)).as("one permit back").isTrue();
            assertThat(gate.tryAcquire(now)).as("only one permit back").isFalse();
        }
    }

    /**
     * A gate that says it needs no reading ({@link TimeNeed#NONE}) must accept {@link Gate#NO_READING}
     * wherever a reading or a latency is passed: it grants, refuses, builds its rejection and completes
     * exactly as with real readings.
     */
    @Test
    void aGateThatNeedsNoTimeWorksWithNoReading() {
        Gate gate = fresh();
        assumeTrue(gate.timeNeed() == TimeNeed.NONE, "the gate needs clock readings now");
        long none = Gate.NO_READING;
        int atMost = Math.min(permitsAtOnce(), 1000);
        int granted = 0;
        while (granted < atMost && gate.tryAcquire(none)) {
            granted++;
        }
        assertThat(granted).as("permits granted with no reading").isEqualTo(atMost);
        if (permitsAtOnce() < 1_000_000) {
            assertThat(gate.tryAcquire(none)).isFalse();
            assertThat(gate.rejection(none).retryAfterNanos()).isGreaterThanOrEqualTo(0L);
        }
        for (int i = 0; i < granted; i++) {
            switch (i % 4) {
                case 0 -> gate.onSuccess(none);
                case 1 -> gate.onFailure(none, new IOException("contract"));
                case 2 -> gate.onResultAt(none, none, "value");
                default -> gate.onIgnoredAt(none);
            }
        }
        if (completionReturnsPermit() && permitsAtOnce() < 1_000_000) {
            assertThat(drain(gate, permitsAtOnce() + 1)).as("every permit back").isEqualTo(permitsAtOnce());
        }
    }

    @Test
    void executeReturnsTheValueAndNullUnchanged() throws Exception {
        Gate gate = fresh();
        Object value = new Object();
        assertThat(gate.<Object, RuntimeException>execute(() -> value)).isSameAs(value);
        assertThat(gate.<Object, RuntimeException>execute(() -> null)).isNull();
    }

    @Test
    void executeThrowsWhatTheCallThrewTheSameInstance() {
        Gate gate = fresh();
        IOException checked = new IOException("checked");
        IllegalStateException unchecked = new IllegalStateException("unchecked");
        Error error = new AssertionError("an error is never swallowed");
        assertThatThrownBy(() -> gate.execute(() -> {
            throw checked;
        })).isSameAs(checked);
        assertThatThrownBy(() -> gate.execute(() -> {
            throw unchecked;
        })).isSameAs(unchecked);
        assertThatThrownBy(() -> gate.execute(() -> {
            throw error;
        })).isSameAs(error);
    }

    @Test
    void failedCallsReturnTheirPermits() throws Exception {
        assumeTrue(completionReturnsPermit() && permitsAtOnce() < 1_000_000, "completions do not return permits");
        Gate gate = fresh();
        for (int i = 0; i < 3 * permitsAtOnce(); i++) {
            assertThatThrownBy(() -> gate.execute(() -> {
                throw new IOException("fails");
            })).isInstanceOf(IOException.class);
        }
        assertThat(drain(gate, permitsAtOnce() + 1)).isEqualTo(permitsAtOnce());
    }

    @Test
    void aRefusedCallDoesNotRun() {
        assumeTrue(permitsAtOnce() < 1_000_000 && !waitsForAPermit(), "the gate does not refuse at once");
        Gate gate = fresh();
        drain(gate, permitsAtOnce());
        AtomicInteger ran = new AtomicInteger();
        assertThatThrownBy(() -> gate.execute(ran::incrementAndGet)).isInstanceOf(RejectedException.class);
        assertThat(ran).hasValue(0);
    }

    @Test
    void theCallersInterruptFlagSurvivesExecute() throws Exception {
        Gate gate = fresh();
        try {
            String value = gate.execute(() -> {
                Thread.currentThread().interrupt();
                return "done";
            });
            assertThat(value).isEqualTo("done");
            assertThat(Thread.currentThread().isInterrupted()).as("interrupt flag after execute").isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void executeAsyncNeverThrows() {
        Gate gate = fresh();
        IllegalStateException boom = new IllegalStateException("supplier threw");
        CompletionStage<Object> failed = gate.executeAsync(() -> {
            throw boom;
        });
        assertThat(causeOf(failed)).isSameAs(boom);
        // A gate that waits for a permit (a leaky bucket with maxWait) waits asynchronously instead of
        // refusing, so only a non-waiting gate must refuse a drained executeAsync at once.
        if (permitsAtOnce() < 1_000_000 && !waitsForAPermit()) {
            Gate full = fresh();
            drain(full, permitsAtOnce());
            CompletionStage<Object> refused = full.executeAsync(() -> java.util.concurrent.CompletableFuture.completedFuture("x"));
            assertThat(causeOf(refused)).isInstanceOf(RejectedException.class);
        }
    }

    @Test
    void manyThreadsLeaveTheGateAsTheyFoundIt() throws InterruptedException {
        assumeTrue(completionReturnsPermit() && permitsAtOnce() < 1_000_000, "completions do not return permits");
        Gate gate = fresh();
        long now = gate.ticker().read();
        AtomicLong granted = new AtomicLong();
        Concurrently.run(thread -> {
            for (int i = 0; i < 5_000; i++) {
                if (gate.tryAcquire(now)) {
                    granted.incrementAndGet();
                    switch (i % 3) {
                        case 0 -> gate.onSuccess(0L);
                        case 1 -> gate.onFailure(0L, new IOException("contract"));
                        default -> gate.onIgnored();
                    }
                }
            }
        });
        assertThat(granted.get()).isPositive();
        assertThat(drain(gate, permitsAtOnce() + 1)).as("permits after the storm").isEqualTo(permitsAtOnce());
    }

    @Test
    void theSuccessPathAllocatesNothing() {
        assumeTrue(claimsAllocationFreeSuccessPath(), "the gate does not claim an allocation-free path");
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        assumeTrue(mx instanceof com.sun.management.ThreadMXBean, "no per-thread allocation counter");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) mx;
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "no per-thread allocation counter");
        threads.setThreadAllocatedMemoryEnabled(true);
        ManualTicker ticker = new ManualTicker();
        Gate gate = newGate(ticker);
        long id = Thread.currentThread().getId();
        successes(gate, ticker, ALLOCATION_OPERATIONS);
        // The least of a few rounds: one-off allocations (class loading, a JIT recompilation, a lazily
        // created LongAdder cell) land in one round only, while an allocation per call (at least 16 B
        // each, megabytes per round) shows in every round. (Restores 0a93349, lost in a merge.)
        long allocated = Long.MAX_VALUE;
        for (int round = 0; round < 5 && allocated >= 1_024L; round++) {
            long before = threads.getThreadAllocatedBytes(id);
            successes(gate, ticker, ALLOCATION_OPERATIONS);
            allocated = Math.min(allocated, threads.getThreadAllocatedBytes(id) - before);
        }
        assertThat(allocated).as("bytes allocated by %d acquire+success", ALLOCATION_OPERATIONS).isLessThan(1_024L);
    }

    /** Acquire and succeed, moving time by one second whenever the gate runs out (a rate limiter refills). */
    private static void successes(Gate gate, ManualTicker ticker, int operations) {
        for (int i = 0; i < operations; i++) {
            long now = ticker.read();
            if (gate.tryAcquire(now)) {
                gate.onSuccess(0L);
            } else {
                ticker.advance(1_000_000_000L);
            }
        }
    }

    private static Throwable causeOf(CompletionStage<?> stage) {
        try {
            stage.toCompletableFuture().join();
        } catch (CompletionException e) {
            return e.getCause();
        } catch (java.util.concurrent.CancellationException e) {
            return e;
        }
        throw new AssertionError("the stage completed normally");
    }
}
