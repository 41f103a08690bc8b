package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The retry examples of docs/retry.md, run: deterministic (manual time, seeded randomness). */
class RetryDemoTest {

    @Test
    void theRetryExamplesTellTheirStory() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        RetryDemo.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String output = bytes.toString(StandardCharsets.UTF_8);
        assertThat(output).contains("successfulWithRetry=3", "failedWithRetry=0");
        assertThat(output).contains("status 503: 3 attempt(s)", "status 404: 1 attempt(s)", "status 422: 1 attempt(s)",
                "IllegalArgumentException: 1 attempt(s)");
        assertThat(output).contains("gave up at once after 1 attempt");
        assertThat(output).contains("1000 requests made 1300 downstream calls (without a budget: 27000)");
        assertThat(output).contains("hedged after 50 ms: results from replica 2; first attempt cancelled: true");
    }
}
