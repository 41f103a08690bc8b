package dev.levee.examples;

import dev.levee.bulkhead.Bulkhead;
import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.Subscription;
import dev.levee.health.CheckResult;
import dev.levee.health.DependencyCheck;
import dev.levee.health.HealthCheckConfig;
import dev.levee.health.HealthChecker;
import dev.levee.health.HealthCheckerConfig;
import dev.levee.health.HealthEndpoint;
import dev.levee.health.HealthEndpointConfig;
import dev.levee.health.HealthEvent;
import dev.levee.health.HealthLevel;
import dev.levee.health.HealthReport;
import dev.levee.health.Watchdog;
import dev.levee.health.WatchdogConfig;
import dev.levee.health.WatchdogEvent;
import java.io.IOException;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Health checks on manual time: readiness following a real circuit breaker and bulkhead, a hung check
 * cut at its level's timeout, a probe storm that runs an expensive check once, a watchdog acting on
 * a scripted memory leak under its restart-loop guard, and the HTTP endpoint on a loopback port.
 * Everything but the pool and HTTP threads is deterministic, so every run prints the same lines.
 */
public final class HealthDemo {
    private HealthDemo() {}

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
        ManualTicker ticker = new ManualTicker();
        ManualScheduler scheduler = new ManualScheduler(ticker);
        try (HealthChecker checker = HealthChecker.of("orders",
                HealthCheckerConfig.builder().ticker(ticker).scheduler(scheduler).build())) {
            CircuitBreaker breaker = readinessFollowsTheBreaker(out, ticker, checker);
            hungCheck(out, scheduler, checker);
            probeStorm(out, ticker, checker);
            endpoint(out, checker, breaker);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.println("interrupted");
        } catch (IOException | ExecutionException | TimeoutException e) {
            out.println("demo failed: " + e);
        }
        watchdog(out);
    }

    private static CircuitBreaker readinessFollowsTheBreaker(PrintStream out, ManualTicker ticker,
            HealthChecker checker) {
        out.println("-- readiness read from a real circuit breaker and bulkhead (no call to the dependency)");
        CircuitBreaker breaker = CircuitBreaker.of("inventory", CircuitBreakerConfig.builder().countWindow(4)
                .minimumNumberOfCalls(4).failureRateThreshold(0.5).waitDurationInOpen(Duration.ofSeconds(10))
                .permittedCallsInHalfOpen(1).ticker(ticker).build());
        Bulkhead bulkhead = Bulkhead.of("inventory", 10);
        checker.register(HealthLevel.READINESS, "inventory", DependencyCheck.builder("inventory")
                .circuitBreaker(breaker::state)
                .saturation(() -> bulkhead.activeCount() / (double) bulkhead.maxConcurrentCalls())
                .build());
        print(out, "all calls succeed", checker.readiness());
        for (int i = 0; i < 4; i++) {
            breaker.tryAcquire(ticker.read());
            breaker.onFailure(1_000_000L, new IOException("503 from inventory"));
        }
        print(out, "4 of 4 calls failed", checker.readiness());
        ticker.advance(Duration.ofSeconds(10));
        breaker.tryAcquire(ticker.read());
        print(out, "10 s later, one probe", checker.readiness());
        breaker.onSuccess(1_000_000L);
        print(out, "the probe succeeded", checker.readiness());
        for (int i = 0; i < 9; i++) {
            bulkhead.tryAcquire(ticker.read());
        }
        print(out, "9 of 10 bulkhead slots busy", checker.readiness());
        for (int i = 0; i < 9; i++) {
            bulkhead.onSuccess(1L);
        }
        return breaker;
    }

    private static void print(PrintStream out, String when, HealthReport report) {
        CheckResult c = report.checks().get(0);
        out.printf("%-28s readiness %-9s HTTP %d%s%n", when + ":", report.status().tag(),
                report.status().isServing() ? 200 : 503, c.message() == null ? "" : "  (" + c.message() + ")");
    }

    private static void hungCheck(PrintStream out, ManualScheduler scheduler, HealthChecker checker)
            throws InterruptedException, ExecutionException, TimeoutException {
        out.println("-- a hung check is cut at the readiness timeout (5 s); the others are not delayed");
        CountDownLatch started = new CountDownLatch(1);
        var hung = checker.register(HealthLevel.READINESS, "ledger", () -> {
            started.countDown();
            new CountDownLatch(1).await(); // a dependency that never answers
            return CheckResult.healthy();
        });
        CountDownLatch inventoryDone = new CountDownLatch(1);
        CompletableFuture<HealthReport> report;
        Subscription sub = checker.onEvent(e -> {
            if (e instanceof HealthEvent.CheckCompleted && ((HealthEvent.CheckCompleted) e).check().equals("inventory")) {
                inventoryDone.countDown();
            }
        });
        try {
            report = checker.checkAsync(HealthLevel.READINESS);
            started.await(30, TimeUnit.SECONDS);
            inventoryDone.await(30, TimeUnit.SECONDS); // manual time moves only once the fast check is done
        } finally {
            sub.close();
        }
        scheduler.advance(Duration.ofSeconds(5));
        for (CheckResult c : report.get(30, TimeUnit.SECONDS).checks()) {
            out.printf("%-10s %-9s after %5d ms  %s%n", c.name(), c.status().tag(), c.latency().toMillis(),
                    c.message() == null ? "" : c.message());
        }
        hung.close();
    }

    @SuppressWarnings("try") // the subscription is held only for its close()
    private static void probeStorm(PrintStream out, ManualTicker ticker, HealthChecker checker)
            throws InterruptedException, ExecutionException, TimeoutException {
        out.println("-- a probe storm: 1,000 readiness requests, an expensive check cached for 10 s");
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch slow = new CountDownLatch(1);
        var expensive = checker.register(HealthLevel.READINESS, "search-index", () -> {
            runs.incrementAndGet();
            slow.await(30, TimeUnit.SECONDS);
            return CheckResult.healthy();
        }, HealthCheckConfig.builder().cacheTtl(Duration.ofSeconds(10)).build());
        List<CompletableFuture<HealthReport>> storm = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            storm.add(checker.checkAsync(HealthLevel.READINESS));
        }
        slow.countDown();
        for (CompletableFuture<HealthReport> r : storm) {
            r.get(30, TimeUnit.SECONDS);
        }
        out.println("1000 requests while it ran:   " + runs.get() + " run");
        for (int i = 0; i < 1000; i++) {
            checker.readiness();
        }
        out.println("1000 more within the TTL:     " + runs.get() + " run");
        CountDownLatch refreshed = new CountDownLatch(1);
        Subscription sub = checker.onEvent(e -> {
            if (e instanceof HealthEvent.CheckCompleted && ((HealthEvent.CheckCompleted) e).check().equals("search-index")) {
                refreshed.countDown();
            }
        });
        try {
            ticker.advance(Duration.ofSeconds(10));
            checker.readiness(); // serves the stale result and starts the one refresh
            refreshed.await(30, TimeUnit.SECONDS);
        } finally {
            sub.close();
        }
        for (int i = 0; i < 999; i++) {
            checker.readiness();
        }
        out.println("1000 more after the TTL:      " + runs.get() + " runs (one background refresh)");
        expensive.close();
    }

    private static void endpoint(PrintStream out, HealthChecker checker, CircuitBreaker breaker)
            throws IOException, InterruptedException {
        out.println("-- the HTTP endpoint on a loopback port (details hidden by default)");
        try (HealthEndpoint endpoint = HealthEndpoint.start(checker, HealthEndpointConfig.builder().port(0).build())) {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            for (HealthLevel level : List.of(HealthLevel.LIVENESS, HealthLevel.READINESS)) {
                get(out, client, endpoint, level);
            }
            breaker.transitionToForcedOpen();
            out.println("(inventory breaker forced open)");
            get(out, client, endpoint, HealthLevel.READINESS);
            breaker.transitionToClosed();
        }
    }

    private static void get(PrintStream out, HttpClient client, HealthEndpoint endpoint, HealthLevel level)
            throws IOException, InterruptedException {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(endpoint.uri(level)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        out.println("GET " + endpoint.uri(level).getPath() + " -> " + r.statusCode() + " " + r.body());
    }

    private static void watchdog(PrintStream out) {
        out.println("-- a watchdog on a scripted memory leak: act after 3 breaching samples, at most 2 actions/hour");
        ManualTicker ticker = new ManualTicker();
        ManualScheduler scheduler = new ManualScheduler(ticker);
        double[] heap = {0.70, 0.80, 0.93, 0.95, 0.97, 0.98, 0.99, 0.99, 0.99, 0.99, 0.99, 0.99, 0.99, 0.60, 0.60, 0.60};
        int[] sample = {0};
        List<String> actions = new ArrayList<>();
        Watchdog watchdog = Watchdog.of("orders", WatchdogConfig.builder()
                .signal("heap", () -> heap[Math.min(sample[0], heap.length - 1)], 0.92)
                .sampleInterval(Duration.ofSeconds(5)).breachesToAct(3).samplesToRecover(3)
                .maxActions(2).actionWindow(Duration.ofHours(1)).initialBackoff(Duration.ZERO)
                .action(breach -> actions.add("restart requested"))
                .ticker(ticker).scheduler(scheduler).build());
        watchdog.onEvent(e -> {
            if (e instanceof WatchdogEvent.ActionTaken) {
                actions.add("action " + ((WatchdogEvent.ActionTaken) e).actionsInWindow() + " of 2");
            } else if (e instanceof WatchdogEvent.ActionSuppressed) {
                actions.add("suppressed by the loop guard");
            }
        });
        watchdog.start();
        for (int i = 0; i < heap.length; i++) {
            actions.clear();
            scheduler.advance(Duration.ofSeconds(5));
            out.printf("t=%3ds heap %.2f %s%n", (i + 1) * 5, heap[i], String.join(", ", actions));
            sample[0]++;
        }
        out.println("watchdog: " + watchdog.metrics());
        watchdog.close();
    }
}
