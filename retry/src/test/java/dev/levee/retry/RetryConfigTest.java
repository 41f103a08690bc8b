package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.Classifier;
import dev.levee.core.InvalidConfigException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

class RetryConfigTest {

    private static RetryConfig.Builder b() {
        return RetryConfig.builder("payments");
    }

    @Test
    void defaultsFollowPublishedPractice() {
        RetryConfig c = RetryConfig.ofDefaults("payments");
        assertThat(c.maxAttempts()).isEqualTo(3);
        assertThat(c.maxDurationNanos()).isZero();
        assertThat(c.backoff().delayNanos(1)).isEqualTo(100_000_000L);
        assertThat(c.backoff().delayNanos(2)).isEqualTo(200_000_000L);
        assertThat(c.backoff().maxNanos()).isEqualTo(10_000_000_000L);
        assertThat(c.jitter()).isSameAs(Jitter.full());
        assertThat(c.classifier()).isSameAs(Classifier.defaults());
        assertThat(c.maxRetryAfter()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.budgeted()).isFalse();
        assertThat(c.logLevel()).isEqualTo(Level.DEBUG);
        assertThat(Retry.of(c).budget()).isNull();
        RetryConfig withDefaultBudget = b().defaultBudget().build();
        Retry retry = Retry.of(withDefaultBudget);
        assertThat(retry.budget().config().retryRatio()).isEqualTo(0.2);
        assertThat(retry.budget()).as("a private budget per retry").isNotSameAs(Retry.of(withDefaultBudget).budget());
        assertThat(Retry.of(b().defaultBudget().withoutBudget().build()).budget()).isNull();
        assertThatThrownBy(() -> b().budget(null)).isInstanceOf(NullPointerException.class);
        RetryBudget shared = RetryBudget.ofDefaults("shared");
        assertThat(Retry.of(b().budget(shared).build()).budget()).isSameAs(shared);
        assertThat(Retry.of(b().budget(shared).build()).budget()).isSameAs(Retry.of(b().budget(shared).build()).budget());
    }

    @Test
    void everyBoundIsCheckedWithAClearMessage() {
        assertThatThrownBy(() -> RetryConfig.builder("").build()).isInstanceOf(InvalidConfigException.class)
                .hasMessage("Retry: name must be a non-blank string but was ''");
        assertThatThrownBy(() -> b().maxAttempts(0).build())
                .hasMessage("Retry 'payments': maxAttempts must be in [1, 1000] but was 0");
        assertThatThrownBy(() -> b().maxAttempts(1001).build()).hasMessageContaining("but was 1001");
        assertThatThrownBy(() -> b().maxDuration(Duration.ZERO).build())
                .hasMessage("Retry 'payments': maxDuration must be > 0 but was PT0S");
        assertThatThrownBy(() -> b().maxDuration(Duration.ofDays(2)).build())
                .hasMessage("Retry 'payments': maxDuration must be <= PT24H but was PT48H");
        assertThatThrownBy(() -> b().backoff(null).build()).hasMessageContaining("backoff must be set");
        assertThatThrownBy(() -> b().jitter(null).build()).hasMessageContaining("jitter must be set");
        assertThatThrownBy(() -> b().classifier(null).build()).hasMessageContaining("classifier must be set");
        assertThatThrownBy(() -> b().maxRetryAfter(Duration.ofSeconds(-1)).build())
                .hasMessage("Retry 'payments': maxRetryAfter must be >= 0 but was PT-1S");
        assertThatThrownBy(() -> b().maxRetryAfter(Duration.ofDays(2)).build()).hasMessageContaining("maxRetryAfter must be <= PT24H");
        assertThatThrownBy(() -> b().logLevel(null).build()).hasMessageContaining("logLevel must be set");
        assertThatThrownBy(() -> b().ticker(null).build()).hasMessageContaining("ticker must be set");
        assertThatThrownBy(() -> b().sleeper(null).build()).hasMessageContaining("sleeper must be set");
        assertThatThrownBy(() -> b().scheduler(null).build()).hasMessageContaining("scheduler must be set");
        assertThatThrownBy(() -> b().random(null).build()).hasMessageContaining("random must be set");
        // The bounds themselves are accepted.
        b().maxAttempts(1).maxDuration(Duration.ofNanos(1)).maxRetryAfter(Duration.ZERO).build();
        b().maxAttempts(1000).maxDuration(Duration.ofDays(1)).maxRetryAfter(Duration.ofDays(1)).build();
    }

    @Test
    void retryOnResultKeepsTheExceptionRules() {
        RetryConfig c = b().classifier(Classifier.builder().ignore(IllegalStateException.class).build())
                .retryOnResult("busy"::equals).build();
        assertThat(c.classifier().classify(new IllegalStateException())).isEqualTo(dev.levee.core.Outcome.IGNORED);
        assertThat(c.classifier().classifyResult("busy")).isEqualTo(dev.levee.core.Outcome.FAILURE);
        assertThat(c.classifier().classifyResult("fine")).isEqualTo(dev.levee.core.Outcome.SUCCESS);
    }

    @Test
    void aMaxRetryAfterOfZeroGivesUpOnAnyHint() {
        dev.levee.core.ManualTicker ticker = new dev.levee.core.ManualTicker();
        Retry retry = Retry.of(b().ticker(ticker).sleeper(ticker).maxRetryAfter(Duration.ZERO).build());
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        assertThatThrownBy(() -> retry.execute(() -> {
            calls.incrementAndGet();
            throw new dev.levee.core.BulkheadFullException("bh", "full", 1);
        })).isInstanceOf(dev.levee.core.BulkheadFullException.class);
        assertThat(calls).hasValue(1);
        // A rejection without a hint is not transient by default: not retried either ...
        assertThatThrownBy(() -> retry.execute(() -> {
            calls.incrementAndGet();
            throw new dev.levee.core.BulkheadFullException("bh", "full", 0);
        })).isInstanceOf(dev.levee.core.BulkheadFullException.class);
        assertThat(calls).hasValue(2);
        // ... but with retryAll() it is, with no hint to exceed.
        Retry all = Retry.of(b().ticker(ticker).sleeper(ticker).maxRetryAfter(Duration.ZERO).retryAll().build());
        assertThatThrownBy(() -> all.execute(() -> {
            calls.incrementAndGet();
            throw new dev.levee.core.BulkheadFullException("bh", "full", 0);
        })).isInstanceOf(dev.levee.core.BulkheadFullException.class);
        assertThat(calls).hasValue(5);
    }
}
