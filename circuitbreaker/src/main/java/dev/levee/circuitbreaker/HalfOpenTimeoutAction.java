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
    REOPEN
}
