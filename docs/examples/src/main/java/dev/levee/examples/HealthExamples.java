package dev.levee.examples;

import com.sun.net.httpserver.HttpServer;
import dev.levee.bulkhead.Bulkhead;
import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.core.Subscription;
import dev.levee.health.CheckResult;
import dev.levee.health.DependencyCheck;
import dev.levee.health.DetailsVisibility;
import dev.levee.health.HealthCheckConfig;
import dev.levee.health.HealthChecker;
import dev.levee.health.HealthChecks;
import dev.levee.health.HealthEndpoint;
import dev.levee.health.HealthEndpointConfig;
import dev.levee.health.HealthLevel;
import dev.levee.health.HealthMetricsBinder;
import dev.levee.health.Heartbeat;
import dev.levee.health.ResourceSignals;
import dev.levee.health.Watchdog;
import dev.levee.health.WatchdogAction;
import dev.levee.health.WatchdogConfig;
import dev.levee.health.WatchdogMetricsBinder;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * The code examples of {@code docs/health.md}, compiled by the build and exercised by
 * {@code HealthExamplesTest}. Each method is one snippet of the page.
 */
public final class HealthExamples {
    private HealthExamples() {}

    /**
     * Liveness: only the process itself. A wedged process (deadlock, exhausted heap, a main loop that
     * stopped) is cured by a restart; a dependency outage is not.
     *
     * @param checker the checker
     * @param mainLoop the heartbeat the main loop beats
     */
    public static void livenessChecks(HealthChecker checker, Heartbeat mainLoop) {
        checker.register(HealthLevel.LIVENESS, "deadlocks", HealthChecks.deadlocks());
        checker.register(HealthLevel.LIVENESS, "heap", HealthChecks.memoryPools(0.90, 0.98));
        checker.register(HealthLevel.LIVENESS, "main-loop", HealthChecks.load("main loop silence", mainLoop, 0.5, 1.0));
    }

    /**
     * Readiness: can this instance take traffic now? The dependency check reads what the breaker and the
     * bulkhead already know: one line of wiring each, no call to the dependency.
     *
     * @param checker the checker
     * @param breaker the inventory breaker
     * @param bulkhead the inventory bulkhead
     */
    public static void readinessChecks(HealthChecker checker, CircuitBreaker breaker, Bulkhead bulkhead) {
        checker.register(HealthLevel.READINESS, "inventory", DependencyCheck.builder("inventory")
                .circuitBreaker(breaker::state)
                .saturation(() -> bulkhead.activeCount() / (double) bulkhead.maxConcurrentCalls())
                .build());
        checker.register(HealthLevel.READINESS, "disk", HealthChecks.diskSpace(Path.of("."), 0.90, 0.97));
    }

    /**
     * Startup: has initialisation finished? Latched HEALTHY after the first success, so the probe stops
     * costing anything once the instance is up.
     *
     * @param checker the checker
     * @param cacheWarm whether the cache has been warmed
     */
    public static void startupCheck(HealthChecker checker, BooleanSupplier cacheWarm) {
        checker.register(HealthLevel.STARTUP, "cache-warm",
                () -> cacheWarm.getAsBoolean() ? CheckResult.healthy() : CheckResult.unhealthy("warming"));
    }

    /**
     * Deep: an expensive end-to-end check, cached for 30 s with refresh in the background, non-critical
     * so a slow search engine degrades the report instead of failing it, and tolerant: three failures in
     * a row before it reports UNHEALTHY, two successes before it recovers.
     *
     * @param checker the checker
     * @param search the search engine's health URI
     */
    public static void deepCheck(HealthChecker checker, URI search) {
        checker.register(HealthLevel.DEEP, "search", HealthChecks.httpGet(search, Duration.ofSeconds(2)),
                HealthCheckConfig.builder()
                        .cacheTtl(Duration.ofSeconds(30))
                        .critical(false)
                        .consecutiveToWorsen(3)
                        .consecutiveToRecover(2)
                        .build());
    }

    /**
     * The endpoint for Kubernetes probes: bound to every interface (probes come from the kubelet, not
     * from loopback), details for callers presenting the operators' token.
     *
     * @param checker the checker
     * @param port the port (0 for any free port)
     * @param operatorToken the token that unlocks details
     * @return the running endpoint
     * @throws java.net.UnknownHostException never for the literal address
     */
    public static HealthEndpoint endpointForKubernetes(HealthChecker checker, int port, String operatorToken)
            throws java.net.UnknownHostException {
        byte[] expected = operatorToken.getBytes(StandardCharsets.UTF_8);
        return HealthEndpoint.start(checker, HealthEndpointConfig.builder()
                .bindAddress(InetAddress.getByName("0.0.0.0"))
                .port(port)
                .detailsVisibility(DetailsVisibility.WHEN_AUTHORIZED)
                .authorizer(exchange -> {
                    String token = exchange.getRequestHeaders().getFirst("X-Health-Token");
                    return token != null
                            && MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8), expected);
                })
                .build());
    }

    /**
     * Mounted on the application's own server, under {@code /management/health}.
     *
     * @param server the application's server
     * @param checker the checker
     * @return the endpoint (closing it removes the context)
     */
    public static HealthEndpoint mountOnExistingServer(HttpServer server, HealthChecker checker) {
        return HealthEndpoint.mount(server, checker,
                HealthEndpointConfig.builder().basePath("/management/health").build());
    }

    /**
     * A watchdog for a slow memory leak and a stuck main loop: readiness goes UNHEALTHY (the default
     * action) after three breaching samples, at most three times an hour.
     *
     * @param checker the checker whose readiness it marks
     * @param mainLoop the main loop's heartbeat
     * @return the started watchdog
     */
    public static Watchdog watchdog(HealthChecker checker, Heartbeat mainLoop) {
        Watchdog watchdog = Watchdog.of("orders", WatchdogConfig.builder()
                .signal("heap", ResourceSignals.heapUsage(), 0.95)
                .signal("main-loop", mainLoop, 1.0)
                .sampleInterval(Duration.ofSeconds(5))
                .breachesToAct(3)
                .action(WatchdogAction.markUnready())
                .maxActions(3)
                .actionWindow(Duration.ofHours(1))
                .build());
        watchdog.install(checker);
        return watchdog.start();
    }

    /**
     * A watchdog that exits for a supervisor (systemd, a process manager) instead.
     *
     * @return the config
     */
    public static WatchdogConfig exitForSupervisor() {
        return WatchdogConfig.builder()
                .signal("heap", ResourceSignals.heapUsage(), 0.97)
                .action(WatchdogAction.exit(70))
                .maxActions(1)
                .build();
    }

    /**
     * Metrics: status gauges per level and per check, check latency, the watchdog's own counters.
     *
     * @param registry the registry
     * @param checker the checker
     * @param watchdog the watchdog
     */
    public static void metrics(MeterRegistry registry, HealthChecker checker, Watchdog watchdog) {
        new HealthMetricsBinder(checker).bindTo(registry);
        new WatchdogMetricsBinder(watchdog).bindTo(registry);
    }

    /**
     * Events: one line per status change (the checker already logs WARN on a change to UNHEALTHY).
     *
     * @param checker the checker
     * @param sink where to send them
     * @return the subscription
     */
    public static Subscription events(HealthChecker checker, java.util.function.Consumer<String> sink) {
        return checker.onEvent(event -> {
            if (event instanceof dev.levee.health.HealthEvent.StatusChanged) {
                var changed = (dev.levee.health.HealthEvent.StatusChanged) event;
                sink.accept(changed.level().tag() + ": " + changed.from() + " -> " + changed.to());
            }
        });
    }
}
