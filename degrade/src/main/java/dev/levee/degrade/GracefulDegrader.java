package dev.levee.degrade;

import dev.levee.core.Subscription;
import java.util.List;
import java.util.function.Consumer;

/**
 * What every degrading policy of this module shares — {@link Fallback} and {@link LastKnownGood} —
 * so that metrics binding and listeners treat them alike (the seed's {@code GracefulDegrader}).
 *
 * <p>Never silent: every time one serves a fallback value it increments its
 * {@code levee.degrade.fallbacks{name,reason,tier}} counter, logs at WARN (at most once per
 * {@code warnInterval} per name, saying how many were not logged) and publishes a
 * {@link FallbackEvent.FellBack}; when every tier fails it logs at ERROR (rate-limited the same way)
 * and publishes {@link FallbackEvent.Exhausted}.
 */
public sealed interface GracefulDegrader permits Fallback, LastKnownGood {

    /**
     * The name used in logs, events and metric tags.
     *
     * @return the name
     */
    String name();

    /**
     * The tiers' names, in the order they are tried.
     *
     * @return an unmodifiable list
     */
    List<String> tierNames();

    /**
     * How many values {@code tier} served for {@code reason} since creation; what the
     * {@code levee.degrade.fallbacks} counter reads.
     *
     * @param reason the reason
     * @param tier a tier's index in {@link #tierNames()}
     * @return the count
     */
    long fallbackCount(FallbackReason reason, int tier);

    /**
     * How many failures for {@code reason} found every tier failing; what the
     * {@code levee.degrade.exhausted} counter reads.
     *
     * @param reason the reason
     * @return the count
     */
    long exhaustedCount(FallbackReason reason);

    /**
     * Counters since creation.
     *
     * @return a snapshot
     */
    FallbackMetrics metrics();

    /**
     * Subscribes to fallback events.
     *
     * @param listener runs on the thread that handled the failure; must be fast
     * @return closing it unsubscribes
     */
    Subscription onEvent(Consumer<? super FallbackEvent> listener);
}
