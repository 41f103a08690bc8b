package dev.levee.redis.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.redis.RedisServer;
import dev.levee.redis.RedisTestSupport;
import dev.levee.testing.Concurrently;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Redis Cluster: three masters started from the same binary, the 16384 slots split between them by
 * the test ({@code CLUSTER ADDSLOTS}, {@code CLUSTER MEET}); limiters whose keys land on all three
 * masters, each shared by two instances on their own cluster connections, grant exactly their limit.
 */
class ClusterTest {
    private static final int MASTERS = 3;
    private static final long LIMIT = 60;

    @Test
    void limitsKeysAcrossSlotsOnThreeMasters() throws Exception {
        List<RedisServer> servers = new ArrayList<>();
        ClientResources resources = RedisTestSupport.newResources();
        try {
            for (int i = 0; i < MASTERS; i++) {
                servers.add(RedisServer.start("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                        "--cluster-node-timeout", "5000"));
            }
            formCluster(servers, resources);
            RedisClusterClient cluster = RedisClusterClient.create(resources,
                    RedisURI.create("127.0.0.1", servers.get(0).port()));
            try (StatefulRedisClusterConnection<String, String> c1 = cluster.connect();
                    StatefulRedisClusterConnection<String, String> c2 = cluster.connect()) {
                // Names whose keys hash to slots owned by each of the three masters.
                List<String> names = new ArrayList<>();
                Set<Integer> owners = new HashSet<>();
                for (int i = 0; owners.size() < MASTERS; i++) {
                    String name = "tenant-" + i;
                    int owner = SlotHash.getSlot(key(name)) * MASTERS / SlotHash.SLOT_COUNT;
                    if (owners.add(owner)) {
                        names.add(name);
                    }
                }
                List<RedisRateLimiter> limiters = new ArrayList<>();
                for (String name : names) {
                    limiters.add(RedisRateLimiter.of(name, config(), c1));
                    limiters.add(RedisRateLimiter.of(name, config(), c2));
                }
                AtomicLongArray granted = new AtomicLongArray(names.size());
                Concurrently.run(Concurrently.THREADS, thread -> {
                    for (int i = 0; i < 30; i++) {
                        int l = (thread + i) % limiters.size();
                        if (limiters.get(l).tryAcquire()) {
                            granted.incrementAndGet(l / 2);
                        }
                    }
                });
                for (int n = 0; n < names.size(); n++) {
                    assertThat(granted.get(n)).as(names.get(n)).isEqualTo(LIMIT);
                }
                for (RedisRateLimiter l : limiters) {
                    assertThat(l.redisMetrics().storeFailures()).isZero();
                    assertThat(l.redisMetrics().outageDecisions()).isZero();
                }
                // Each key lives on the master owning its slot.
                for (int n = 0; n < names.size(); n++) {
                    assertThat(c1.sync().exists(key(names.get(n)))).isEqualTo(1);
                }
            } finally {
                cluster.shutdown(0, 2, TimeUnit.SECONDS);
            }
        } finally {
            resources.shutdown(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            servers.forEach(RedisServer::close);
        }
    }

    private static String key(String name) {
        return RedisRateLimiterConfig.DEFAULT_KEY_PREFIX + "{" + name + "}:" + RedisScriptNames.suffix(RateLimitAlgorithm.GCRA);
    }

    private static RedisRateLimiterConfig config() {
        return RedisRateLimiterConfig.builder()
                .rate(RateLimiterConfig.builder().rate(LIMIT, Duration.ofDays(30)).build())
                .outagePolicy(OutagePolicy.FAIL_CLOSED)
                .callTimeout(Duration.ofSeconds(10))
                .build();
    }

    /** Splits the slots in three contiguous ranges, introduces the nodes, waits for cluster_state:ok. */
    private static void formCluster(List<RedisServer> servers, ClientResources resources) {
        List<RedisClient> clients = new ArrayList<>();
        List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
        try {
            for (RedisServer s : servers) {
                RedisClient client = RedisClient.create(resources, s.uri());
                clients.add(client);
                connections.add(client.connect());
            }
            for (int i = 0; i < MASTERS; i++) {
                int from = i * SlotHash.SLOT_COUNT / MASTERS;
                int to = (i + 1) * SlotHash.SLOT_COUNT / MASTERS;
                connections.get(i).sync().clusterAddSlots(IntStream.range(from, to).toArray());
            }
            for (int i = 1; i < MASTERS; i++) {
                connections.get(0).sync().clusterMeet("127.0.0.1", servers.get(i).port());
            }
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> connections.stream()
                    .allMatch(c -> c.sync().clusterInfo().contains("cluster_state:ok")
                            && c.sync().clusterNodes().lines().count() == MASTERS));
        } finally {
            connections.forEach(StatefulRedisConnection::close);
            clients.forEach(c -> c.shutdown(0, 2, TimeUnit.SECONDS));
        }
    }
}
