package dev.levee.redis.idempotency;

import dev.levee.idempotency.IdempotencyStore;
import dev.levee.redis.RedisServer;
import dev.levee.redis.RedisTestSupport;
import dev.levee.testing.IdempotencyStoreContract;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The store contract of {@code levee-testing}, on a real {@code redis-server}. Redis expires keys on its
 * own real clock, so {@link #elapse} lets real time pass (the contract's only way to show a time to
 * live ending) and {@link #shortTime()} is 500 ms: long enough that the calls between a claim and its
 * complete never outlast an in-progress key (twice the lease) on a loaded machine, short enough that
 * the four tests that wait cost about a second each.
 * Each test gets a fresh key prefix, so the tests share one server without cleaning it.
 */
class RedisIdempotencyStoreContractTest extends IdempotencyStoreContract {
    private static final AtomicInteger PREFIXES = new AtomicInteger();
    private static RedisServer server;
    private static ClientResources resources;
    private static RedisClient client;
    private static StatefulRedisConnection<byte[], byte[]> connection;

    @BeforeAll
    static void startRedis() {
        server = RedisServer.start();
        resources = RedisTestSupport.newResources();
        client = RedisTestSupport.newClient(resources, server.uri());
        connection = client.connect(ByteArrayCodec.INSTANCE);
    }

    @AfterAll
    static void stopRedis() {
        try {
            connection.close();
            client.shutdown(0, 2, TimeUnit.SECONDS);
            resources.shutdown(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        } finally {
            server.close();
        }
    }

    @Override
    protected IdempotencyStore newStore() {
        int n = PREFIXES.incrementAndGet();
        // A call timeout far above the default: the contract's 32 racing threads share 2 loaded cores.
        return RedisIdempotencyStore.of("contract-" + n, RedisIdempotencyStoreConfig.builder()
                .keyPrefix("contract-" + n + ":")
                .callTimeout(Duration.ofSeconds(10))
                .build(), connection);
    }

    @Override
    protected void elapse(Duration amount) throws InterruptedException {
        // The server's clock is real: the contract's waits are real time (7 s in all).
        TimeUnit.NANOSECONDS.sleep(amount.toNanos());
    }

    @Override
    protected Duration shortTime() {
        // The contract's default. Real time: aCompletedRecordLivesForItsTimeToLive claims with this lease
        // and completes in the next round trip, so a thread stalled longer than the lease between the two
        // would see the lease lapse first; 500 ms was within reach of one stall on a loaded 2-core machine.
        return Duration.ofSeconds(1);
    }
}
