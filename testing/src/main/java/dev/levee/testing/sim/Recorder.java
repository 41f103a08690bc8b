package dev.levee.testing.sim;

import dev.levee.core.Ticker;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * What a simulation's calls experienced, in order: each {@link Entry} has the virtual time, who
 * ({@code subject}: a dependency, "request", a policy), what happened ({@code outcome}) and how long it
 * took. Queries count entries per window; {@link #digest()} fingerprints the whole run so a test can
 * assert that the same seed gives the same run, byte for byte.
 */
public final class Recorder {

    /**
     * One thing that happened.
     *
     * @param atNanos virtual time when it was recorded
     * @param subject who (a dependency's name, "request", …)
     * @param outcome what ("ok", "failed", "outage", "overloaded", …)
     * @param latencyNanos how long it took (0 when not a call)
     */
    public record Entry(long atNanos, String subject, String outcome, long latencyNanos) {
        /** @return the entry as one line: {@code at subject outcome latency} */
        public String line() {
            return atNanos + " " + subject + " " + outcome + " " + latencyNanos;
        }
    }

    private final Ticker ticker;
    private final List<Entry> entries = new ArrayList<>();

    /**
     * A recorder stamping entries with {@code ticker}.
     *
     * @param ticker the virtual clock
     */
    public Recorder(Ticker ticker) {
        this.ticker = Objects.requireNonNull(ticker, "ticker");
    }

    /**
     * Records something at the current virtual time.
     *
     * @param subject who
     * @param outcome what
     * @param latencyNanos how long it took, or 0
     */
    public void record(String subject, String outcome, long latencyNanos) {
        recordAt(ticker.read(), subject, outcome, latencyNanos);
    }

    /**
     * Records something at a given virtual time (a call's start, when it is recorded at its end).
     *
     * @param atNanos the virtual time
     * @param subject who
     * @param outcome what
     * @param latencyNanos how long it took, or 0
     */
    public void recordAt(long atNanos, String subject, String outcome, long latencyNanos) {
        entries.add(new Entry(atNanos, subject, outcome, latencyNanos));
    }

    /** @return every entry, in the order recorded (unmodifiable) */
    public List<Entry> entries() {
        return Collections.unmodifiableList(entries);
    }

    /**
     * Counts entries of {@code subject} whose time is in {@code [fromNanos, toNanos)}.
     *
     * @param subject who
     * @param outcome what, or null for any outcome
     * @param fromNanos inclusive start
     * @param toNanos exclusive end
     * @return the count
     */
    public long count(String subject, String outcome, long fromNanos, long toNanos) {
        long n = 0;
        for (Entry e : entries) {
            if (e.atNanos >= fromNanos && e.atNanos < toNanos && e.subject.equals(subject)
                    && (outcome == null || e.outcome.equals(outcome))) {
                n++;
            }
        }
        return n;
    }

    /**
     * Counts entries of {@code subject} per window: element {@code i} covers {@code [i·w, (i+1)·w)}.
     *
     * @param subject who
     * @param outcome what, or null for any outcome
     * @param windowNanos the window length, greater than zero
     * @param windows how many windows
     * @return the counts
     */
    public long[] perWindow(String subject, String outcome, long windowNanos, int windows) {
        long[] counts = new long[windows];
        for (Entry e : entries) {
            long w = e.atNanos / windowNanos;
            if (w >= 0 && w < windows && e.subject.equals(subject) && (outcome == null || e.outcome.equals(outcome))) {
                counts[(int) w]++;
            }
        }
        return counts;
    }

    /**
     * The SHA-256 of every entry's {@link Entry#line()}, newline-separated, in order: equal for two runs
     * exactly when they recorded the same things at the same virtual times.
     *
     * @return 64 hex digits
     */
    public String digest() {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (Entry e : entries) {
                sha.update(e.line().getBytes(StandardCharsets.UTF_8));
                sha.update((byte) '\n');
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JDK", e);
        }
    }
}
