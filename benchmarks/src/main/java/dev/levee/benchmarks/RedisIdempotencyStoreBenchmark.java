package dev.levee.benchmarks;

import dev.levee.idempotency.ClaimResult;
import dev.levee.idempotency.StoredResponse;
import dev.levee.redis.idempotency.RedisIdempotencyStore;
import dev.levee.redis.idempotency.RedisIdempotencyStoreConfig;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The Redis idempotency store's decisions per second against a local {@code redis-server} (started
 * by the benchmark from the {@code PATH} on a free loopback port, no persistence), every thread on one
 * shared Lettuce connection, as a service would run it:
 * <ul>
 *   <li>{@code firstRequest} — a new key each call: claim, then complete with a 201 and a 64-byte body
 *       (two round trips, the cost of a first request);</li>
 *   <li>{@code replay} — a completed key: one claim that answers the stored response (one round trip,
 *       the cost of a duplicate).</li>
 * </ul>
 * Run it at 1 and 16 threads ({@code -t}); throughput is in operations per second. The cost is a round
 * trip to another process, so the figures depend on the machine far more than any in-process benchmark.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class RedisIdempotencyStoreBenchmark {
    private static final Duration LEASE = Duration.ofSeconds(60);
    /** Short, so the keys of a long run do not pile up in the server. */
    private static final Duration TTL = Duration.ofSeconds(30);
    private static final StoredResponse CREATED = StoredResponse.of(201, Map.of("location", List.of("/charges/1")), new byte[64]);

    private Process server;
    private RedisClient client;
    private StatefulRedisConnection<byte[], byte[]> connection;
    private RedisIdempotencyStore store;
    private final AtomicInteger threads = new AtomicInteger();

    /** Each thread's own key sequence. */
    @State(Scope.Thread)
    public static class Keys {
        String prefix;
        long next;

        @Setup(Level.Trial)
        public void setUp(RedisIdempotencyStoreBenchmark bench) {
            prefix = "t" + bench.threads.incrementAndGet() + "-" + System.identityHashCode(this) + ":";
        }
    }

    @Setup(Level.Trial)
    public void start() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path dir = Files.createTempDirectory("levee-bench-redis");
        server = new ProcessBuilder(redisServer().toString(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        waitForPort(port);
        client = RedisClient.create("redis://127.0.0.1:" + port);
        connection = client.connect(ByteArrayCodec.INSTANCE);
        // A call timeout far above the default 100 ms: on a loaded machine a round trip can take longer, and
        // this measures throughput, not the outage path.
        store = RedisIdempotencyStore.of("bench", RedisIdempotencyStoreConfig.builder().callTimeout(Duration.ofSeconds(10)).build(),
                connection);
        for (int i = 0; i < 1_000; i++) {
            String key = "replay-" + i;
            store.claim(key, "fp", "owner", LEASE);
            store.complete(key, "owner", CREATED, Duration.ofHours(1));
        }
    }

    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        connection.close();
        client.shutdown();
        server.destroy();
        server.waitFor(10, TimeUnit.SECONDS);
    }

    @Benchmark
    public boolean firstRequest(Keys keys) {
        String key = keys.prefix + keys.next++;
        if (!(store.claim(key, "fp", "owner", LEASE) instanceof ClaimResult.Claimed)) {
            throw new IllegalStateException("a new key was not claimed: " + key);
        }
        return store.complete(key, "owner", CREATED, TTL);
    }

    @Benchmark
    public ClaimResult replay(Keys keys) {
        ClaimResult r = store.claim("replay-" + (keys.next++ % 1_000), "fp", "dup", LEASE);
        if (!(r instanceof ClaimResult.Completed)) {
            throw new IllegalStateException("not a replay: " + r);
        }
        return r;
    }

    private static Path redisServer() {
        String path = System.getenv("PATH");
        for (String d : (path == null ? "" : path).split(File.pathSeparator)) {
            Path candidate = Paths.get(d, "redis-server");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("RedisIdempotencyStoreBenchmark needs redis-server on the PATH");
    }

    private static void waitForPort(int port) throws InterruptedException {
        List<IOException> failures = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                return;
            } catch (IOException e) {
                failures.add(e);
                Thread.sleep(10);
            }
        }
        throw new UncheckedIOException("redis-server did not listen on " + port, failures.get(failures.size() - 1));
    }
}
