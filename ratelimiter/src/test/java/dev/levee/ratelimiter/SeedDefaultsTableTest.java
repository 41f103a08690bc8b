package dev.levee.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The "seed default — Levee default — why" table of {@code docs/ratelimiter.md} says what the builder
 * does: each Levee default is read from the builder and compared with the table's cell.
 */
class SeedDefaultsTableTest {

    private static Map<String, String> leveeDefaults() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("..", "docs", "ratelimiter.md"));
        int start = lines.indexOf("### Seed defaults");
        assertThat(start).isNotNegative();
        Map<String, String> cells = new LinkedHashMap<>();
        boolean inTable = false;
        for (int i = start + 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("|")) {
                inTable = true;
                String[] c = line.split("\\|");
                String knob = c[1].trim().replace("`", "");
                if (!knob.equals("knob") && !knob.startsWith("---")) {
                    cells.put(knob, c[3].trim());
                }
            } else if (inTable) {
                break;
            }
        }
        return cells;
    }

    @Test
    void theTableMatchesTheBuilderDefaults() throws IOException {
        RateLimiterConfig d = RateLimiterConfig.defaults();
        RateLimiterConfig bucket = RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.TOKEN_BUCKET).build();
        Map<String, String> actual = new LinkedHashMap<>();
        actual.put("algorithm", d.algorithm().name());
        actual.put("initialTokens", bucket.initialTokens() == bucket.burst() ? "= burst" : Long.toString(bucket.initialTokens()));
        actual.put("maxWait", Long.toString(d.maxWaitNanos()));
        Map<String, String> written = new LinkedHashMap<>();
        RateLimiter limiter = RateLimiter.ofDefaults("t");
        RateLimitHeaders.write(limiter, limiter.peek(limiter.ticker().read(), new RateLimitDecision()), written::put);
        actual.put("header style", written.containsKey(RateLimitHeaders.RATE_LIMIT)
                && !written.containsKey(RateLimitHeaders.X_RATE_LIMIT_LIMIT) ? "IETF" : "X_RATE_LIMIT");
        assertThat(leveeDefaults()).containsExactlyInAnyOrderEntriesOf(actual);
    }
}
