package dev.levee.health;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.levee.core.LoadSignal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BuiltInChecksTest {

    @Test
    void heapAndPoolsReadTheRealJvmAgainstTheirThresholds() throws Exception {
        CheckResult relaxed = HealthChecks.heap(1.0, 1.0).check();
        assertThat(relaxed.status()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(relaxed.details()).containsKeys("value", "used_bytes", "max_bytes");
        assertThat(HealthChecks.heap(0.0, 0.0).check().status()).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(HealthChecks.heap(0.0, 1.0).check().status()).isEqualTo(HealthStatus.DEGRADED);

        CheckResult pools = HealthChecks.memoryPools(1.0, 1.0).check();
        assertThat(pools.status()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(pools.details()).containsKey("pools");
        assertThat(HealthChecks.memoryPools(0.0, 0.0).check().status()).isEqualTo(HealthStatus.UNHEALTHY);
    }

    @Test
    void diskSpaceOfARealPath(@TempDir Path dir) throws Exception {
        CheckResult r = HealthChecks.diskSpace(dir, 1.0, 1.0).check();
        assertThat(r.status()).isIn(HealthStatus.HEALTHY, HealthStatus.UNHEALTHY); // a full disk reads 1.0
        assertThat(r.details()).containsKeys("usable_bytes", "total_bytes");
        assertThat(HealthChecks.diskSpace(dir, 0.0, 0.0).check().status()).isEqualTo(HealthStatus.UNHEALTHY);
    }

    @Test
    void aRealDeadlockIsFoundAndNamed() throws Exception {
        assertThat(HealthChecks.deadlocks().check().status()).isEqualTo(HealthStatus.HEALTHY);
        ReentrantLock a = new ReentrantLock();
        ReentrantLock b = new ReentrantLock();
        CountDownLatch bothHeld = new CountDownLatch(2);
        Thread t1 = new Thread(() -> lockBoth(a, b, bothHeld), "deadlock-1");
        Thread t2 = new Thread(() -> lockBoth(b, a, bothHeld), "deadlock-2");
        t1.setDaemon(true);
        t2.setDaemon(true);
        t1.start();
        t2.start();
        try {
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> HealthChecks.deadlocks().check().status() == HealthStatus.UNHEALTHY);
            CheckResult r = HealthChecks.deadlocks().check();
            assertThat(r.message()).isEqualTo("2 deadlocked threads");
            assertThat(r.details().get("threads").toString()).contains("deadlock-1", "deadlock-2");
        } finally {
            t1.interrupt();
            t2.interrupt();
            t1.join(30_000);
            t2.join(30_000);
        }
        assertThat(HealthChecks.deadlocks().check().status()).isEqualTo(HealthStatus.HEALTHY);
    }

    private static void lockBoth(ReentrantLock first, ReentrantLock second, CountDownLatch bothHeld) {
        try {
            first.lockInterruptibly();
            try {
                bothHeld.countDown();
                bothHeld.await();
                second.lockInterruptibly();
                second.unlock();
            } finally {
                first.unlock();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void loadAndCpuAgainstThresholds() throws Exception {
        assertThat(HealthChecks.load("queue", LoadSignal.constant(0.5), 0.8, 0.95).check().status())
                .isEqualTo(HealthStatus.HEALTHY);
        assertThat(HealthChecks.load("queue", LoadSignal.constant(0.8), 0.8, 0.95).check().status())
                .isEqualTo(HealthStatus.DEGRADED);
        CheckResult full = HealthChecks.load("queue", LoadSignal.constant(1.2), 0.8, 0.95).check();
        assertThat(full.status()).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(full.message()).isEqualTo("queue 1.200 >= 0.950");
        assertThat(HealthChecks.cpu(1.0, 1.0).check().details()).containsKey("value");
        assertThat(ResourceSignals.processCpu().load()).isBetween(0.0, 1.0);
        assertThat(ResourceSignals.systemCpu().load()).isBetween(0.0, 1.0);
        assertThat(ResourceSignals.heapUsage().load()).isBetween(0.0, 1.0);
    }

    @Test
    void lowerBoundThresholds() {
        Thresholds free = Thresholds.below(0.2, 0.05);
        assertThat(free.statusOf(0.5)).isEqualTo(HealthStatus.HEALTHY);
        assertThat(free.statusOf(0.2)).isEqualTo(HealthStatus.DEGRADED);
        assertThat(free.statusOf(0.05)).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(free.statusOf(Double.NaN)).isEqualTo(HealthStatus.DEGRADED);
        assertThat(free.resultOf("free memory", 0.01).message()).isEqualTo("free memory 0.010 <= 0.050");
    }

    @Test
    void tcpConnectToAListeningAndAClosedPort() throws Exception {
        int closedPort;
        try (ServerSocket listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            CheckResult up = HealthChecks.tcp("127.0.0.1", listening.getLocalPort(), Duration.ofSeconds(5)).check();
            assertThat(up.status()).isEqualTo(HealthStatus.HEALTHY);
            closedPort = listening.getLocalPort();
        }
        CheckResult down = HealthChecks.tcp("127.0.0.1", closedPort, Duration.ofSeconds(5)).check();
        assertThat(down.status()).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(down.message()).startsWith("connect to 127.0.0.1:" + closedPort + " failed");
    }

    @Test
    void httpGetMapsStatusCodes() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        for (int code : List.of(200, 204, 429, 500)) {
            server.createContext("/s" + code, exchange -> {
                byte[] body = "ok".getBytes(java.nio.charset.StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(code, code == 204 ? -1 : body.length);
                if (code != 204) {
                    exchange.getResponseBody().write(body);
                }
                exchange.close();
            });
        }
        server.start();
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            assertThat(get(base + "/s200").status()).isEqualTo(HealthStatus.HEALTHY);
            assertThat(get(base + "/s204").status()).isEqualTo(HealthStatus.HEALTHY);
            assertThat(get(base + "/s429").status()).isEqualTo(HealthStatus.DEGRADED);
            CheckResult error = get(base + "/s500");
            assertThat(error.status()).isEqualTo(HealthStatus.UNHEALTHY);
            assertThat(error.details()).containsEntry("status_code", 500);
            assertThat(get(base + "/missing").status()).isEqualTo(HealthStatus.UNHEALTHY);
        } finally {
            server.stop(0);
        }
        int port = server.getAddress().getPort();
        assertThat(get("http://127.0.0.1:" + port + "/s200").status()).isEqualTo(HealthStatus.UNHEALTHY);
    }

    private static CheckResult get(String uri) throws Exception {
        return HealthChecks.httpGet(URI.create(uri), Duration.ofSeconds(5)).check();
    }
}
