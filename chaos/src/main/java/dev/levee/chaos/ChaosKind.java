package dev.levee.chaos;

import java.util.Locale;

/** What a {@link Chaos} policy injects into a selected call; also the {@code kind} tag of its meters. */
public enum ChaosKind {
    /** A delay before the call runs (the call still runs). */
    LATENCY,
    /** An exception thrown instead of running the call. */
    FAULT,
    /** A substitute result returned instead of running the call. */
    RESULT;

    /**
     * The tag value: the constant's name in lower case ({@code latency}, {@code fault}, {@code result}).
     *
     * @return the tag value
     */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
