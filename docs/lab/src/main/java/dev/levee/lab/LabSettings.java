package dev.levee.lab;

/**
 * The lab's numbers: the downstream's fixed capacity, the load, the deadline every request carries.
 *
 * <p>Capacity is {@code workers / service time}: 4 workers of 100 ms serve 40 requests a second. The
 * steady load is half of that, so the 5x spike offers 2.5x capacity. Every request carries a 1 s
 * deadline; the unprotected client uses the same second as its plain timeout.
 *
 * @param workers the downstream's worker count (its concurrency)
 * @param serviceNanos the base service time of one request
 * @param steadyRate requests offered per second at load factor 1
 * @param deadlineNanos the deadline each request carries (and the naive client's timeout)
 * @param slowFactor how much slower each request is in the slow phase
 * @param failingRatio the share of requests answered 500 in the failing phase
 * @param outageHangNanos how long a request hangs on the dead dependency during the outage before a 500
 * @param queueBound the unprotected server's accept queue (a real server's connection backlog)
 * @param contention how much the service time grows when the queue is long: at most {@code 1 + contention} times
 * @param networkNanos one-way network delay in the simulation
 */
record LabSettings(int workers, long serviceNanos, double steadyRate, long deadlineNanos, double slowFactor,
        double failingRatio, long outageHangNanos, int queueBound, double contention, long networkNanos) {

    static final long MS = 1_000_000L;

    static LabSettings defaults() {
        return new LabSettings(4, 100 * MS, 20, 1000 * MS, 1.6, 0.4, 2000 * MS, 1000, 2.0, MS / 2);
    }

    /** Requests per second the downstream can serve at its base service time. */
    double capacity() {
        return workers * 1e9 / serviceNanos;
    }
}
