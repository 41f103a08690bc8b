package dev.levee.health;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.LoadSignal;
import dev.levee.core.internal.Validate;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadInfo;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Built-in checks: local resources (heap, memory pools, disk space, deadlocked threads, CPU or any
 * {@link LoadSignal}) and reachability of a dependency (TCP connect, HTTP GET). Seed 004 §17.5.1: a
 * local check compares a metric with an upper or lower threshold; a reachability check belongs in
 * readiness or deep, never in liveness.
 *
 * <p>Thresholds are fractions in [0, 1] ({@link Thresholds}); every factory validates its arguments
 * and throws {@link InvalidConfigException} naming the field. The reachability checks have their own
 * timeout, so they return even if the level's timeout is longer.
 *
 * <p>Cost: each run reads management beans or the file system (microseconds), or opens a connection.
 */
public final class HealthChecks {
    private HealthChecks() {}

    /**
     * Heap usage (used over max): DEGRADED at or above {@code degradedAt}, UNHEALTHY at or above
     * {@code unhealthyAt}. A heap reading includes garbage not yet collected; for "full after GC" use
     * {@link #memoryPools}.
     *
     * @param degradedAt e.g. 0.90
     * @param unhealthyAt e.g. 0.98
     * @return the check
     */
    public static HealthCheck heap(double degradedAt, double unhealthyAt) {
        Thresholds t = Thresholds.above(degradedAt, unhealthyAt);
        return () -> {
            MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
            return t.resultOf("heap usage", ResourceSignals.fraction(heap))
                    .withDetail("used_bytes", heap.getUsed())
                    .withDetail("max_bytes", heap.getMax());
        };
    }

    /**
     * The fullest heap memory pool after its last collection (the collection usage, which is what is
     * left after GC; the plain usage for pools that do not report one). Pools without a max are skipped.
     *
     * @param degradedAt e.g. 0.85
     * @param unhealthyAt e.g. 0.95
     * @return the check
     */
    public static HealthCheck memoryPools(double degradedAt, double unhealthyAt) {
        Thresholds t = Thresholds.above(degradedAt, unhealthyAt);
        return () -> {
            double worst = 0.0;
            String worstPool = "none";
            Map<String, Object> pools = new LinkedHashMap<>();
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() != java.lang.management.MemoryType.HEAP || !pool.isValid()) {
                    continue;
                }
                MemoryUsage usage = pool.isCollectionUsageThresholdSupported() && pool.getCollectionUsage() != null
                        ? pool.getCollectionUsage() : pool.getUsage();
                if (usage == null || usage.getMax() <= 0) {
                    continue;
                }
                double f = usage.getUsed() / (double) usage.getMax();
                pools.put(pool.getName(), f);
                if (f >= worst) {
                    worst = f;
                    worstPool = pool.getName();
                }
            }
            return t.resultOf("memory pool '" + worstPool + "' usage after GC", worst).withDetail("pools", pools);
        };
    }

    /**
     * Disk usage of the file store holding {@code path} (1 − usable/total): DEGRADED at or above
     * {@code degradedAt}, UNHEALTHY at or above {@code unhealthyAt}. An unreadable store is UNHEALTHY.
     *
     * @param path a path on the file store
     * @param degradedAt e.g. 0.90
     * @param unhealthyAt e.g. 0.97
     * @return the check
     */
    public static HealthCheck diskSpace(Path path, double degradedAt, double unhealthyAt) {
        Validate.notNull("HealthChecks.diskSpace", "path", path);
        Thresholds t = Thresholds.above(degradedAt, unhealthyAt);
        return () -> {
            FileStore store = Files.getFileStore(path);
            long total = store.getTotalSpace();
            long usable = store.getUsableSpace();
            double used = total > 0 ? 1.0 - usable / (double) total : 0.0;
            return t.resultOf("disk usage of " + path, used)
                    .withDetail("usable_bytes", usable)
                    .withDetail("total_bytes", total);
        };
    }

    /**
     * Deadlocked threads (monitors or ownable synchronizers): UNHEALTHY with their names if any. A
     * deadlock never heals, so this is a liveness check: restarting is the cure.
     *
     * @return the check
     */
    public static HealthCheck deadlocks() {
        return () -> {
            var threads = ManagementFactory.getThreadMXBean();
            long[] ids = threads.findDeadlockedThreads();
            if (ids == null || ids.length == 0) {
                return CheckResult.healthy();
            }
            List<String> names = new ArrayList<>();
            for (ThreadInfo info : threads.getThreadInfo(ids)) {
                if (info != null) {
                    names.add(info.getThreadName() + " waiting on " + info.getLockName());
                }
            }
            return CheckResult.unhealthy(ids.length + " deadlocked threads").withDetail("threads", names);
        };
    }

    /**
     * The JVM process's CPU load ({@link ResourceSignals#processCpu()}).
     *
     * @param degradedAt e.g. 0.85
     * @param unhealthyAt e.g. 0.98
     * @return the check
     */
    public static HealthCheck cpu(double degradedAt, double unhealthyAt) {
        return load("cpu load", ResourceSignals.processCpu(), degradedAt, unhealthyAt);
    }

    /**
     * Any {@link LoadSignal} against thresholds: a load shedder's utilisation, a queue's fill level.
     *
     * @param what what the signal measures (used in messages)
     * @param signal the signal
     * @param degradedAt DEGRADED at or above
     * @param unhealthyAt UNHEALTHY at or above
     * @return the check
     */
    public static HealthCheck load(String what, LoadSignal signal, double degradedAt, double unhealthyAt) {
        Validate.notNull("HealthChecks.load", "what", what);
        Validate.notNull("HealthChecks.load", "signal", signal);
        Thresholds t = Thresholds.above(degradedAt, unhealthyAt);
        return () -> t.resultOf(what, signal.load());
    }

    /**
     * Whether a TCP connection to {@code host:port} opens within {@code timeout}; UNHEALTHY with the
     * error otherwise. The connection is closed at once.
     *
     * @param host the host
     * @param port the port, in [1, 65535]
     * @param timeout the connect timeout, in (0, 1 day]
     * @return the check
     */
    public static HealthCheck tcp(String host, int port, Duration timeout) {
        Validate.notNull("HealthChecks.tcp", "host", host);
        Validate.inRange("HealthChecks.tcp", "port", port, 1, 65535);
        int millis = timeoutMillis("HealthChecks.tcp", timeout);
        return () -> {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host, port), millis);
                return CheckResult.healthy().withDetail("address", host + ":" + port);
            } catch (IOException e) {
                return CheckResult.unhealthy("connect to " + host + ":" + port + " failed: " + e)
                        .withDetail("address", host + ":" + port);
            }
        };
    }

    /**
     * An HTTP GET of {@code uri} with {@code timeout} for connect and read: HEALTHY on a status below
     * 400, DEGRADED on 429 (the dependency is shedding), UNHEALTHY on any other status or error. Uses
     * {@link HttpURLConnection} so the check starts no background thread.
     *
     * @param uri an {@code http} or {@code https} URI
     * @param timeout the connect and read timeout, in (0, 1 day]
     * @return the check
     */
    public static HealthCheck httpGet(URI uri, Duration timeout) {
        Validate.notNull("HealthChecks.httpGet", "uri", uri);
        String scheme = uri.getScheme();
        Validate.check("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme), "HealthChecks.httpGet",
                "uri", "an http or https URI", uri);
        int millis = timeoutMillis("HealthChecks.httpGet", timeout);
        return () -> {
            HttpURLConnection connection = (HttpURLConnection) uri.toURL().openConnection();
            try {
                connection.setConnectTimeout(millis);
                connection.setReadTimeout(millis);
                connection.setUseCaches(false);
                connection.setInstanceFollowRedirects(false);
                connection.setRequestMethod("GET");
                int code;
                try {
                    code = connection.getResponseCode();
                } catch (IOException e) {
                    return CheckResult.unhealthy("GET " + uri + " failed: " + e);
                }
                drain(connection);
                HealthStatus status = code < 400 ? HealthStatus.HEALTHY
                        : code == 429 ? HealthStatus.DEGRADED : HealthStatus.UNHEALTHY;
                return CheckResult.of(status, status == HealthStatus.HEALTHY ? null : "GET " + uri + " answered " + code)
                        .withDetail("status_code", code);
            } finally {
                connection.disconnect();
            }
        };
    }

    private static void drain(HttpURLConnection connection) {
        try (InputStream in = connection.getResponseCode() < 400 ? connection.getInputStream()
                : connection.getErrorStream()) {
            if (in != null) {
                in.readNBytes(64 * 1024);
            }
        } catch (IOException ignored) {
            // the status code is the answer; the body is read only to free the connection
        }
    }

    private static int timeoutMillis(String policy, Duration timeout) {
        Validate.positive(policy, "timeout", timeout);
        Validate.check(timeout.compareTo(Duration.ofDays(1)) <= 0, policy, "timeout", "<= PT24H", timeout);
        return (int) Math.max(1L, timeout.toMillis());
    }
}
