package dev.levee.bulkhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import dev.levee.core.Ticker;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class BulkheadConfigTest {

    @Test
    void defaultsAreFailFastAt25() {
        BulkheadConfig c = BulkheadConfig.builder("b").build();
        assertThat(c.maxConcurrentCalls()).isEqualTo(25);
        assertThat(c.maxWait()).isEqualTo(Duration.ZERO);
        assertThat(c.fair()).isFalse();
        assertThat(c.saturationWarning()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.ticker()).isSameAs(Ticker.system());
    }

    @Test
    void nameMustNotBeBlank() {
        assertThatThrownBy(() -> BulkheadConfig.builder(" ").build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("name");
    }

    @Test
    void maxConcurrentCallsBounds() {
        assertThatThrownBy(() -> BulkheadConfig.builder("b").maxConcurrentCalls(0).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("Bulkhead 'b': maxConcurrentCalls must be in [1, 1000000] but was 0");
        assertThatThrownBy(() -> BulkheadConfig.builder("b").maxConcurrentCalls(1_000_001).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("maxConcurrentCalls");
        assertThat(BulkheadConfig.builder("b").maxConcurrentCalls(1).build().maxConcurrentCalls()).isEqualTo(1);
    }

    @Test
    void maxWaitBounds() {
        assertThatThrownBy(() -> BulkheadConfig.builder("b").maxWait(Duration.ofNanos(-1)).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("Bulkhead 'b': maxWait must be >= 0 but was PT-0.000000001S");
        assertThatThrownBy(() -> BulkheadConfig.builder("b").maxWait(Duration.ofHours(2)).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("maxWait must be <= PT1H");
        assertThatThrownBy(() -> BulkheadConfig.builder("b").maxWait(null).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("maxWait");
        assertThat(BulkheadConfig.builder("b").maxWait(Duration.ofHours(1)).build().maxWaitNanos())
                .isEqualTo(Duration.ofHours(1).toNanos());
    }

    @Test
    void saturationWarningBounds() {
        assertThatThrownBy(() -> BulkheadConfig.builder("b").saturationWarning(Duration.ZERO).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("Bulkhead 'b': saturationWarning must be > 0 but was PT0S");
    }

    @Test
    void tickerMustBeSet() {
        assertThatThrownBy(() -> BulkheadConfig.builder("b").ticker(null).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("ticker");
    }

    @Test
    void withNameAndToBuilderKeepEverythingElse() {
        ManualTicker ticker = new ManualTicker();
        BulkheadConfig c = BulkheadConfig.builder("a").maxConcurrentCalls(3).maxWait(Duration.ofMillis(5))
                .fair(true).saturationWarning(Duration.ofSeconds(1)).ticker(ticker).build();
        BulkheadConfig renamed = c.withName("z");
        assertThat(renamed.name()).isEqualTo("z");
        assertThat(renamed.maxConcurrentCalls()).isEqualTo(3);
        assertThat(renamed.maxWait()).isEqualTo(Duration.ofMillis(5));
        assertThat(renamed.fair()).isTrue();
        assertThat(renamed.saturationWarning()).isEqualTo(Duration.ofSeconds(1));
        assertThat(renamed.ticker()).isSameAs(ticker);
        assertThat(c.toBuilder().build().toString()).isEqualTo(c.toString());
    }
}
