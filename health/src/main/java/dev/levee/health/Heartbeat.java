package dev.levee.health;

import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import dev.levee.core.LoadSignal;
import dev.levee.core.internal.Nanos;
import java.time.Duration;

/**
 * A stuck-thread detector: the thread that must keep moving (a main loop, a consumer, a scheduler)
 * calls {@link #beat()}; the signal reads the silence since the last beat over {@code maxSilence}, so
 * it reaches 1.0 when the thread has been silent for {@code maxSilence}. Give it to a
 * {@link Watchdog} with threshold 1.0, or to {@link HealthChecks#load} as a liveness check.
 *
 * <p>Thread-safe; {@link #beat()} is one ticker read and one volatile write.
 */
public final class Heartbeat implements LoadSignal {
    private final Ticker ticker;
    private final long maxSilenceNanos;
    private volatile long lastBeat;

    private Heartbeat(Ticker ticker, long maxSilenceNanos) {
        this.ticker = ticker;
        this.maxSilenceNanos = maxSilenceNanos;
        this.lastBeat = ticker.read();
    }

    /**
     * A heartbeat that starts with a beat now.
     *
     * @param ticker the ticker
     * @param maxSilence the silence that reads as 1.0; {@code > 0}
     * @return the heartbeat
     */
    public static Heartbeat of(Ticker ticker, Duration maxSilence) {
        Validate.notNull("Heartbeat", "ticker", ticker);
        Validate.positive("Heartbeat", "maxSilence", maxSilence);
        return new Heartbeat(ticker, Nanos.of(maxSilence));
    }

    /** Records that the watched thread is moving. */
    public void beat() {
        lastBeat = ticker.read();
    }

    /**
     * Silence since the last beat over {@code maxSilence}.
     *
     * @return {@code >= 0}; 1.0 at {@code maxSilence}
     */
    @Override
    public double load() {
        long silence = ticker.read() - lastBeat;
        return silence <= 0 ? 0.0 : silence / (double) maxSilenceNanos;
    }
}
