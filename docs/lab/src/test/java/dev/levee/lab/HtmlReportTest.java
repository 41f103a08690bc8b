package dev.levee.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The report of a simulated short run: self-contained, every chart with the series it declares, the
 * summary's verdict rows in the markup the browser check reads. (The browser check itself,
 * {@code docs/lab/check-report}, renders the real run's report in headless Chromium in {@code .ci/run}.)
 */
class HtmlReportTest {
    private static LabResult result;
    private static String html;

    @BeforeAll
    static void run() throws Exception {
        result = LabSimulationTest.shortRun(42);
        html = HtmlReport.render(result);
        Path dir = Path.of(System.getProperty("lab.reportDir", "target/lab"));
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("lab-report-simulated.html"), html);
    }

    @Test
    void everyChartDeclaresItsSeriesAndDrawsEachOne() {
        List<Chart> charts = HtmlReport.charts(result);
        assertThat(charts).hasSize(8);
        Matcher svg = Pattern.compile("<svg class=\"chart\" id=\"chart-([a-z-]+)\" data-series=\"(\\d+)\"(.*?)</svg>", Pattern.DOTALL)
                .matcher(html);
        int found = 0;
        while (svg.find()) {
            found++;
            int declared = Integer.parseInt(svg.group(2));
            Matcher path = Pattern.compile("<path class=\"series\"[^>]* d=\"(M[^\"]+)\"").matcher(svg.group(3));
            int drawn = 0;
            while (path.find()) {
                drawn++;
            }
            assertThat(declared).as("chart %s", svg.group(1)).isPositive();
            assertThat(drawn).as("chart %s: series with points", svg.group(1)).isEqualTo(declared);
        }
        assertThat(found).isEqualTo(8);
    }

    @Test
    void theReportLoadsNothingFromOutside() {
        assertThat(html).doesNotContain("src=", "href=", "@import", "url(", "@font-face");
        assertThat(html).contains("<script>").doesNotContain("<script src");
    }

    @Test
    void theSummaryShowsLeveeAheadInTheSpikeAndTheOutage() {
        assertThat(row("spike", "goodput-levee")).isGreaterThan(row("spike", "goodput-unprotected"));
        assertThat(row(Summary.OUTAGE_EPISODE, "goodput-levee")).isGreaterThan(row(Summary.OUTAGE_EPISODE, "goodput-unprotected"));
        assertThat(row("outage", "answered-levee")).isGreaterThan(row("outage", "answered-unprotected"));
        assertThat(html).contains("class=\"verdict pass\"").doesNotContain("class=\"verdict fail\"");
    }

    private static double row(String phase, String column) {
        Matcher m = Pattern.compile("<tr class=\"phase-row\" data-phase=\"" + Pattern.quote(phase) + "\"[^>]* data-" + column
                + "=\"([0-9.]+)\"").matcher(html);
        assertThat(m.find()).as("row %s column %s", phase, column).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
