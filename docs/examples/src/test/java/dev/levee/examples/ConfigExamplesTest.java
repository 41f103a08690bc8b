package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ConfigExamplesTest {

    @Test
    void theFileBuildsWhatThePageSays() throws IOException {
        ConfigExamples.Built built = ConfigExamples.fromProperties();
        assertThat(built.payments().config().waitDurationInOpen()).isEqualTo(Duration.ofSeconds(5));
        assertThat(built.payments().config().failureRateThreshold()).isEqualTo(0.5);     // from default
        assertThat(built.retries().get("payments").config().maxAttempts()).isEqualTo(4);
        assertThat(built.search().limit()).isEqualTo(100);
        assertThat(built.search().period()).isEqualTo(Duration.ofSeconds(1));
        assertThat(built.validated()).isEqualTo(4);   // circuitbreaker default + payments, retry payments, ratelimiter search
    }
}
