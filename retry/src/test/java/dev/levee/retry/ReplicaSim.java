package dev.levee.retry;

import dev.levee.core.ManualTicker;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * A deterministic discrete-event simulation of a client balancing over replicas on a
 * {@link ManualTicker}: calls arrive at a fixed interval, each picks a replica, and its completion is
 * an event at {@code start + latency} drawn from the replica's model with a seeded {@link Random}.
 */
final class ReplicaSim {
    static final long MS = 1_000_000L;
    static final long S = 1_000 * MS;

    /** How a replica answers. */
    interface Model {
        /** @return the latency of a call starting at {@code now} */
        long latency(int replica, long now, Random random);

        /** @return whether the call fails */
        boolean fails(int replica, long now, Random random);
    }

    /** The classic shape: 5 ms plus an exponential with mean 5 ms (p99 about 28 ms). */
    static long healthyLatency(Random random) {
        return 5 * MS + (long) (-Math.log(1.0 - random.nextDouble()) * 5 * MS);
    }

    /** What a run measured after warm-up. */
    static final class Result {
        final long[] picks;
        final List<Long> client = new ArrayList<>();
        final List<Long> healthy = new ArrayList<>();
        long calls;

        Result(int replicas) {
            this.picks = new long[replicas];
        }

        double share(int replica) {
            return picks[replica] / (double) calls;
        }

        static long percentile(List<Long> values, double p) {
            long[] sorted = values.stream().mapToLong(Long::longValue).toArray();
            Arrays.sort(sorted);
            return sorted[(int) Math.ceil(p * sorted.length) - 1];
        }
    }

    private record Completion(long at, long start, int replica, boolean failed) {}

    private ReplicaSim() {}

    /**
     * Runs {@code duration} of traffic.
     *
     * @param healthyReplicas which replicas' latencies form the "healthy" reference distribution
     */
    static Result run(ReplicaSet<Integer> set, ManualTicker ticker, Model model, long interval, long duration,
                      long warmup, boolean[] healthyReplicas, long seed) {
        Random random = new Random(seed);
        PriorityQueue<Completion> pending = new PriorityQueue<>((a, b) -> Long.compare(a.at, b.at));
        Result result = new Result(set.size());
        long origin = ticker.read();
        for (long t = origin + interval; t <= origin + duration; t += interval) {
            while (!pending.isEmpty() && pending.peek().at <= t) {
                Completion c = pending.poll();
                ticker.advance(c.at - ticker.read());
                if (c.failed) {
                    set.onFailure(c.replica, c.at - c.start, new java.io.IOException("failed"));
                } else {
                    set.onSuccess(c.replica, c.at - c.start);
                }
            }
            ticker.advance(t - ticker.read());
            int replica = set.pick();
            long latency = model.latency(replica, t, random);
            boolean failed = model.fails(replica, t, random);
            pending.add(new Completion(t + latency, t, replica, failed));
            if (t - origin >= warmup) {
                result.calls++;
                result.picks[replica]++;
                result.client.add(latency);
                if (healthyReplicas[replica]) {
                    result.healthy.add(latency);
                }
            }
        }
        return result;
    }
}
