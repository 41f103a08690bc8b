package dev.levee.lab;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Runs the overload lab: the scripted phases against the unprotected and the Levee configuration at
 * once, on two real loopback servers, with one console line per second per configuration; then writes
 * the HTML report and prints where it is.
 *
 * <p>Arguments: {@code --mode=short} (the default, about 45 s) or {@code --mode=long} (about 3 minutes);
 * {@code --out=DIR} (default {@code target/lab}); {@code --seed=N} (default 42); {@code --simulate} to run
 * the same script on virtual time (seconds of CPU, no sockets), as the tests do.
 */
public final class LabMain {
    private LabMain() {}

    /**
     * Runs the lab.
     *
     * @param args see the class comment
     * @throws Exception if the servers cannot start or the report cannot be written
     */
    public static void main(String[] args) throws Exception {
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
        }
        String mode = "short";
        Path out = Path.of("target", "lab");
        long seed = 42;
        boolean simulate = false;
        for (String arg : args) {
            if (arg == null || arg.isBlank()) {
                continue;                     // an empty -Dlab.extra
            } else if (arg.startsWith("--mode=")) {
                mode = arg.substring("--mode=".length());
            } else if (arg.startsWith("--out=")) {
                out = Path.of(arg.substring("--out=".length()));
            } else if (arg.startsWith("--seed=")) {
                seed = Long.parseLong(arg.substring("--seed=".length()));
            } else if (arg.equals("--simulate")) {
                simulate = true;
            } else {
                throw new IllegalArgumentException("unknown argument " + arg + " (use --mode=short|long, --out=DIR, --seed=N, --simulate)");
            }
        }
        Script script = switch (mode) {
            case "short" -> Script.shortRun();
            case "long" -> Script.longRun();
            default -> throw new IllegalArgumentException("--mode must be short or long, not " + mode);
        };
        PrintStream console = System.out;
        LabSettings settings = LabSettings.defaults();
        if (!simulate) {
            console.println("Loopback only (127.0.0.1), two servers on free ports; clients on " + RealEnvironment.clientThreads()
                    + "; the run stops by itself after " + (script.seconds() + Lab.DRAIN_SECONDS) + " s.");
        }
        if (!simulate) {
            console.println("Warming up (4 s, not recorded) ...");
            try (Environment warm = new RealEnvironment()) {
                Lab.run(Script.warmup(), settings, warm, seed + 1, new PrintStream(OutputStream.nullOutputStream(), true, UTF_8));
            }
        }
        LabResult result;
        try (Environment env = simulate ? new SimEnvironment(settings) : new RealEnvironment()) {
            result = Lab.run(script, settings, env, seed, console);
        }
        console.println();
        console.println("== Summary: goodput per second (share of capacity)");
        for (Phase p : script.phases()) {
            Summary.PhaseStats n = Summary.phase(result, Lab.UNPROTECTED, p.key());
            Summary.PhaseStats l = Summary.phase(result, Lab.PROTECTED, p.key());
            console.printf(Locale.ROOT, "  %-9s offered %5.1f/s   unprotected %5.1f/s (%3.0f%%)   Levee %5.1f/s (%3.0f%%)%n", p.key(),
                    n.offered(), n.goodput(), 100 * n.capacityShare(), l.goodput(), 100 * l.capacityShare());
        }
        for (Verdict v : Verdict.of(result)) {
            console.println((v.pass() ? "  PASS " : "  FAIL ") + v.claim() + ": " + v.measured());
        }
        Path report = HtmlReport.write(result, out).toAbsolutePath();
        console.println();
        console.println("Report: " + report);
    }
}
