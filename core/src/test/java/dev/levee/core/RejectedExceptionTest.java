package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RejectedExceptionTest {

    @Test
    void everyKindCarriesNameHintAndKindAndIsStackless() {
        List<RejectedException> all = List.of(
                new CircuitOpenException("cb", "open", 1_500_000_000L),
                new RateLimitedException("rl", "limited", 1_500_000_000L),
                new BulkheadFullException("bh", "full", 1_500_000_000L),
                new ShedException("ls", "shed", 1_500_000_000L),
                new DeadlineExceededException("to", "late", 1_500_000_000L));

        assertThat(all).extracting(RejectedException::kind)
                .containsExactly("circuit_open", "rate_limited", "bulkhead_full", "shed", "deadline_exceeded");
        for (RejectedException e : all) {
            assertThat(e).isInstanceOf(RuntimeException.class);
            assertThat(e.getStackTrace()).as("stackless by default").isEmpty();
            assertThat(e.retryAfter()).isEqualTo(Duration.ofMillis(1500));
            assertThat(e.retryAfterSeconds()).isEqualTo(2);
            assertThat(e.policyName()).isNotBlank();
        }
    }

    @Test
    void negativeHintsAreStoredAsZeroAndCausesAreKept() {
        IllegalStateException cause = new IllegalStateException();
        RejectedException e = new ShedException("x", "m", -5, cause);
        assertThat(e.retryAfterNanos()).isZero();
        assertThat(e.retryAfterSeconds()).isZero();
        assertThat(e.getCause()).isSameAs(cause);
    }

    @Test
    void theHintInNanosecondsAndTheShedReasonAreKept() {
        assertThat(new BulkheadFullException("bh", "full", 1_500_000_000L).retryAfterNanos()).isEqualTo(1_500_000_000L);
        ShedException shed = new ShedException("ls", "concurrency_limit", "over the limit", 0L, null);
        assertThat(shed.reason()).isEqualTo("concurrency_limit");
        assertThat(new ShedException("ls", "m", 0L).reason()).isEqualTo(ShedException.UNSPECIFIED_REASON);
    }
}
