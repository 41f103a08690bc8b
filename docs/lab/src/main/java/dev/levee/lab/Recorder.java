package dev.levee.lab;

import dev.levee.core.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Counts what one configuration did, per second of the run. Thread-safe (one lock: the lab's
 * bookkeeping is not the system under test). Events after the last second land in the last second.
 */
final class Recorder {
    private final String config;
    private final Ticker ticker;
    private final long startNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final List<Second> seconds = new ArrayList<>();
    private Map<String, Long> lastShed = new TreeMap<>();

    Recorder(String config, Ticker ticker, long startNanos, int totalSeconds) {
        this.config = config;
        this.ticker = ticker;
        this.startNanos = startNanos;
        for (int i = 0; i < totalSeconds; i++) {
            seconds.add(new Second());
        }
    }

    String config() {
        return config;
    }

    private Second now() {
        long elapsed = ticker.read() - startNanos;
        int index = (int) Math.max(0, Math.min(seconds.size() - 1, elapsed / 1_000_000_000L));
        return seconds.get(index);
    }

    void offered() {
        lock.lock();
        try {
            now().offered++;
        } finally {
            lock.unlock();
        }
    }

    void attempt() {
        lock.lock();
        try {
            now().attempts++;
        } finally {
            lock.unlock();
        }
    }

    /** A request ended: {@code outcome} is one of good, late, degraded, failed. */
    void outcome(String outcome, String cause, long latencyNanos) {
        lock.lock();
        try {
            Second s = now();
            switch (outcome) {
                case "good" -> {
                    s.good++;
                    s.latency(latencyNanos);
                }
                case "late" -> s.late++;
                case "degraded" -> s.degraded++;
                default -> s.failed++;
            }
            if (!"good".equals(outcome)) {
                s.causes.merge(cause, 1, Integer::sum);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Samples the gauges at the end of {@code second}; {@code shedTotals} are cumulative counts. */
    void sample(int second, int breaker, int limit, int inflight, Map<String, Long> shedTotals) {
        lock.lock();
        try {
            Second s = seconds.get(Math.min(second, seconds.size() - 1));
            s.breaker = breaker;
            s.limit = limit;
            s.inflight = inflight;
            for (Map.Entry<String, Long> e : shedTotals.entrySet()) {
                long delta = e.getValue() - lastShed.getOrDefault(e.getKey(), 0L);
                if (delta > 0) {
                    s.serverShed.merge(e.getKey(), delta, Long::sum);
                }
            }
            lastShed = new TreeMap<>(shedTotals);
        } finally {
            lock.unlock();
        }
    }

    /** The seconds recorded so far (the live objects: read them once the run is over). */
    List<Second> seconds() {
        return seconds;
    }

    /** Runs {@code reader} on the seconds under the lock (for the live console line). */
    <T> T read(java.util.function.Function<List<Second>, T> reader) {
        lock.lock();
        try {
            return reader.apply(seconds);
        } finally {
            lock.unlock();
        }
    }
}
