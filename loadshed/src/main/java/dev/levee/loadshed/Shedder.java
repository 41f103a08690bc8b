package dev.levee.loadshed;

import dev.levee.core.Gate;
import dev.levee.core.Subscription;
import java.util.function.Consumer;

/**
 * What every load shedder of this module is: a {@link Gate} (so it composes in a
 * {@link dev.levee.core.Pipeline}) that also answers {@link #decide} without throwing, and reports the
 * same counters to {@code SheddingMetricsBinder}.
 *
 * <p>The {@code Gate} form reads the request's priority from {@link RequestPriority#current()}; a
 * refusal throws a {@link dev.levee.core.ShedException} whose {@code reason()} is the decision's
 * {@link ShedDecision#reason()}.
 */
public interface Shedder extends Gate {

    /** @return the shedder's name, the {@code name} metric tag */
    @Override
    String name();

    /**
     * Decides for one request without throwing and without taking a permit: the fast path for code
     * that answers 503 itself. Allocation-free.
     *
     * @param priority the request's level in [1, 10] (see {@link RequestPriority})
     * @param nowNanos the current reading of {@link #ticker()}
     * @return the decision and its reason
     */
    ShedDecision decide(int priority, long nowNanos);

    /** @return calls admitted (permits granted) since creation */
    long admittedCount();

    /**
     * Requests refused for one reason since creation.
     *
     * @param reason a shedding decision
     * @return the count
     */
    long shedCount(ShedDecision reason);

    /** @return requests refused since creation, all reasons */
    long shedCount();

    /** @return permits granted and not yet completed */
    int inFlight();

    /**
     * The share of requests refused, a fraction in [0, 1]: for the PID shedder its current rejection
     * probability; for the others the refused share of all decisions since creation (a dashboard
     * takes the recent rate from the counters).
     *
     * @return the shed rate
     */
    double shedRate();

    /** @return a snapshot of the counters */
    ShedderMetrics metrics();

    /**
     * Registers a listener for this shedder's events.
     *
     * @param listener receives each event
     * @return closing it unregisters the listener
     */
    Subscription onEvent(Consumer<? super ShedderEvent> listener);
}
