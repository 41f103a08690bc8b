package dev.levee.degrade;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * A {@link LastKnownGood} had no value for the key that was young enough to serve. Added as
 * suppressed to the primary failure the caller gets back (where that failure allows suppression),
 * and published as the failure of the {@code last-known-good} tier. Stackless.
 */
public final class StaleValueException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The age of the refused value; null when nothing was remembered. */
    private final @Nullable Duration age;

    /**
     * @param message what was missing
     * @param age the age of the value refused as too old; null when there was none
     */
    public StaleValueException(String message, @Nullable Duration age) {
        super(message, null, true, false);
        this.age = age;
    }

    /**
     * The age of the value that was refused.
     *
     * @return the age, or null when no value was remembered for the key
     */
    public @Nullable Duration age() {
        return age;
    }
}
