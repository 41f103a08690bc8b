package dev.levee.examples;

import dev.levee.core.Gate;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import dev.levee.core.ShedException;
import dev.levee.loadshed.ClientThrottle;
import dev.levee.loadshed.ClientThrottleConfig;
import dev.levee.loadshed.ConcurrencyLimiter;
import dev.levee.loadshed.ConcurrencyLimiterConfig;
import dev.levee.loadshed.PartitionedConcurrencyLimiter;
import dev.levee.loadshed.Partitions;
import dev.levee.loadshed.limit.FixedLimit;
import dev.levee.loadshed.limit.GradientLimit;
import dev.levee.loadshed.limit.LatencyAimdLimit;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.PriorityQueue;

/**
 * Adaptive concurrency limits and client-side throttling (levee-loadshed, part I), on manual time and
 * seeded randomness: the same output every run.
 */
public final class ConcurrencyLimitDemo {
    private static final long MS = 1_000_000L;

    private ConcurrencyLimitDemo() {}

    /**
     * Runs the demo.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        run(System.out);
    }

    /**
     * Runs every section.
     *
     * @param out where to print
     */
    public static void run(PrintStream out) {
        seedAimdByNumbers(out);
        overloadWithAndWithoutALimit(out);
        partitions(out);
        clientThrottle(out);
    }

    private static void seedAimdByNumbers(PrintStream out) {
        out.println("-- seed-002 AIMD: +1 below the 100 ms target, x0.75 above 200 ms, floor 10");
        LatencyAimdLimit aimd = LatencyAimdLimit.builder().maxLimit(1000).build();
        long now = 0;
        StringBuilder sb = new StringBuilder("limit 100");
        long[] rtts = {50, 250, 150, 250, 250, 250, 250, 250, 250, 250};
        for (long rtt : rtts) {
            now += rtt * MS + 1;
            sb.append(" -").append(rtt).append("ms-> ").append(aimd.update(now, rtt * MS, 50, false));
        }
        out.println(sb);
    }

    /**
     * A server with 10 workers, 10 ms of work per request, and clients that give up after 100 ms,
     * offered twice what it can do for 10 s: every request is admitted (or not) by {@code gate}.
     */
    private static long[] serve(Gate gate, ManualTicker ticker) {
        RandomSource random = RandomSource.seeded(7);
        int workers = 10;
        ArrayDeque<long[]> runQueue = new ArrayDeque<>();
        PriorityQueue<long[]> running = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
        long start = ticker.read();
        long end = start + 10_000 * MS;
        long nextArrival = start;
        long good = 0;
        long shed = 0;
        long late = 0;
        while (true) {
            long nextDone = running.isEmpty() ? Long.MAX_VALUE : running.element()[0];
            long t = Math.min(nextArrival, nextDone);
            if (t > end) {
                break;
            }
            ticker.advance(t - ticker.read());
            if (t == nextDone) {
                long[] done = running.remove();
                long latency = t - done[1];
                if (t - done[2] > 100 * MS) {
                    late++;
                    gate.onFailure(latency, new java.util.concurrent.TimeoutException("client gone"));
                } else {
                    good++;
                    gate.onSuccess(latency);
                }
            } else {
                // Poisson arrivals at 2000/s: twice the 1000/s the server can do.
                nextArrival = t + Math.max(1, (long) (-Math.log(1 - random.nextDouble()) / 2000 * 1e9));
                if (gate.tryAcquire(t)) {
                    runQueue.add(new long[] {0, t, t});
                } else {
                    shed++;
                }
            }
            while (running.size() < workers && !runQueue.isEmpty()) {
                long[] r = runQueue.remove();
                r[0] = t + (long) (10 * MS * (0.8 + 0.4 * random.nextDouble()));
                running.add(r);
            }
        }
        return new long[] {good, late, shed};
    }

    private static void overloadWithAndWithoutALimit(PrintStream out) {
        out.println("-- 2x overload for 10 s: 10 workers, 10 ms each (1000/s), clients give up after 100 ms");
        ManualTicker t1 = new ManualTicker();
        ConcurrencyLimiter none = ConcurrencyLimiter.of("no-limit", ConcurrencyLimiterConfig.builder()
                .algorithm(() -> FixedLimit.of(1_000_000)).ticker(t1).build());
        long[] a = serve(none, t1);
        out.printf("without a limit: %d answered in time, %d answered too late, %d shed%n", a[0], a[1], a[2]);
        ManualTicker t2 = new ManualTicker();
        ConcurrencyLimiter gradient = ConcurrencyLimiter.of("api", ConcurrencyLimiterConfig.builder()
                .algorithm(() -> GradientLimit.builder().random(RandomSource.seeded(3)).build()).ticker(t2).build());
        long[] b = serve(gradient, t2);
        out.printf("Gradient limit:  %d answered in time, %d answered too late, %d shed (limit now %d)%n", b[0], b[1],
                b[2], gradient.limit());
    }

    private static void partitions(PrintStream out) {
        out.println("-- partitions: checkout 70 %, search 30 % of a limit of 10");
        PartitionedConcurrencyLimiter api = PartitionedConcurrencyLimiter.of("api", ConcurrencyLimiterConfig.builder()
                .algorithm(() -> FixedLimit.of(10)).ticker(new ManualTicker()).build(),
                Partitions.builder().add("checkout", 0.7).add("search", 0.3).build());
        Gate checkout = api.partition("checkout");
        Gate search = api.partition("search");
        int borrowed = 0;
        while (search.tryAcquire(0)) {
            borrowed++;
        }
        out.println("search alone borrows idle capacity: " + borrowed + " in flight");
        boolean refused = !checkout.tryAcquire(0);
        for (int i = 0; i < 7; i++) {
            search.onSuccess(1);
            search.tryAcquire(0);
            checkout.tryAcquire(0);
        }
        out.println("checkout arrives (first request refused: " + refused + "), and as search completes: checkout "
                + api.inflight("checkout") + ", search " + api.inflight("search"));
    }

    private static void clientThrottle(PrintStream out) {
        out.println("-- client-side throttling (SRE): p = max(0, (requests - 2 x accepts) / (requests + 1))");
        ManualTicker ticker = new ManualTicker();
        ClientThrottle inventory = ClientThrottle.of("inventory", ClientThrottleConfig.builder()
                .random(RandomSource.seeded(11)).ticker(ticker).build());
        ShedException remote = new ShedException("inventory-server", "concurrency_limit", "503", 0L, null);
        int attempted = 0;
        int sent = 0;
        for (int s = 0; s < 60; s++) {
            int accepted = 0;
            for (int i = 0; i < 100; i++, attempted++) {
                if (inventory.tryAcquire(ticker.read())) {
                    sent++;
                    if (accepted++ < 25) {
                        inventory.onSuccess(1);
                    } else {
                        inventory.onFailure(1, remote);
                    }
                }
            }
            ticker.advance(Duration.ofSeconds(1));
        }
        out.printf("backend takes 25 of 100/s for a minute: %d of %d sent, p now %.2f%n", sent, attempted,
                inventory.rejectionProbability(ticker.read()));
        int seconds = 0;
        while (inventory.rejectionProbability(ticker.read()) > 0) {
            for (int i = 0; i < 100; i++) {
                if (inventory.tryAcquire(ticker.read())) {
                    inventory.onSuccess(1);
                }
            }
            ticker.advance(Duration.ofSeconds(1));
            seconds++;
        }
        out.println("backend recovers: local refusals stop after " + seconds + " s (window: 120 s)");
    }
}
