package dev.levee.core.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Whether a part that calls a remote store is in an outage (the Redis-backed limits and idempotency
 * store, the idempotency guard), switched by calls, not flapped by them: {@code phase} is even while
 * the store answers and odd during an outage, and each switch adds one. A call reads the phase before
 * it starts ({@link #phase()}) and may only switch from that phase, so answers in flight when the store
 * died (or failures in flight when it came back) cannot switch it back and forth. The caller logs and
 * publishes exactly when a switch method says it switched: once per switch, never per call.
 *
 * <p>The phase and the outage's start change together, in one CAS on an immutable state (allocated
 * once per switch, never per call): the call that ends an outage reads the start the outage began
 * with. (Recording the start after switching the phase let a call that saw the new phase end the
 * outage in between and measure it from the previous outage's start.)
 */
public final class OutageSwitch {
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(OutageSwitch.class, "state", State.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile State state = new State(0L, 0L);

    /** Creates a switch in the available state. */
    public OutageSwitch() {}

    /**
     * The phase now; a call passes it back to {@link #outageBegan} or {@link #storeAnswered}.
     *
     * @return the phase
     */
    public long phase() {
        return state.phase;
    }

    /**
     * Whether the store answers now.
     *
     * @return false during an outage
     */
    public boolean available() {
        return (state.phase & 1) == 0;
    }

    /**
     * Whether a phase read by {@link #phase()} is an outage phase: a call that started in an available
     * phase can never switch back, so it need not read a clock to report its answer.
     *
     * @param phase a phase
     * @return true if odd (an outage)
     */
    public static boolean inOutage(long phase) {
        return (phase & 1) != 0;
    }

    /**
     * A call that started in {@code startPhase} failed: switches to the outage if nobody did since.
     *
     * @param startPhase the phase the call read before it started
     * @param now a ticker reading, the outage's start
     * @return true if this call switched (log and publish once)
     */
    public boolean outageBegan(long startPhase, long now) {
        if ((startPhase & 1) != 0) {
            return false;
        }
        State current = state;
        // Each state has its own phase, so comparing states by identity compares phases.
        return current.phase == startPhase && STATE.compareAndSet(this, current, new State(startPhase + 1, now));
    }

    /**
     * A call that started in {@code startPhase} got an answer: switches back if nobody did since.
     *
     * @param startPhase the phase the call read before it started
     * @param now a ticker reading
     * @return how long the outage lasted if this call switched back (log and publish once), else −1
     */
    public long storeAnswered(long startPhase, long now) {
        if ((startPhase & 1) != 1) {
            return -1L;
        }
        State current = state;
        if (current.phase == startPhase && STATE.compareAndSet(this, current, new State(startPhase + 1, current.outageStart))) {
            return Math.max(0L, Nanos.subtract(now, current.outageStart));
        }
        return -1L;
    }

    /** A phase and the start of the latest outage (the reading it began at), switched together. */
    private record State(long phase, long outageStart) {}
}
