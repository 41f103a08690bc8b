package dev.levee.loadshed.sim;

import dev.levee.core.DeadlineExceededException;
import dev.levee.core.Gate;
import java.util.function.Function;

/**
 * Decides, in a {@link Simulation}, whether a request may enter the server now, and hears how each
 * admitted request ended. A {@link Gate} adapts with {@link #gate(Gate)}; anything else (a shedder, a
 * probabilistic rule, a per-key router) implements the two methods.
 *
 * <p>Called on the simulation's single thread, at virtual time {@code nowNanos} (which equals the
 * simulation ticker's reading).
 */
public interface Admission {

    /**
     * Whether {@code request} enters the server now. A refusal sends the request to the front queue if
     * the simulation has one (it will be offered again when a request completes), else rejects it.
     *
     * @param request the request
     * @param nowNanos the virtual time
     * @return true to admit; then {@link #onComplete} follows exactly once
     */
    boolean tryAdmit(SimRequest request, long nowNanos);

    /**
     * An admitted request ended: {@link SimRequest#fate()} is {@code COMPLETED}, {@code FAILED} or
     * {@code SKIPPED_EXPIRED}; {@link SimRequest#isLate()} tells whether its client had given up.
     *
     * @param request the request
     * @param nowNanos the virtual time (its end)
     */
    void onComplete(SimRequest request, long nowNanos);

    /**
     * Admits everything: the unprotected server.
     *
     * @return the admission
     */
    static Admission all() {
        return new Admission() {
            @Override
            public boolean tryAdmit(SimRequest request, long nowNanos) {
                return true;
            }

            @Override
            public void onComplete(SimRequest request, long nowNanos) {}
        };
    }

    /**
     * Drives a gate through the permit protocol: {@code tryAcquire(now)} at admission; at the end
     * {@code onSuccess(serverLatency)} for a request served within its deadline, {@code onFailure}
     * with a {@link DeadlineExceededException} for one that ended late or was skipped as expired (its
     * handler would have seen the propagated deadline pass), and {@code onFailure} with a
     * {@link SimulatedFailure} for one the server failed.
     *
     * @param gate the gate; built on the simulation's ticker
     * @return the admission
     */
    static Admission gate(Gate gate) {
        return keyed(r -> gate);
    }

    /**
     * Like {@link #gate(Gate)}, with the gate chosen per request (a per-tenant or per-priority
     * router). The chosen gate is remembered in {@link SimRequest#attachment()}.
     *
     * @param router picks the gate of a request
     * @return the admission
     */
    static Admission keyed(Function<SimRequest, Gate> router) {
        DeadlineExceededException late = new DeadlineExceededException("sim", "client deadline passed", 0L);
        SimulatedFailure failure = new SimulatedFailure();
        return new Admission() {
            @Override
            public boolean tryAdmit(SimRequest request, long nowNanos) {
                Gate g = router.apply(request);
                if (g.tryAcquire(nowNanos)) {
                    request.attachment(g);
                    return true;
                }
                return false;
            }

            @Override
            public void onComplete(SimRequest request, long nowNanos) {
                Gate g = (Gate) request.attachment();
                long latency = request.serverLatencyNanos();
                if (request.fate() == SimRequest.Fate.FAILED) {
                    g.onFailureAt(nowNanos, latency, failure);
                } else if (request.isLate() || request.fate() == SimRequest.Fate.SKIPPED_EXPIRED) {
                    g.onFailureAt(nowNanos, latency, late);
                } else {
                    g.onResultAt(nowNanos, latency, null);
                }
            }
        };
    }

    /** The exception a simulated server failure is reported with. Stackless and shared. */
    final class SimulatedFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SimulatedFailure() {
            super("simulated server failure", null, false, false);
        }
    }
}
