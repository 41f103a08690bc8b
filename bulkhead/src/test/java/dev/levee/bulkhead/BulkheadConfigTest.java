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
        BulkheadConfig c = BulkheadConfig.builder().build();
        assertThat(c.maxConcurrentCalls()).isEqualTo(25);
        assertThat(c.maxWait()).isEqualTo(Duration.ZERO);
        assertThat(c.fair()).isFalse();
        assertThat(c.saturationWarning()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.ticker()).isSameAs(Ticker.system());
    }

    @Test
    void theNameGoesToTheBulkheadAndMustNotBeBlankNorTheConfigNull() {
        assertThatThrownBy(() -> Bulkhead.of(" ", BulkheadConfig.defaults()))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("name");
        assertThatThrownBy(() -> Bulkhead.of("b", (BulkheadConfig) null))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("Bulkhead 'b': config must be set (not null) but was null");
        assertThat(Bulkhead.ofDefaults("b").config()).isSameAs(BulkheadConfig.defaults());
        assertThat(Bulkhead.ofDefaults("b").name()).isEqualTo("b");
    }

    @Test
    void nullFieldsAreConfigErrorsNamingThePolicy() {
        assertThatThrownBy(() -> BulkheadConfig.builder().maxWait(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessage("Bulkhead: maxWait must be set (not null) but was null");
        assertThatThrownBy(() -> BulkheadConfig.builder().scheduler(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("scheduler");
        assertThatThrownBy(() -> BulkheadConfig.builder().asyncExecutor(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("asyncExecutor");
    }

    @Test
    void maxConcurrentCallsBounds() {
        assertThatThrownBy(() -> BulkheadConfig.builder().maxConcurrentCalls(0).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("Bulkhead: maxConcurrentCalls must be in [1, 1000000] but was 0");
        assertThatThrownBy(() -> BulkheadConfig.builder().maxConcurrentCalls(1_000_001).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("maxConcurrentCalls");
        assertThat(BulkheadConfig.builder().maxConcurrentCalls(1).build().maxConcurrentCalls()).isEqualTo(1);
    }

    @Test
    void maxWaitBounds() {
        assertThatThrownBy(() -> BulkheadConfig.builder().maxWait(Duration.ofNanos(-1)).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("Bulkhead: maxWait must be >= 0 but was PT-0.000000001S");
        assertThatThrownBy(() -> BulkheadConfig.builder().maxWait(Duration.ofHours(2)).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("maxWait must be <= PT1H");
        assertThatThrownBy(() -> BulkheadConfig.builder().maxWait(null).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("maxWait");
        assertThat(BulkheadConfig.builder().maxWait(Duration.ofHours(1)).build().maxWaitNanos())
                .isEqualTo(Duration.ofHours(1).toNanos());
    }

    @Test
    void saturationWarningBounds() {
        assertThatThrownBy(() -> BulkheadConfig.builder().saturationWarning(Duration.ZERO).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("Bulkhead: saturationWarning must be > 0 but was PT0S");
    }

    @Test
    void tickerMustBeSet() {
        assertThatThrownBy(() -> BulkheadConfig.builder().ticker(null).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("ticker");
    }

    @Test
    void toBuilderKeepsEverythingAndDefaultsAreShared() {
        ManualTicker ticker = new ManualTicker();
        BulkheadConfig c = BulkheadConfig.builder().maxConcurrentCalls(3).maxWait(Duration.ofMillis(5))
                .fair(true).saturationWarning(Duration.ofSeconds(1)).ticker(ticker).build();
        BulkheadConfig renamed = c.toBuilder().build();
        assertThat(BulkheadConfig.defaults()).isSameAs(BulkheadConfig.defaults());
        assertThat(BulkheadConfig.defaults().maxConcurrentCalls()).isEqualTo(25);
        assertThat(renamed.maxConcurrentCalls()).isEqualTo(3);
        assertThat(renamed.maxWait()).isEqualTo(Duration.ofMillis(5));
        assertThat(renamed.fair()).isTrue();
        assertThat(renamed.saturationWarning()).isEqualTo(Duration.ofSeconds(1));
        assertThat(renamed.ticker()).isSameAs(ticker);
        assertThat(c.toBuilder().build().toString()).isEqualTo(c.toString());
    }
}
