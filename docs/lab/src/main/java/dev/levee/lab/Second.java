package dev.levee.lab;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/** What one configuration did during one second of the run. Written under {@link Recorder}'s lock. */
final class Second {
    /** Requests that arrived (the offered load). */
    int offered;
    /** Attempts sent to the downstream (first tries and retries). */
    int attempts;
    /** Requests answered 200 within their deadline (goodput), by completion second. */
    int good;
    /** Requests answered 200 after their deadline (the caller had already given up). */
    int late;
    /** Requests answered by the fallback. */
    int degraded;
    /** Requests that ended in an error, a timeout or a refusal. */
    int failed;
    /** Why requests did not end in goodput: "timeout", "error", "shed", "circuit_open", ... */
    final Map<String, Integer> causes = new TreeMap<>();
    /** The downstream's refusals during this second, by reason. */
    final Map<String, Long> serverShed = new TreeMap<>();
    private long[] latencies = new long[16];
    private int latencyCount;
    /** Sampled at the end of the second: breaker state (0 closed, 1 half-open, 2 open; -1 none). */
    int breaker = -1;
    /** Sampled: the downstream's adaptive limit (-1 when unprotected). */
    int limit = -1;
    /** Sampled: requests inside the downstream (working and queued). */
    int inflight;

    void latency(long nanos) {
        if (latencyCount == latencies.length) {
            latencies = Arrays.copyOf(latencies, latencyCount * 2);
        }
        latencies[latencyCount++] = nanos;
    }

    long[] latencies() {
        return Arrays.copyOf(latencies, latencyCount);
    }

    /** The {@code q} quantile of this second's goodput latencies in ms, or NaN when none. */
    double quantileMillis(double q) {
        return quantileMillis(latencies(), q);
    }

    static double quantileMillis(long[] values, double q) {
        if (values.length == 0) {
            return Double.NaN;
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int index = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / 1e6;
    }

    int shedTotal() {
        return (int) serverShed.values().stream().mapToLong(Long::longValue).sum();
    }
}
