package dev.levee.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line: what Maven passes (an empty -Dlab.extra arrives as null) and the report it writes. */
class LabMainTest {

    @Test
    void aSimulatedRunWritesTheReportWhereAskedAndIgnoresEmptyArguments(@TempDir Path dir) throws Exception {
        LabMain.main(new String[] {"--mode=short", "--out=" + dir, null, "", "--simulate", "--seed=42"});

        Path report = dir.resolve("lab-report.html");
        assertThat(report).exists();
        assertThat(Files.readString(report)).contains("<h1>Levee overload lab</h1>", "short script, simulated run");
    }

    @Test
    void anUnknownArgumentOrModeIsRefused() {
        assertThatThrownBy(() -> LabMain.main(new String[] {"--fast"})).hasMessageContaining("unknown argument --fast");
        assertThatThrownBy(() -> LabMain.main(new String[] {"--mode=medium", "--simulate"})).hasMessageContaining("short or long");
    }
}
