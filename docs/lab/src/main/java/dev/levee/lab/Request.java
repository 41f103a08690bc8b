package dev.levee.lab;

/**
 * What travels to the downstream with every attempt (as headers over HTTP).
 *
 * @param id the request's number in the run
 * @param priority 1 (least important) to 10 (most), Levee's loadshed scale
 * @param tenant who sent it
 * @param remainingNanos the time left before the caller gives up (the deadline header)
 * @param attempt 1 for the first try, 2 for the first retry, ...
 */
record Request(long id, int priority, String tenant, long remainingNanos, int attempt) {

    /** The same request as another attempt with a new remaining time. */
    Request attempt(int n, long remaining) {
        return new Request(id, priority, tenant, remaining, n);
    }
}
