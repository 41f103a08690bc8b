package dev.levee.loadshed.sim;

import java.util.Arrays;

/**
 * Counts and latencies of a {@link Simulation} over one measuring window ({@link Simulation#measure()}
 * until {@link #stop()}), or over the whole run ({@link Simulation#total()}).
 *
 * <p>A request is counted as offered when it arrives inside the window and by its fate when it ends
 * inside the window. Latencies are those of admitted requests that were served (completed or
 * failed), recorded at their end: {@linkplain #serverLatencyPercentile server latency} runs from
 * admission to end (what a server-side limiter measures), {@linkplain #clientLatencyPercentile client
 * latency} from arrival to end (adds any front-queue wait).
 */
public final class SimStats {
    private final Simulation sim;
    private final long startNanos;
    private long stopNanos = -1;

    long offered;
    long admitted;
    long rejected;
    long droppedInQueue;
    long expiredInQueue;
    long skippedExpired;
    long failed;
    long completed;
    long good;
    long late;
    private long[] serverLatencies = new long[1024];
    private long[] clientLatencies = new long[1024];
    private int latencyCount;
    private long @org.jspecify.annotations.Nullable [] sortedServer;
    private long @org.jspecify.annotations.Nullable [] sortedClient;

    SimStats(Simulation sim, long startNanos) {
        this.sim = sim;
        this.startNanos = startNanos;
    }

    boolean active() {
        return stopNanos < 0;
    }

    void recordEnd(SimRequest r) {
        switch (r.fate) {
            case REJECTED -> rejected++;
            case DROPPED_IN_QUEUE -> droppedInQueue++;
            case EXPIRED_IN_QUEUE -> expiredInQueue++;
            case SKIPPED_EXPIRED -> skippedExpired++;
            case FAILED, COMPLETED -> {
                if (r.fate == SimRequest.Fate.FAILED) {
                    failed++;
                } else {
                    completed++;
                }
                if (r.isGood()) {
                    good++;
                }
                if (r.isLate()) {
                    late++;
                }
                if (latencyCount == serverLatencies.length) {
                    serverLatencies = Arrays.copyOf(serverLatencies, latencyCount * 2);
                    clientLatencies = Arrays.copyOf(clientLatencies, latencyCount * 2);
                }
                serverLatencies[latencyCount] = r.serverLatencyNanos();
                clientLatencies[latencyCount] = r.clientLatencyNanos();
                latencyCount++;
                sortedServer = null;
                sortedClient = null;
            }
            default -> throw new IllegalStateException("not an end: " + r);
        }
    }

    /** Stops recording; later events are not counted. Idempotent. */
    public void stop() {
        if (stopNanos < 0) {
            stopNanos = sim.now();
        }
    }

    /** @return the window's length so far (or until {@link #stop()}), in seconds of virtual time */
    public double seconds() {
        long end = stopNanos < 0 ? sim.now() : stopNanos;
        return (end - startNanos) / 1e9;
    }

    /** @return requests that arrived */
    public long offered() {
        return offered;
    }

    /** @return requests let into the server */
    public long admitted() {
        return admitted;
    }

    /** @return requests refused at arrival (no queue, or the queue refused them) */
    public long rejected() {
        return rejected;
    }

    /** @return requests the front queue dropped */
    public long droppedInQueue() {
        return droppedInQueue;
    }

    /** @return requests whose deadline passed in the front queue */
    public long expiredInQueue() {
        return expiredInQueue;
    }

    /** @return admitted requests the server skipped because their deadline had passed */
    public long skippedExpired() {
        return skippedExpired;
    }

    /** @return requests the server failed */
    public long failed() {
        return failed;
    }

    /** @return requests served successfully, late or not */
    public long completed() {
        return completed;
    }

    /** @return requests served successfully within their deadline */
    public long good() {
        return good;
    }

    /** @return served requests that ended after their client gave up (wasted work) */
    public long late() {
        return late;
    }

    /** @return every refusal before service: rejected + dropped + expired in queue + skipped */
    public long shed() {
        return rejected + droppedInQueue + expiredInQueue + skippedExpired;
    }

    /** @return good requests per second of virtual time */
    public double goodputPerSecond() {
        return good / seconds();
    }

    /** @return served requests (completed or failed, in time or not) per second of virtual time */
    public double throughputPerSecond() {
        return (completed + failed) / seconds();
    }

    /**
     * Goodput as a fraction of what the server could do at its current capacity.
     *
     * @return {@link #goodputPerSecond()} / {@link Simulation#capacityThroughputPerSecond()}
     */
    public double goodputFractionOfCapacity() {
        return goodputPerSecond() / sim.capacityThroughputPerSecond();
    }

    /** @return how many latencies were recorded */
    public int latencyCount() {
        return latencyCount;
    }

    /**
     * A percentile (nearest rank) of admission→end latency of served requests.
     *
     * @param q the percentile as a fraction in (0, 1], e.g. 0.99
     * @return nanoseconds, 0 when nothing was served
     */
    public long serverLatencyPercentile(double q) {
        if (sortedServer == null) {
            sortedServer = sorted(serverLatencies);
        }
        return percentile(sortedServer, q);
    }

    /**
     * A percentile (nearest rank) of arrival→end latency of served requests.
     *
     * @param q the percentile as a fraction in (0, 1], e.g. 0.99
     * @return nanoseconds, 0 when nothing was served
     */
    public long clientLatencyPercentile(double q) {
        if (sortedClient == null) {
            sortedClient = sorted(clientLatencies);
        }
        return percentile(sortedClient, q);
    }

    private long[] sorted(long[] values) {
        long[] copy = Arrays.copyOf(values, latencyCount);
        Arrays.sort(copy);
        return copy;
    }

    private static long percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0L;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
    }

    @Override
    public String toString() {
        return String.format(
                "SimStats[%.1fs offered=%d admitted=%d rejected=%d droppedInQueue=%d expiredInQueue=%d skipped=%d"
                        + " completed=%d failed=%d good=%d late=%d goodput=%.1f/s (%.0f%% of capacity)"
                        + " server p50=%.1fms p99=%.1fms client p99=%.1fms]",
                seconds(), offered, admitted, rejected, droppedInQueue, expiredInQueue, skippedExpired, completed,
                failed, good, late, goodputPerSecond(), 100 * goodputFractionOfCapacity(),
                serverLatencyPercentile(0.5) / 1e6, serverLatencyPercentile(0.99) / 1e6,
                clientLatencyPercentile(0.99) / 1e6);
    }
}
