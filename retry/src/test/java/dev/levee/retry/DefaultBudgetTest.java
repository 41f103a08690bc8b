package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.core.Ticker;
import dev.levee.retry.internal.StripedWindowedCounter;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The budget every retry has by default (issue 13): cheap on the success path, effective on failures. */
class DefaultBudgetTest {


    @Test
    void aSuccessfulCallDepositsWithoutReadingTheClock() throws Exception {
        ManualTicker time = new ManualTicker();
        AtomicLong reads = new AtomicLong();
        Ticker ticker = () -> {
            reads.incrementAndGet(); // every read is counted
            return time.read();
        };
        Retry retry = Retry.of("quiet", RetryConfig.builder().ticker(ticker).build());
        assertThat(retry.budget()).isNotNull();
        long before = reads.get();
        for (int i = 0; i < StripedWindowedCounter.REFRESH_EVERY - 1; i++) {
            assertThat(retry.execute(() -> "ok")).isEqualTo("ok");
        }
        assertThat(reads.get()).as("ticker reads on the success path").isEqualTo(before);
        assertThat(retry.budget().deposits()).isEqualTo(StripedWindowedCounter.REFRESH_EVERY - 1);
    }

    @Test
    void theDefaultBudgetStopsRetriesAtTwentyPercentPlusTheReserve() {
        ManualTicker ticker = new ManualTicker();
        Retry retry = Retry.of("failing", RetryConfig.builder().ticker(ticker).sleeper(nanos -> { })
                .retryAll().maxAttempts(2).build());
        IOException down = new IOException("down");
        int requests = 2_000;
        for (int i = 0; i < requests; i++) {
            try {
                retry.execute(() -> {
                    throw down;
                });
            } catch (IOException expected) {
                // every attempt fails
            }
        }
        // Within one ttl: at most 20% of the requests plus 10/s · 10 s.
        assertThat(retry.metrics().retries()).isLessThanOrEqualTo((long) (0.2 * requests) + 100);
        assertThat(retry.metrics().retries()).isGreaterThan(0L);
        assertThat(retry.budget().refusals()).isGreaterThan(0L);
    }
}
