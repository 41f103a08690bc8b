package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ManualTicker;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Exact edges of a retry's decision, on the manual ticker (the sleeper advances it). */
class RetryDecisionEdgesTest {
    private static final long MS = 1_000_000L;
    private final ManualTicker ticker = new ManualTicker(0);

    private RetryConfig.Builder config() {
        return RetryConfig.builder().ticker(ticker).sleeper(ticker).retryAll()
                .backoff(Backoff.constant(Duration.ofMillis(100))).jitter(Jitter.none()).maxAttempts(10);
    }

    /**
     * The maximum duration counts from the start of the first attempt, not the first retry: attempts of
     * 100 ms with 100 ms between them fit twice in 350 ms (the third would start at 400 ms).
     */
    @Test
    void theMaximumDurationCountsFromTheFirstAttemptsStart() {
        Retry retry = Retry.of("d", config().maxDuration(Duration.ofMillis(350)).build());
        List<RetryEvent> events = new ArrayList<>();
        retry.onEvent(events::add);
        int[] calls = {0};
        IOException[] last = new IOException[1];

        assertThatThrownBy(() -> retry.execute(() -> {
            calls[0]++;
            ticker.advance(100 * MS);
            throw last[0] = new IOException("slow failure " + calls[0]);
        })).isSameAs(last[0]);

        assertThat(calls[0]).isEqualTo(2);
        assertThat(events.get(events.size() - 1)).isEqualTo(
                new RetryEvent.GaveUp("d", 300 * MS, 2, GiveUpReason.MAX_DURATION, last[0], null));
    }

    /** An interval function answering zero means "retry at once"; only a negative answer falls back. */
    @Test
    void anIntervalOfZeroIsUsedAsIsAndOnlyANegativeOneFallsBackToTheBackoff() throws Exception {
        List<Long> delays = new ArrayList<>();
        Retry zero = Retry.of("z", config().intervalFunction((n, f, r) -> Duration.ZERO).build());
        zero.onEvent(e -> {
            if (e instanceof RetryEvent.Retried retried) {
                delays.add(retried.delayNanos());
            }
        });
        int[] calls = {0};
        assertThat(zero.execute(() -> {
            if (++calls[0] < 3) {
                throw new IOException("boom");
            }
            return "ok";
        })).isEqualTo("ok");
        assertThat(delays).containsExactly(0L, 0L);
        assertThat(ticker.read()).isZero();

        delays.clear();
        calls[0] = 0;
        Retry negative = Retry.of("n", config().intervalFunction((n, f, r) -> Duration.ofNanos(-1)).build());
        negative.onEvent(e -> {
            if (e instanceof RetryEvent.Retried retried) {
                delays.add(retried.delayNanos());
            }
        });
        assertThat(negative.execute(() -> {
            if (++calls[0] < 2) {
                throw new IOException("boom");
            }
            return "ok";
        })).isEqualTo("ok");
        assertThat(delays).containsExactly(100 * MS);
    }

    @Test
    void aCallAcrossReplicasReturnsTheCallsValue() throws Exception {
        ReplicaSet<String> replicas = ReplicaSet.of("rs", ReplicaSetConfig.builder().ticker(ticker)
                .selectionRule(SelectionRule.ROUND_ROBIN).build(), List.of("a", "b"));
        Retry retry = Retry.of("x", config().build());
        List<String> tried = new ArrayList<>();

        String answer = retry.execute(replicas, replica -> {
            tried.add(replica);
            if (tried.size() == 1) {
                throw new IOException("first replica failed");
            }
            return "from " + replica;
        });

        assertThat(answer).isEqualTo("from " + tried.get(1));
        assertThat(tried).hasSize(2).doesNotHaveDuplicates();
    }
}
