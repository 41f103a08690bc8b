package dev.levee.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.LoadSignal;
import dev.levee.core.Ticker;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** Every config bound is refused in build() with a message naming policy, field, bound and value. */
class ConfigBoundsTest {
    private static final Duration DAY_AND_A_BIT = Duration.ofDays(1).plusNanos(1);

    private static void refused(ThrowingCallable build, String policy, String field, String bound, String value) {
        assertThatThrownBy(build).isInstanceOfSatisfying(InvalidConfigException.class, e -> {
            assertThat(e.policy()).isEqualTo(policy);
            assertThat(e.field()).isEqualTo(field);
            assertThat(e.getMessage()).startsWith(policy + ": " + field + " must be ").contains(bound)
                    .endsWith(" but was " + value);
        });
    }

    @Test
    void defaultsAreTheDocumentedConstants() {
        HealthCheckerConfig c = HealthCheckerConfig.defaults();
        assertThat(c.livenessTimeout()).isEqualTo(Duration.ofSeconds(1)).isEqualTo(HealthCheckerConfig.DEFAULT_LIVENESS_TIMEOUT);
        assertThat(c.readinessTimeout()).isEqualTo(Duration.ofSeconds(5)).isEqualTo(HealthCheckerConfig.DEFAULT_READINESS_TIMEOUT);
        assertThat(c.deepTimeout()).isEqualTo(Duration.ofSeconds(30)).isEqualTo(HealthCheckerConfig.DEFAULT_DEEP_TIMEOUT);
        assertThat(c.startupTimeout()).isEqualTo(HealthCheckerConfig.DEFAULT_STARTUP_TIMEOUT);
        assertThat(c.maxConcurrentChecks()).isEqualTo(HealthCheckerConfig.DEFAULT_MAX_CONCURRENT_CHECKS);
        assertThat(c.latchStartup()).isEqualTo(HealthCheckerConfig.DEFAULT_LATCH_STARTUP);
        assertThat(c.timeout(HealthLevel.STARTUP)).isEqualTo(c.startupTimeout());
        HealthCheckConfig k = HealthCheckConfig.defaults();
        assertThat(k.critical()).isEqualTo(HealthCheckConfig.DEFAULT_CRITICAL);
        assertThat(k.cacheTtl()).isEqualTo(HealthCheckConfig.DEFAULT_CACHE_TTL);
        assertThat(k.refreshAhead()).isEqualTo(HealthCheckConfig.DEFAULT_REFRESH_AHEAD);
        assertThat(k.timeout()).isNull();
        assertThat(k.consecutiveToWorsen()).isEqualTo(HealthCheckConfig.DEFAULT_CONSECUTIVE_TO_WORSEN);
        assertThat(k.consecutiveToRecover()).isEqualTo(HealthCheckConfig.DEFAULT_CONSECUTIVE_TO_RECOVER);
        HealthEndpointConfig e = HealthEndpointConfig.defaults();
        assertThat(e.bindAddress().isLoopbackAddress()).isTrue();
        assertThat(e.port()).isEqualTo(HealthEndpointConfig.DEFAULT_PORT);
        assertThat(e.basePath()).isEqualTo(HealthEndpointConfig.DEFAULT_BASE_PATH);
        assertThat(e.workerThreads()).isEqualTo(HealthEndpointConfig.DEFAULT_WORKER_THREADS);
        assertThat(e.maxQueuedRequests()).isEqualTo(HealthEndpointConfig.DEFAULT_MAX_QUEUED_REQUESTS);
        assertThat(e.maxRequestHeaderBytes()).isEqualTo(HealthEndpointConfig.DEFAULT_MAX_REQUEST_HEADER_BYTES);
        assertThat(e.detailsVisibility()).isEqualTo(DetailsVisibility.NEVER);
        WatchdogConfig w = WatchdogConfig.defaults();
        assertThat(w.signals()).extracting(WatchdogSignal::name, WatchdogSignal::threshold)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("heap", WatchdogConfig.DEFAULT_HEAP_THRESHOLD));
        assertThat(w.sampleInterval()).isEqualTo(WatchdogConfig.DEFAULT_SAMPLE_INTERVAL);
        assertThat(w.breachesToAct()).isEqualTo(WatchdogConfig.DEFAULT_BREACHES_TO_ACT);
        assertThat(w.samplesToRecover()).isEqualTo(WatchdogConfig.DEFAULT_SAMPLES_TO_RECOVER);
        assertThat(w.action()).isSameAs(WatchdogAction.markUnready());
        assertThat(w.maxActions()).isEqualTo(WatchdogConfig.DEFAULT_MAX_ACTIONS);
        assertThat(w.actionWindow()).isEqualTo(WatchdogConfig.DEFAULT_ACTION_WINDOW);
        assertThat(w.initialBackoff()).isEqualTo(WatchdogConfig.DEFAULT_INITIAL_BACKOFF);
    }

    @Test
    void toBuilderRoundTrips() {
        HealthCheckConfig k = HealthCheckConfig.builder().critical(false).cacheTtl(Duration.ofSeconds(3))
                .refreshAhead(false).timeout(Duration.ofSeconds(2)).consecutiveToWorsen(4).consecutiveToRecover(5).build();
        assertThat(k.toBuilder().build().toString()).isEqualTo(k.toString());
        HealthCheckerConfig c = HealthCheckerConfig.builder().maxConcurrentChecks(3).latchStartup(false).build();
        assertThat(c.toBuilder().build().maxConcurrentChecks()).isEqualTo(3);
        assertThat(c.toBuilder().build().latchStartup()).isFalse();
        HealthEndpointConfig e = HealthEndpointConfig.builder().port(0).basePath("/x").build();
        assertThat(e.toBuilder().build().basePath()).isEqualTo("/x");
        WatchdogConfig w = WatchdogConfig.builder().signal("a", LoadSignal.constant(0), 0.5).maxActions(7).build();
        assertThat(w.toBuilder().build().signals()).hasSize(1);
        assertThat(w.toBuilder().build().maxActions()).isEqualTo(7);
        assertThat(w.toBuilder().clearSignals().build().signals().get(0).name()).isEqualTo("heap");
    }

    @Test
    void healthCheckConfigBounds() {
        String p = "HealthCheck config";
        refused(() -> HealthCheckConfig.builder().cacheTtl(null).build(), p, "cacheTtl", "set (not null)", "null");
        refused(() -> HealthCheckConfig.builder().cacheTtl(Duration.ofSeconds(-1)).build(), p, "cacheTtl", ">= 0", "PT-1S");
        refused(() -> HealthCheckConfig.builder().cacheTtl(DAY_AND_A_BIT).build(), p, "cacheTtl", "<= PT24H",
                DAY_AND_A_BIT.toString());
        refused(() -> HealthCheckConfig.builder().timeout(Duration.ZERO).build(), p, "timeout", "> 0", "PT0S");
        refused(() -> HealthCheckConfig.builder().timeout(DAY_AND_A_BIT).build(), p, "timeout", "<= PT24H",
                DAY_AND_A_BIT.toString());
        refused(() -> HealthCheckConfig.builder().consecutiveToWorsen(0).build(), p, "consecutiveToWorsen", "in [1, 100]", "0");
        refused(() -> HealthCheckConfig.builder().consecutiveToWorsen(101).build(), p, "consecutiveToWorsen", "in [1, 100]", "101");
        refused(() -> HealthCheckConfig.builder().consecutiveToRecover(0).build(), p, "consecutiveToRecover", "in [1, 100]", "0");
        refused(() -> HealthCheckConfig.builder().consecutiveToRecover(101).build(), p, "consecutiveToRecover", "in [1, 100]", "101");
        HealthCheckConfig.builder().cacheTtl(Duration.ofDays(1)).timeout(Duration.ofDays(1)).consecutiveToWorsen(100)
                .consecutiveToRecover(100).build();
    }

    @Test
    void healthCheckerConfigBounds() {
        String p = "HealthChecker config";
        for (String field : new String[] {"livenessTimeout", "readinessTimeout", "startupTimeout", "deepTimeout"}) {
            refused(() -> timeout(field, Duration.ZERO), p, field, "> 0", "PT0S");
            refused(() -> timeout(field, Duration.ofMillis(-5)), p, field, "> 0", "PT-0.005S");
            refused(() -> timeout(field, null), p, field, "set (not null)", "null");
            refused(() -> timeout(field, DAY_AND_A_BIT), p, field, "<= PT24H", DAY_AND_A_BIT.toString());
            timeout(field, Duration.ofDays(1));
        }
        refused(() -> HealthCheckerConfig.builder().maxConcurrentChecks(0).build(), p, "maxConcurrentChecks", "in [1, 1024]", "0");
        refused(() -> HealthCheckerConfig.builder().maxConcurrentChecks(1025).build(), p, "maxConcurrentChecks", "in [1, 1024]", "1025");
        refused(() -> HealthCheckerConfig.builder().ticker(null).build(), p, "ticker", "set (not null)", "null");
        refused(() -> HealthCheckerConfig.builder().scheduler(null).build(), p, "scheduler", "set (not null)", "null");
        refused(() -> HealthCheckerConfig.builder().clock(null).build(), p, "clock", "set (not null)", "null");
        refused(() -> HealthChecker.of(" ", HealthCheckerConfig.defaults()), "HealthChecker", "name", "non-blank", "' '");
        refused(() -> HealthChecker.of("x", null), "HealthChecker 'x'", "config", "set (not null)", "null");
    }

    private static HealthCheckerConfig timeout(String field, Duration value) {
        HealthCheckerConfig.Builder b = HealthCheckerConfig.builder();
        switch (field) {
            case "livenessTimeout":
                b.livenessTimeout(value);
                break;
            case "readinessTimeout":
                b.readinessTimeout(value);
                break;
            case "startupTimeout":
                b.startupTimeout(value);
                break;
            default:
                b.deepTimeout(value);
        }
        return b.build();
    }

    @Test
    void healthEndpointConfigBounds() {
        String p = "HealthEndpoint config";
        refused(() -> HealthEndpointConfig.builder().bindAddress(null).build(), p, "bindAddress", "set (not null)", "null");
        refused(() -> HealthEndpointConfig.builder().port(-1).build(), p, "port", "in [0, 65535]", "-1");
        refused(() -> HealthEndpointConfig.builder().port(65536).build(), p, "port", "in [0, 65535]", "65536");
        refused(() -> HealthEndpointConfig.builder().basePath(null).build(), p, "basePath", "set (not null)", "null");
        for (String bad : new String[] {"", "/", "health", "/health/", "/he alth", "/h?x", "/h#x", "/\u00e9"}) {
            refused(() -> HealthEndpointConfig.builder().basePath(bad).build(), p, "basePath", "starting with '/'",
                    "'" + bad + "'");
        }
        refused(() -> HealthEndpointConfig.builder().workerThreads(0).build(), p, "workerThreads", "in [1, 256]", "0");
        refused(() -> HealthEndpointConfig.builder().workerThreads(257).build(), p, "workerThreads", "in [1, 256]", "257");
        refused(() -> HealthEndpointConfig.builder().maxQueuedRequests(-1).build(), p, "maxQueuedRequests", "in [0, 10000]", "-1");
        refused(() -> HealthEndpointConfig.builder().maxQueuedRequests(10_001).build(), p, "maxQueuedRequests",
                "in [0, 10000]", "10001");
        refused(() -> HealthEndpointConfig.builder().maxRequestHeaderBytes(255).build(), p, "maxRequestHeaderBytes",
                "in [256, 1048576]", "255");
        refused(() -> HealthEndpointConfig.builder().maxRequestHeaderBytes(1_048_577).build(), p, "maxRequestHeaderBytes",
                "in [256, 1048576]", "1048577");
        refused(() -> HealthEndpointConfig.builder().detailsVisibility(null).build(), p, "detailsVisibility",
                "set (not null)", "null");
        refused(() -> HealthEndpointConfig.builder().detailsVisibility(DetailsVisibility.WHEN_AUTHORIZED).build(), p,
                "authorizer", "set when detailsVisibility is WHEN_AUTHORIZED", "null");
        HealthEndpointConfig.builder().port(0).port(65535).basePath("/a/b").workerThreads(256).maxQueuedRequests(0)
                .maxRequestHeaderBytes(256).bindAddress(InetAddress.getLoopbackAddress()).build();
    }

    @Test
    void watchdogConfigBounds() {
        String p = "Watchdog config";
        refused(() -> WatchdogConfig.builder().sampleInterval(null).build(), p, "sampleInterval", "set (not null)", "null");
        refused(() -> WatchdogConfig.builder().sampleInterval(Duration.ofMillis(9)).build(), p, "sampleInterval",
                "in [PT0.01S, PT1H]", "PT0.009S");
        refused(() -> WatchdogConfig.builder().sampleInterval(Duration.ofHours(1).plusNanos(1)).build(), p,
                "sampleInterval", "in [PT0.01S, PT1H]", "PT1H0.000000001S");
        refused(() -> WatchdogConfig.builder().breachesToAct(0).build(), p, "breachesToAct", "in [1, 1000]", "0");
        refused(() -> WatchdogConfig.builder().breachesToAct(1001).build(), p, "breachesToAct", "in [1, 1000]", "1001");
        refused(() -> WatchdogConfig.builder().samplesToRecover(0).build(), p, "samplesToRecover", "in [1, 1000]", "0");
        refused(() -> WatchdogConfig.builder().samplesToRecover(1001).build(), p, "samplesToRecover", "in [1, 1000]", "1001");
        refused(() -> WatchdogConfig.builder().action(null).build(), p, "action", "set (not null)", "null");
        refused(() -> WatchdogConfig.builder().maxActions(0).build(), p, "maxActions", "in [1, 1000]", "0");
        refused(() -> WatchdogConfig.builder().maxActions(1001).build(), p, "maxActions", "in [1, 1000]", "1001");
        refused(() -> WatchdogConfig.builder().actionWindow(null).build(), p, "actionWindow", "set (not null)", "null");
        refused(() -> WatchdogConfig.builder().actionWindow(Duration.ofMillis(999)).build(), p, "actionWindow",
                "in [PT1S, PT168H]", "PT0.999S");
        refused(() -> WatchdogConfig.builder().actionWindow(Duration.ofDays(8)).build(), p, "actionWindow",
                "in [PT1S, PT168H]", "PT192H");
        refused(() -> WatchdogConfig.builder().initialBackoff(null).build(), p, "initialBackoff", "set (not null)", "null");
        refused(() -> WatchdogConfig.builder().initialBackoff(Duration.ofSeconds(-1)).build(), p, "initialBackoff",
                ">= 0", "PT-1S");
        refused(() -> WatchdogConfig.builder().initialBackoff(Duration.ofHours(2)).build(), p, "initialBackoff",
                "<= actionWindow (PT1H)", "PT2H");
        refused(() -> WatchdogConfig.builder().ticker(null).build(), p, "ticker", "set (not null)", "null");
        refused(() -> WatchdogConfig.builder().scheduler(null).build(), p, "scheduler", "set (not null)", "null");
        refused(() -> WatchdogConfig.builder().signal("a", LoadSignal.constant(0), 0.5)
                .signal("a", LoadSignal.constant(0), 0.6).build(), p, "signals", "unique names", "'a' twice");
        WatchdogConfig.Builder many = WatchdogConfig.builder();
        for (int i = 0; i < 65; i++) {
            many.signal("s" + i, LoadSignal.constant(0), 0.5);
        }
        refused(many::build, p, "signals", "at most 64", "65");
        refused(() -> Watchdog.of("", WatchdogConfig.defaults()), "Watchdog", "name", "non-blank", "''");
        refused(() -> Watchdog.of("w", null), "Watchdog 'w'", "config", "set (not null)", "null");
    }

    @Test
    void watchdogSignalAndThresholdBounds() {
        refused(() -> new WatchdogSignal(" ", LoadSignal.constant(0), 0.5), "WatchdogSignal", "name", "non-blank", " ");
        refused(() -> new WatchdogSignal("m", null, 0.5), "WatchdogSignal 'm'", "signal", "set (not null)", "null");
        refused(() -> new WatchdogSignal("m", LoadSignal.constant(0), 0.0), "WatchdogSignal 'm'", "threshold",
                "a fraction in (0, 1]", "0.0");
        refused(() -> new WatchdogSignal("m", LoadSignal.constant(0), 95), "WatchdogSignal 'm'", "threshold",
                "looks like a percent", "95.0");
        refused(() -> new WatchdogSignal("m", LoadSignal.constant(0), Double.NaN), "WatchdogSignal 'm'", "threshold",
                "a fraction in (0, 1]", "NaN");
        refused(() -> Thresholds.above(-0.1, 0.5), "Thresholds", "degradedAt", "a fraction in [0, 1]", "-0.1");
        refused(() -> Thresholds.above(0.5, 80), "Thresholds", "unhealthyAt", "looks like a percent; write 0.8", "80.0");
        refused(() -> Thresholds.above(0.5, Double.NaN), "Thresholds", "unhealthyAt", "a fraction in [0, 1]", "NaN");
        refused(() -> Thresholds.above(0.9, 0.5), "Thresholds", "degradedAt", "<= unhealthyAt (0.5)", "0.9");
        refused(() -> Thresholds.below(0.1, 0.5), "Thresholds", "degradedAt", ">= unhealthyAt (0.5)", "0.1");
        Thresholds.above(0, 1);
        Thresholds.below(1, 0);
    }

    @Test
    void dependencyCheckBounds() {
        String p = "DependencyCheck 'db'";
        refused(() -> DependencyCheck.builder("db").build(), p, "views", "at least one view set", "none");
        refused(() -> DependencyCheck.builder(" "), "DependencyCheck", "name", "non-blank", "' '");
        refused(() -> DependencyCheck.builder("db").latency(() -> 0L, null, Duration.ofSeconds(1)).build(), p,
                "latencyDegradedAt", "set (not null)", "null");
        refused(() -> DependencyCheck.builder("db").latency(() -> 0L, Duration.ofSeconds(1), Duration.ZERO).build(), p,
                "latencyUnhealthyAt", "> 0", "PT0S");
        refused(() -> DependencyCheck.builder("db").latency(() -> 0L, Duration.ofSeconds(2), Duration.ofSeconds(1))
                .build(), p, "latencyDegradedAt", "<= latencyUnhealthyAt (PT1S)", "PT2S");
        refused(() -> DependencyCheck.builder("db").saturation(() -> 0, null).build(), p, "saturationThresholds",
                "set (not null)", "null");
        refused(() -> DependencyCheck.builder("db").rejectionRate(() -> 0, null).build(), p, "rejectionThresholds",
                "set (not null)", "null");
        refused(() -> DependencyCheck.builder("db").errorRate(() -> 0, null).build(), p, "errorThresholds",
                "set (not null)", "null");
    }

    @Test
    void builtInCheckArguments() {
        refused(() -> HealthChecks.tcp(null, 80, Duration.ofSeconds(1)), "HealthChecks.tcp", "host", "set (not null)", "null");
        refused(() -> HealthChecks.tcp("h", 0, Duration.ofSeconds(1)), "HealthChecks.tcp", "port", "in [1, 65535]", "0");
        refused(() -> HealthChecks.tcp("h", 65536, Duration.ofSeconds(1)), "HealthChecks.tcp", "port", "in [1, 65535]", "65536");
        refused(() -> HealthChecks.tcp("h", 80, Duration.ZERO), "HealthChecks.tcp", "timeout", "> 0", "PT0S");
        refused(() -> HealthChecks.tcp("h", 80, DAY_AND_A_BIT), "HealthChecks.tcp", "timeout", "<= PT24H",
                DAY_AND_A_BIT.toString());
        refused(() -> HealthChecks.httpGet(null, Duration.ofSeconds(1)), "HealthChecks.httpGet", "uri", "set (not null)", "null");
        refused(() -> HealthChecks.httpGet(URI.create("ftp://x/"), Duration.ofSeconds(1)), "HealthChecks.httpGet", "uri",
                "an http or https URI", "ftp://x/");
        refused(() -> HealthChecks.httpGet(URI.create("http://x/"), null), "HealthChecks.httpGet", "timeout",
                "set (not null)", "null");
        refused(() -> HealthChecks.diskSpace(null, 0.9, 0.95), "HealthChecks.diskSpace", "path", "set (not null)", "null");
        refused(() -> HealthChecks.diskSpace(Path.of("."), 0.99, 0.95), "Thresholds", "degradedAt", "<= unhealthyAt", "0.99");
        refused(() -> HealthChecks.heap(90, 98), "Thresholds", "degradedAt", "looks like a percent", "90.0");
        refused(() -> HealthChecks.memoryPools(0.5, 1.5), "Thresholds", "unhealthyAt", "a fraction in [0, 1]", "1.5");
        refused(() -> HealthChecks.cpu(-1, 0.5), "Thresholds", "degradedAt", "a fraction in [0, 1]", "-1.0");
        refused(() -> HealthChecks.load("q", null, 0.5, 0.6), "HealthChecks.load", "signal", "set (not null)", "null");
        refused(() -> HealthChecks.load(null, LoadSignal.constant(0), 0.5, 0.6), "HealthChecks.load", "what",
                "set (not null)", "null");
        refused(() -> Heartbeat.of(null, Duration.ofSeconds(1)), "Heartbeat", "ticker", "set (not null)", "null");
        refused(() -> Heartbeat.of(Ticker.system(), Duration.ZERO), "Heartbeat", "maxSilence", "> 0", "PT0S");
    }
}
