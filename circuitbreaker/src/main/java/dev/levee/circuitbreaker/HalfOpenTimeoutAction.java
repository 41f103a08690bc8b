package dev.levee.circuitbreaker;

/**
 * What a {@link CircuitBreaker} does when it has been HALF_OPEN for {@code maxWaitInHalfOpen} with every
 * probe admitted but not all of them back: a probe that never returns must not wedge the breaker.
 */
public enum HalfOpenTimeoutAction {
    /**
     * Start a fresh half-open round: forget the probes still out (their late outcomes are ignored)
     * and admit {@code permittedCallsInHalfOpen} new ones. The default: a hung probe says little
     * about the dependency when the other probes answered.
     */
    ADMIT_NEW_PROBES,
    /** Treat the missing answers as failures: go back to OPEN (counting one more open in a row). */
    REOPEN,
    /**
     * Close after the half-open wait: treat the missing answers as good news (the probes that did come
     * back did not reopen the breaker) and go back to CLOSED with an empty window. For dependencies
     * whose slow probes are expected (a cold cache): the rules will open the breaker again if needed.
     */
    CLOSE
}
