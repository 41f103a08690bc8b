package dev.levee.circuitbreaker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The "seed default — Levee default — why" table of {@code docs/circuitbreaker.md} says what the
 * builder does: each Levee default is read from {@link CircuitBreakerConfig#defaults()} and compared
 * with the table's cell.
 */
class SeedDefaultsTableTest {

    static Map<String, String> leveeDefaults(Path page, String heading) throws IOException {
        List<String> lines = Files.readAllLines(page);
        int start = lines.indexOf(heading);
        assertThat(start).as("%s has the heading %s", page, heading).isNotNegative();
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

    static String seconds(Duration d) {
        return d.toSeconds() + " s";
    }

    @Test
    void theTableMatchesTheBuilderDefaults() throws IOException {
        Map<String, String> table = leveeDefaults(Path.of("..", "docs", "circuitbreaker.md"), "### Seed defaults");
        CircuitBreakerConfig d = CircuitBreakerConfig.defaults();
        Map<String, String> actual = new LinkedHashMap<>();
        actual.put("waitDurationInOpen", seconds(d.waitDurationInOpen()));
        actual.put("permittedCallsInHalfOpen", Integer.toString(d.permittedCallsInHalfOpen()));
        actual.put("slowCallDurationThreshold", seconds(d.slowCallDurationThreshold()));
        actual.put("slowCallRateThreshold", Double.toString(d.slowCallRateThreshold()));
        actual.put("halfOpenRetryAfter", seconds(d.halfOpenRetryAfter()));
        actual.put("failureRateThreshold", Double.toString(d.failureRateThreshold()));
        actual.put("slidingWindowSize", Integer.toString(d.slidingWindowSize()));
        actual.put("minimumNumberOfCalls", Integer.toString(d.minimumNumberOfCalls()));
        actual.put("successThresholdInHalfOpen", Integer.toString(d.successThresholdInHalfOpen()));
        actual.put("failureCountThreshold", d.failureCountThreshold() + " (off)");
        actual.put("decayingFailureThreshold", d.decayingFailureThreshold() + " (off)");
        assertThat(table).containsExactlyInAnyOrderEntriesOf(actual);
        // The seeds' numbers the issue names are the defaults.
        assertThat(d.waitDurationInOpen()).isEqualTo(Duration.ofSeconds(30));
        assertThat(d.permittedCallsInHalfOpen()).isEqualTo(3);
        assertThat(d.slowCallDurationThreshold()).isEqualTo(Duration.ofSeconds(2));
        assertThat(d.slowCallRateThreshold()).isEqualTo(0.8);
        assertThat(d.halfOpenRetryAfter()).isEqualTo(Duration.ofSeconds(1));
    }
}
