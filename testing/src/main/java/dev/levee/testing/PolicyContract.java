package dev.levee.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ManualTicker;
import dev.levee.core.Policy;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The contract every wrapper {@link dev.levee.core.Policy} passes (retry, timeout, hedge, a pipeline,
 * a fallback): transparency for values and exceptions, the interrupt flag, and asynchronous calls that
 * never throw. A module tests a policy by extending this class and saying how to build one.
 *
 * <pre>{@code
 * class RetryContractTest extends PolicyContract {
 *     protected Policy newPolicy(ManualTicker ticker) {
 *         return Retry.of("contract", RetryConfig.builder().maxAttempts(3).sleeper(ticker).build());
 *     }
 * }
 * }</pre>
 *
 * <p>What the contract pins, for a fresh policy whose time is a {@link ManualTicker} (the policy may
 * retry, time out or hedge, but on the calls here it must end with the call's own outcome):
 * <ul>
 *   <li>{@code execute} returns the call's value unchanged, {@code null} included;</li>
 *   <li>{@code execute} throws what the call threw, the same instance, for a checked exception, an
 *       unchecked one and an {@link Error} (a retry may call again; the last failure is the one thrown,
 *       and here every attempt throws the same instance);</li>
 *   <li>an {@code Error} is never retried or swallowed: the call runs once;</li>
 *   <li>a caller whose interrupt flag is set when its call returns keeps it through {@code execute};</li>
 *   <li>{@code executeAsync} never throws: a throwing supplier fails the stage with the same
 *       instance, a completed stage's value comes through;</li>
 *   <li>16 threads calling at once each get their own value back.</li>
 * </ul>
 */
public abstract class PolicyContract {

    /**
     * Builds a fresh policy that reads {@code ticker} (and sleeps on it, where it sleeps).
     *
     * @param ticker the manual time
     * @return a new policy
     */
    protected abstract Policy newPolicy(ManualTicker ticker);

    /**
     * Whether the policy runs the call on the caller's thread, so that the call's own interrupt of its
     * thread is the caller's. A timeout in thread mode runs the call elsewhere.
     *
     * @return true if the call runs on the calling thread
     */
    protected boolean runsTheCallOnTheCallersThread() {
        return true;
    }

    private Policy fresh() {
        return newPolicy(new ManualTicker());
    }

    @Test
    void executeReturnsTheValueAndNullUnchanged() throws Exception {
        Policy policy = fresh();
        Object value = new Object();
        assertThat(policy.<Object, RuntimeException>execute(() -> value)).isSameAs(value);
        assertThat(policy.<Object, RuntimeException>execute(() -> null)).isNull();
    }

    @Test
    void executeThrowsWhatTheCallThrewTheSameInstance() {
        Policy policy = fresh();
        IOException checked = new IOException("checked");
        IllegalStateException unchecked = new IllegalStateException("unchecked");
        assertThatThrownBy(() -> policy.execute(() -> {
            throw checked;
        })).isSameAs(checked);
        assertThatThrownBy(() -> policy.execute(() -> {
            throw unchecked;
        })).isSameAs(unchecked);
    }

    @Test
    void anErrorIsThrownUnchangedAndNotRetried() {
        Policy policy = fresh();
        Error error = new AssertionError("an error is never swallowed");
        AtomicLong runs = new AtomicLong();
        assertThatThrownBy(() -> policy.execute(() -> {
            runs.incrementAndGet();
            throw error;
        })).isSameAs(error);
        assertThat(runs).hasValue(1L);
    }

    @Test
    void theCallersInterruptFlagSurvivesExecute() throws Exception {
        Policy policy = fresh();
        try {
            if (runsTheCallOnTheCallersThread()) {
                String value = policy.execute(() -> {
                    Thread.currentThread().interrupt();
                    return "done";
                });
                assertThat(value).isEqualTo("done");
            } else {
                Thread.currentThread().interrupt();
                try {
                    policy.execute(() -> "done");
                } catch (RuntimeException refusedBecauseInterrupted) {
                    // Allowed: a policy that must wait for another thread may give up when interrupted.
                }
            }
            assertThat(Thread.currentThread().isInterrupted()).as("interrupt flag after execute").isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void executeAsyncNeverThrows() {
        Policy policy = fresh();
        IllegalStateException boom = new IllegalStateException("supplier threw");
        CompletionStage<Object> failed = policy.executeAsync(() -> {
            throw boom;
        });
        assertThat(causeOf(failed)).isSameAs(boom);
        CompletionStage<String> ok = policy.executeAsync(() -> CompletableFuture.completedFuture("value"));
        assertThat(ok.toCompletableFuture().join()).isEqualTo("value");
    }

    @Test
    void manyThreadsEachGetTheirOwnValue() throws InterruptedException {
        Policy policy = fresh();
        Concurrently.run(thread -> {
            for (int i = 0; i < 1_000; i++) {
                long expected = ((long) thread << 32) | i;
                Long got = policy.<Long, RuntimeException>execute(() -> expected);
                assertThat(got).isEqualTo(expected);
            }
        });
    }

    private static Throwable causeOf(CompletionStage<?> stage) {
        try {
            stage.toCompletableFuture().join();
        } catch (CompletionException e) {
            return e.getCause();
        }
        throw new AssertionError("the stage completed normally");
    }
}
