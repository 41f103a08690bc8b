package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ManualTicker;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A synchronous retry and the caller's interrupt: never retried through it, never lost. */
class RetryInterruptEdgesTest {
    private static final long MS = 1_000_000L;
    private final ManualTicker ticker = new ManualTicker(0);

    private RetryConfig.Builder config() {
        return RetryConfig.builder().ticker(ticker).sleeper(ticker).retryAll()
                .backoff(Backoff.constant(Duration.ofMillis(100))).jitter(Jitter.none()).maxAttempts(5);
    }

    @Test
    void aFailureOnAnInterruptedThreadIsNotRetriedAndTheFlagStays() {
        Retry retry = Retry.of("i", config().build());
        List<RetryEvent> events = new ArrayList<>();
        retry.onEvent(events::add);
        IOException boom = new IOException("boom");
        int[] calls = {0};
        try {
            Thread.currentThread().interrupt();
            assertThatThrownBy(() -> retry.execute(() -> {
                calls[0]++;
                throw boom;
            })).isSameAs(boom);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(calls[0]).isEqualTo(1);
        assertThat(events).containsExactly(new RetryEvent.GaveUp("i", 0, 1, GiveUpReason.NOT_RETRYABLE, boom, null));
    }

    /** A failed result whose backoff is interrupted: the result comes back as is, the flag is kept. */
    @Test
    void anInterruptedBackoffAfterAFailedResultReturnsThatResult() throws Exception {
        Retry retry = Retry.of("r", config().retryOnResult(r -> "bad".equals(r)).sleeper(nanos -> {
            throw new InterruptedException("stop");
        }).build());
        String answer;
        try {
            answer = retry.execute(() -> "bad");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(answer).isEqualTo("bad");
    }
}
