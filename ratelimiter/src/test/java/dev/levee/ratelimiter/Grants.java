package dev.levee.ratelimiter;

import java.util.Arrays;

/** Granted permits recorded as (time, permits), and the largest count in any interval of a length. */
final class Grants {
    private long[] times = new long[1024];
    private long[] permits = new long[1024];
    private int size;

    void add(long time, long n) {
        if (size == times.length) {
            times = Arrays.copyOf(times, size * 2);
            permits = Arrays.copyOf(permits, size * 2);
        }
        times[size] = time;
        permits[size] = n;
        size++;
    }

    long timeAt(int i) {
        return times[i];
    }

    int size() {
        return size;
    }

    long total() {
        long sum = 0;
        for (int i = 0; i < size; i++) {
            sum += permits[i];
        }
        return sum;
    }

    /** The most permits granted in any closed interval [a, a + w]. */
    long maxInClosed(long w) {
        return maxIn(w, true);
    }

    /** The most permits granted in any half-open interval [a, a + w). */
    long maxInHalfOpen(long w) {
        return maxIn(w, false);
    }

    private long maxIn(long w, boolean closed) {
        Integer[] order = new Integer[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> Long.compare(times[x], times[y]));
        long best = 0;
        long sum = 0;
        int right = 0;
        for (int left = 0; left < size; left++) {
            long end = times[order[left]] + w;
            while (right < size && (closed ? times[order[right]] <= end : times[order[right]] < end)) {
                sum += permits[order[right]];
                right++;
            }
            best = Math.max(best, sum);
            sum -= permits[order[left]];
        }
        return best;
    }

    /** The most permits granted in one aligned window [origin + k·w, origin + (k+1)·w). */
    long maxInAligned(long origin, long w) {
        java.util.HashMap<Long, Long> byWindow = new java.util.HashMap<>();
        long best = 0;
        for (int i = 0; i < size; i++) {
            long k = Math.floorDiv(times[i] - origin, w);
            best = Math.max(best, byWindow.merge(k, permits[i], Long::sum));
        }
        return best;
    }
}
