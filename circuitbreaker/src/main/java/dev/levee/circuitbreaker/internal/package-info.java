/**
 * Implementation of the circuit breaker: sliding windows, the state record, half-open probe
 * accounting. Not for users: may change without notice.
 */
package dev.levee.circuitbreaker.internal;
