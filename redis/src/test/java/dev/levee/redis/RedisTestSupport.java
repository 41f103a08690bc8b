package dev.levee.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import io.lettuce.core.resource.DefaultClientResources;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * One real redis-server and one Lettuce client per test class, both stopped after the class (the
 * server also by a shutdown hook if the JVM dies first). Connections use the settings
 * {@code docs/ratelimiter.md} recommends: commands refused at once while disconnected, quick reconnects.
 */
public abstract class RedisTestSupport {
    private static final AtomicInteger NAMES = new AtomicInteger();

    public static RedisServer server;
    public static ClientResources resources;
    public static RedisClient client;

    @BeforeAll
    public static void startRedis() {
        server = RedisServer.start();
        resources = newResources();
        client = newClient(resources, server.uri());
    }

    @AfterAll
    public static void stopRedis() {
        try {
            if (client != null) {
                client.shutdown(0, 2, TimeUnit.SECONDS);
            }
            if (resources != null) {
                resources.shutdown(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            }
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }

    public static ClientResources newResources() {
        return DefaultClientResources.builder()
                .ioThreadPoolSize(2)
                .computationThreadPoolSize(2)
                .reconnectDelay(Delay.constant(Duration.ofMillis(20)))
                .build();
    }

    public static RedisClient newClient(ClientResources resources, String uri) {
        RedisClient c = RedisClient.create(resources, uri);
        c.setOptions(ClientOptions.builder()
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .build());
        return c;
    }

    public static StatefulRedisConnection<String, String> connect() {
        return client.connect();
    }

    /** A limiter name no other test uses (tests share the server of their class). */
    public static String unique(String prefix) {
        return prefix + "-" + NAMES.incrementAndGet();
    }
}
