package dev.levee.redis.ratelimiter;

import dev.levee.redis.RedisServer;
import dev.levee.redis.RedisTestSupport;
import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimiterConfig;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.BucketProxy;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.github.bucket4j.redis.lettuce.cas.LettuceBasedProxyManager;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.resource.ClientResources;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Throughput harness (not a test; run with the {@code throughput} profile, see the module's pom):
 * decisions per second and p50/p99 latency of one shared limit on one local {@code redis-server} (the
 * same binary the tests use), 1 and 16 concurrent callers on one connection, for Levee's GCRA, Levee's
 * token bucket, Levee's GCRA in lease mode, and bucket4j's Lettuce backend (a token bucket, its
 * compare-and-swap proxy manager). The limit (1,000,000 per second, burst 10^9) never binds in a run,
 * so every call is a full decision and none is refused; the harness prints the refusals to show it. Then a run where the limit binds measures lease mode's over-admission against
 * the GCRA bound {@code burst + floor(W / T)}.
 *
 * <p>JMH is not used: the cost measured is a network round trip to a separate process, the callers
 * are plain threads timed with {@code System.nanoTime}, and each figure is one timed run after a
 * warm-up of the same length. Print and paste; the figures go to {@code docs/ratelimiter.md}.
 */
public final class RedisThroughputHarness {
    private static final long LIMIT = 1_000_000;
    /** A burst no contender can spend in a run, so the limit never binds and every call is a full decision. */
    private static final long BURST = 1_000_000_000;
    private static final int LEASE = 1_000;
    private static final int MAX_SAMPLES = 1 << 21;

    private RedisThroughputHarness() {}

    /**
     * Runs every configuration and prints a Markdown table.
     *
     * @param args none; {@code -Dthroughput.seconds} sets the measured time per row (default 5)
     * @throws Exception if the server cannot start
     */
    public static void main(String[] args) throws Exception {
        long seconds = Long.getLong("throughput.seconds", 5L);
        PrintStream out = System.out;
        try (RedisServer server = RedisServer.start()) {
            ClientResources resources = RedisTestSupport.newResources();
            RedisClient client = RedisTestSupport.newClient(resources, server.uri());
            try {
                out.println("redis-server: " + RedisServer.binary() + ", " + seconds + " s per row after a warm-up of as long");
                out.println();
                out.println("| contender | callers | decisions/s | p50 µs | p99 µs | refused |");
                out.println("|---|---|---|---|---|---|");
                for (int callers : new int[] {1, 16}) {
                    try (StatefulRedisConnection<String, String> c = client.connect()) {
                        row(out, "Levee GCRA", callers, seconds, levee(c, RateLimitAlgorithm.GCRA, 0, "gcra-" + callers));
                        row(out, "Levee token bucket", callers, seconds,
                                levee(c, RateLimitAlgorithm.TOKEN_BUCKET, 0, "tb-" + callers));
                        row(out, "Levee GCRA, lease " + LEASE, callers, seconds,
                                levee(c, RateLimitAlgorithm.GCRA, LEASE, "lease-" + callers));
                    }
                    try (StatefulRedisConnection<String, byte[]> c =
                            client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE))) {
                        row(out, "bucket4j Lettuce (CAS)", callers, seconds, bucket4j(c, "b4j-" + callers));
                    }
                }
                out.println();
                overAdmission(out, client, seconds);
            } finally {
                client.shutdown(0, 2, TimeUnit.SECONDS);
                resources.shutdown(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            }
        }
    }

    private static BooleanSupplier levee(StatefulRedisConnection<String, String> c, RateLimitAlgorithm algorithm,
            int lease, String name) {
        RedisRateLimiter limiter = RedisRateLimiter.of(name, RedisRateLimiterConfig.builder()
                .rate(RateLimiterConfig.builder().algorithm(algorithm).rate(LIMIT, Duration.ofSeconds(1)).burst(BURST).build())
                .callTimeout(Duration.ofSeconds(5))
                .outagePolicy(OutagePolicy.FAIL_CLOSED)
                .leaseSize(lease)
                .build(), c);
        return limiter::tryAcquire;
    }

    private static BooleanSupplier bucket4j(StatefulRedisConnection<String, byte[]> c, String name) {
        LettuceBasedProxyManager<String> proxies = Bucket4jLettuce.casBasedBuilder(c)
                .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofSeconds(10)))
                .build();
        BucketConfiguration config = BucketConfiguration.builder()
                .addLimit(limit -> limit.capacity(BURST).refillGreedy(LIMIT, Duration.ofSeconds(1)))
                .build();
        BucketProxy bucket = proxies.builder().build(name, () -> config);
        return () -> bucket.tryConsume(1);
    }

    /** Runs {@code decide} on {@code callers} threads: a warm-up, then a timed run of {@code seconds}. */
    private static void row(PrintStream out, String label, int callers, long seconds, BooleanSupplier decide)
            throws InterruptedException {
        run(callers, seconds, decide, false);
        Result r = run(callers, seconds, decide, true);
        out.printf("| %s | %d | %,.0f | %.1f | %.1f | %d |%n", label, callers, r.decisions / r.seconds,
                r.p50 / 1000.0, r.p99 / 1000.0, r.refused);
        out.flush();
    }

    private record Result(long decisions, long refused, double seconds, long p50, long p99) {}

    private static Result run(int callers, long seconds, BooleanSupplier decide, boolean record) throws InterruptedException {
        long[][] samples = new long[callers][];
        long[] counts = new long[callers];
        long[] refused = new long[callers];
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch ready = new CountDownLatch(callers);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            int id = i;
            samples[i] = new long[record ? MAX_SAMPLES / callers : 0];
            Thread t = new Thread(() -> {
                ready.countDown();
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                long[] mine = samples[id];
                long n = 0;
                long no = 0;
                while (!stop.get()) {
                    long start = System.nanoTime();
                    if (!decide.getAsBoolean()) {
                        no++;
                    }
                    long took = System.nanoTime() - start;
                    if (n < mine.length) {
                        mine[(int) n] = took;
                    }
                    n++;
                }
                counts[id] = n;
                refused[id] = no;
            }, "caller-" + i);
            threads.add(t);
            t.start();
        }
        ready.await();
        long start = System.nanoTime();
        go.countDown();
        TimeUnit.SECONDS.sleep(seconds);
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        long total = Arrays.stream(counts).sum();
        long no = Arrays.stream(refused).sum();
        if (!record) {
            return new Result(total, no, elapsed, 0, 0);
        }
        int kept = 0;
        for (int i = 0; i < callers; i++) {
            kept += (int) Math.min(counts[i], samples[i].length);
        }
        long[] all = new long[kept];
        int at = 0;
        for (int i = 0; i < callers; i++) {
            int k = (int) Math.min(counts[i], samples[i].length);
            System.arraycopy(samples[i], 0, all, at, k);
            at += k;
        }
        Arrays.sort(all);
        long p50 = all.length == 0 ? 0 : all[(int) (all.length * 0.50)];
        long p99 = all.length == 0 ? 0 : all[Math.min(all.length - 1, (int) (all.length * 0.99))];
        return new Result(total, no, elapsed, p50, p99);
    }

    /**
     * Lease mode with a limit that binds: 4 instances (own connections) x 4 callers against GCRA at
     * 20,000 per second, burst 1,000, lease 100, for {@code seconds}. Admitted beyond
     * {@code burst + rate × elapsed} is the over-admission; the bound is {@code 4 × 100}.
     */
    private static void overAdmission(PrintStream out, RedisClient client, long seconds) throws InterruptedException {
        int instances = 4;
        int lease = 100;
        long rate = 20_000;
        long burst = 1_000;
        List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
        List<RedisRateLimiter> limiters = new ArrayList<>();
        try {
            for (int i = 0; i < instances; i++) {
                StatefulRedisConnection<String, String> c = client.connect();
                connections.add(c);
                limiters.add(RedisRateLimiter.of("over-admission", RedisRateLimiterConfig.builder()
                        .rate(RateLimiterConfig.builder().rate(rate, Duration.ofSeconds(1)).burst(burst).build())
                        .callTimeout(Duration.ofSeconds(5))
                        .outagePolicy(OutagePolicy.FAIL_CLOSED)
                        .leaseSize(lease)
                        .build(), c));
            }
            long[] admitted = new long[instances * 4];
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> threads = new ArrayList<>();
            long start = System.nanoTime();
            for (int i = 0; i < admitted.length; i++) {
                int id = i;
                RedisRateLimiter l = limiters.get(i % instances);
                Thread t = new Thread(() -> {
                    long n = 0;
                    while (!stop.get()) {
                        if (l.tryAcquire()) {
                            n++;
                        }
                    }
                    admitted[id] = n;
                }, "over-admission-" + i);
                threads.add(t);
                t.start();
            }
            TimeUnit.SECONDS.sleep(seconds);
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
            double elapsed = (System.nanoTime() - start) / 1e9;
            long total = Arrays.stream(admitted).sum();
            double bound = burst + rate * elapsed;
            out.printf("Lease over-admission: %d instances x lease %d, GCRA %,d/s burst %,d, %.2f s: admitted %,d, "
                    + "GCRA bound burst + rate x elapsed = %,.0f, over by %,.0f (documented bound %d)%n",
                    instances, lease, rate, burst, elapsed, total, bound, Math.max(0, total - bound), instances * lease);
        } finally {
            connections.forEach(StatefulRedisConnection::close);
        }
    }
}
