package dev.levee.circuitbreaker.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The breaker's current {@link Phase}: one volatile reference replaced by CAS, never null once set
 * (an {@code AtomicReference} says nothing about that, so nullness checkers would see every read as
 * nullable).
 */
public final class PhaseRef {
    private static final VarHandle PHASE;

    static {
        try {
            PHASE = MethodHandles.lookup().findVarHandle(PhaseRef.class, "phase", Phase.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through PHASE
    private volatile Phase phase;

    /**
     * @param initial the first phase
     */
    public PhaseRef(Phase initial) {
        this.phase = initial;
    }

    /** @return the current phase */
    public Phase get() {
        return phase;
    }

    /**
     * Replaces {@code expected} by {@code next} if it is still current.
     *
     * @param expected the phase read
     * @param next the phase that replaces it
     * @return whether this call replaced it
     */
    public boolean compareAndSet(Phase expected, Phase next) {
        return PHASE.compareAndSet(this, expected, next);
    }
}
