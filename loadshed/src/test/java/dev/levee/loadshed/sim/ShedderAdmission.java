package dev.levee.loadshed.sim;

import dev.levee.core.ContextScope;
import dev.levee.core.Gate;
import dev.levee.loadshed.RequestPriority;

/**
 * Drives a Levee gate like {@link Admission#gate(Gate)}, with each request's
 * {@link SimRequest#priority()} attached as the {@link RequestPriority} while the gate decides, so
 * priority-aware shedders see the simulated mix.
 */
public final class ShedderAdmission implements Admission {
    private final Gate gate;
    private final Admission completion;

    private ShedderAdmission(Gate gate) {
        this.gate = gate;
        this.completion = Admission.gate(gate);
    }

    /**
     * @param gate the shedder (or any gate), built on the simulation's ticker
     * @return the admission
     */
    public static ShedderAdmission of(Gate gate) {
        return new ShedderAdmission(gate);
    }

    @Override
    @SuppressWarnings("try") // the scope is opened only for its effect on the current thread
    public boolean tryAdmit(SimRequest request, long nowNanos) {
        try (ContextScope s = RequestPriority.attach(request.priority())) {
            if (gate.tryAcquire(nowNanos)) {
                request.attachment(gate);
                return true;
            }
            return false;
        }
    }

    @Override
    public void onComplete(SimRequest request, long nowNanos) {
        completion.onComplete(request, nowNanos);
    }
}
