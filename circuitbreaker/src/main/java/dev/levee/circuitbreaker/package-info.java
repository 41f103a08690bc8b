/**
 * The sliding-window circuit breaker: count and time windows, slow calls, exact half-open probes. Filled by the circuit breaker issue.
 */
package dev.levee.circuitbreaker;
