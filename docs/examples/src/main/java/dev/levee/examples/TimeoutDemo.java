package dev.levee.examples;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import dev.levee.core.Scheduler;
import dev.levee.core.Ticker;
import dev.levee.timeout.AdaptiveTimeout;
import dev.levee.timeout.AdaptiveTimeoutConfig;
import dev.levee.timeout.DatabaseTimeoutProfile;
import dev.levee.timeout.DeadlinePropagation;
import dev.levee.timeout.Timeout;
import dev.levee.timeout.TimeoutBudget;
import dev.levee.timeout.TimeoutBudgetConfig;
import dev.levee.timeout.TimeoutConfig;
import dev.levee.timeout.TimeoutFit;
import dev.levee.timeout.TimeoutMode;
import dev.levee.timeout.TimeoutProfile;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Executor;

/**
 * The timeout module in front of a simulated flaky dependency, on a manual clock so every run prints
 * the same lines: a cooperative timeout cutting slow calls at 150 ms, deadline propagation through a
 * request header (with hostile values), a budget split over three steps, and an adaptive timeout
 * learning a latency distribution. The other methods are the code examples of {@code docs/timeout.md}.
 */
public final class TimeoutDemo {
    private static final long MS = 1_000_000L;

    private TimeoutDemo() {}

    /**
     * Runs the demo.
     *
     * @param out where to print
     */
    @SuppressWarnings("try") // scopes are opened for their effect on the current deadline
    public static void run(PrintStream out) {
        ManualTicker ticker = new ManualTicker();
        RandomSource random = RandomSource.seeded(6);

        out.println("== Timeout: a flaky dependency, 150 ms timeout, cooperative checks every 10 ms");
        Timeout timeout = Timeout.of("inventory", TimeoutConfig.builder()
                .timeout(Duration.ofMillis(150))
                .mode(TimeoutMode.COOPERATIVE)
                .ticker(ticker)
                .build());
        for (int call = 1; call <= 10; call++) {
            long latency = simulatedLatencyNanos(random);
            long start = ticker.read();
            try {
                String answer = timeout.execute(() -> flakyCall(ticker, latency));
                out.printf("call %2d: %s after %d ms%n", call, answer, (ticker.read() - start) / MS);
            } catch (DeadlineExceededException e) {
                out.printf("call %2d: timed out after %d ms (would have taken %d ms)%n", call,
                        (ticker.read() - start) / MS, latency / MS);
            }
        }

        out.println("== Deadline propagation: grpc-timeout header, local maximum 30 s");
        DeadlinePropagation propagation = DeadlinePropagation.builder().ticker(ticker).build();
        try (ContextScope request = Deadline.afterNanos(800 * MS, ticker).attach()) {
            ticker.advance(120 * MS); // local work before the outgoing call
            HttpRequest outgoing = outgoingRequest(URI.create("http://inventory.local/items/42"), propagation,
                    TimeoutProfile.builder("inventory").build());
            out.println("outgoing " + propagation.headerName() + ": "
                    + outgoing.headers().firstValue(propagation.headerName()).orElse("(none)")
                    + ", request timeout " + outgoing.timeout().map(Duration::toMillis).orElse(-1L) + " ms");
        }
        for (String incoming : new String[] {"250m", "2M", "-5S", "99999999999H", "ten seconds", null}) {
            long honoured = propagation.decodeNanos(incoming);
            out.printf("incoming %-14s -> runs under %,d ms%n", incoming == null ? "(absent)" : "'" + incoming + "'",
                    honoured / MS);
        }
        out.printf("headers accepted %d, clamped %d, ignored %d, absent %d%n", propagation.acceptedCount(),
                propagation.clampedCount(), propagation.ignoredCount(), propagation.missingCount());

        out.println("== Budget: 1 s over lookup (1), load (2), render (1), unused time rolls over");
        TimeoutBudget budget = TimeoutBudget.of("budget", TimeoutBudgetConfig.builder()
                .total(Duration.ofSeconds(1)).weights(1, 2, 1).ticker(ticker).build());
        long[] took = {100 * MS, 300 * MS, 200 * MS};
        String[] steps = {"lookup", "load", "render"};
        for (int i = 0; i < steps.length; i++) {
            long share = budget.nextStepNanos();
            ticker.advance(Math.min(took[i], share));
            out.printf("%-6s gets %3d ms, uses %3d ms%n", steps[i], share / MS, Math.min(took[i], share) / MS);
        }

        out.println("== Adaptive: p99 x 1.5 of the observed latency, within [10 ms, 5 s]");
        AdaptiveTimeout adaptive = AdaptiveTimeout.of("adaptive", AdaptiveTimeoutConfig.builder().build());
        out.printf("before samples: %d ms%n", adaptive.timeoutNanos() / MS);
        for (int i = 0; i < 5_000; i++) {
            adaptive.record(simulatedLatencyNanos(random));
        }
        out.printf("after %d samples: p99 %d ms -> timeout %d ms%n", adaptive.sampleCount(),
                adaptive.quantileNanos() / MS, adaptive.timeoutNanos() / MS);

        out.printf("summary: %d ok, %d timed out, %d failed, %d refused before start; header values ignored: %d%n",
                timeout.successCount(), timeout.timeoutCount(), timeout.failureCount(), timeout.rejectedCount(),
                propagation.ignoredCount());
    }

    /** Mostly 20-80 ms, one call in five 150-400 ms. */
    private static long simulatedLatencyNanos(RandomSource random) {
        return random.nextDouble() < 0.2
                ? (150 + random.nextLong(250)) * MS
                : (20 + random.nextLong(60)) * MS;
    }

    /** Reads a response in 10 ms chunks, checking the deadline before each. */
    private static String flakyCall(ManualTicker ticker, long latencyNanos) {
        long done = 0;
        while (done < latencyNanos) {
            Timeout.checkpoint();
            long chunk = Math.min(10 * MS, latencyNanos - done);
            ticker.advance(chunk);
            done += chunk;
        }
        return "200 OK";
    }

    // ---- code examples of docs/timeout.md -------------------------------------------------------

    /**
     * A THREAD-mode timeout for a blocking client: the caller gets its answer or a
     * {@link DeadlineExceededException} within 2 s, and the worker is interrupted at the deadline.
     *
     * @return the timeout
     */
    public static Timeout blockingClientTimeout() {
        return Timeout.of("catalog", TimeoutConfig.builder()
                .timeout(Duration.ofSeconds(2))            // p99 of 800 ms plus headroom
                .reserve(Duration.ofMillis(50))            // keep 50 ms of the caller's deadline to answer
                .minimumRemaining(Duration.ofMillis(20))   // do not start with less than 20 ms
                .build());
    }

    /**
     * An INTERRUPT-mode timeout: the call runs on the caller's thread and a shared timer interrupts
     * it at the deadline, with no thread hop (Failsafe's synchronous timeout, for Levee). The call must
     * stop when interrupted; the interrupt never leaks past the call.
     *
     * @param ticker the time source (a manual one in tests)
     * @param scheduler drives the timer wheel (a manual one in tests)
     * @return the timeout
     */
    public static Timeout callerThreadTimeout(Ticker ticker, Scheduler scheduler) {
        return Timeout.of("inventory", TimeoutConfig.builder()
                .timeout(Duration.ofMillis(800))
                .mode(TimeoutMode.INTERRUPT)
                .ticker(ticker)
                .scheduler(scheduler)
                .build());
    }

    /**
     * Client side: an {@code HttpClient} request carrying what remains of the current deadline, with
     * the request timeout cut to it.
     *
     * @param uri the target
     * @param propagation the header codec
     * @param profile the dependency's timeouts
     * @return the request
     */
    public static HttpRequest outgoingRequest(URI uri, DeadlinePropagation propagation, TimeoutProfile profile) {
        HttpRequest.Builder builder = profile.within(Deadline.currentOrNull())
                .applyTo(HttpRequest.newBuilder(uri))
                .GET();
        String header = propagation.encodeCurrent();
        if (header != null) {
            builder.header(propagation.headerName(), header);
        }
        return builder.build();
    }

    /**
     * The client those requests go through: its connect timeout comes from the profile.
     *
     * @param profile the dependency's timeouts
     * @return the client
     */
    public static HttpClient httpClient(TimeoutProfile profile) {
        return profile.applyTo(HttpClient.newBuilder()).build();
    }

    /**
     * Server side: run a request's handler under the deadline its caller sent, never longer than the
     * local maximum; a hostile header value is ignored and counted.
     *
     * @param headerValue the incoming header's value, or null
     * @param propagation the header codec
     * @param handler the request handler
     */
    @SuppressWarnings("try")
    public static void handleIncoming(String headerValue, DeadlinePropagation propagation, Runnable handler) {
        try (ContextScope scope = propagation.attachIncoming(headerValue)) {
            handler.run();
        }
    }

    /**
     * JDBC: the profile's read timeout as the connection's network timeout, its total (cut to the
     * current deadline) as the statement's query timeout.
     *
     * @param connection an open connection
     * @param profile the database's timeouts
     * @param executor the executor the driver uses to abort a timed-out connection
     * @param id the row to read
     * @return the name column
     * @throws SQLException from the driver
     */
    public static String jdbcQuery(Connection connection, TimeoutProfile profile, Executor executor, long id)
            throws SQLException {
        TimeoutProfile now = profile.within(Deadline.currentOrNull());
        connection.setNetworkTimeout(executor, now.readMillis());
        try (PreparedStatement statement = connection.prepareStatement("select name from items where id = ?")) {
            statement.setQueryTimeout(now.totalSecondsRoundedUp());
            statement.setLong(1, id);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? rows.getString(1) : null;
            }
        }
    }

    /**
     * A request made of three steps sharing one budget of 1 s.
     *
     * @param steps the steps, run in order, each under its share as the current deadline
     */
    @SuppressWarnings("try")
    public static void budgetedRequest(Runnable... steps) {
        TimeoutBudget budget = TimeoutBudget.of("request", TimeoutBudgetConfig.equalSteps(Duration.ofSeconds(1),
                steps.length, dev.levee.core.Ticker.system()));
        for (Runnable step : steps) {
            try (ContextScope scope = budget.attachNextStep()) {
                step.run();
            }
        }
    }

    /**
     * A timeout that follows the dependency's p99.
     *
     * @return the timeout
     */
    public static Timeout adaptiveTimeout() {
        AdaptiveTimeout adaptive = AdaptiveTimeout.of("search", AdaptiveTimeoutConfig.builder()
                .percentile(0.99).factor(1.5)
                .minTimeout(Duration.ofMillis(50)).maxTimeout(Duration.ofSeconds(3))
                .build());
        return Timeout.of("search", TimeoutConfig.builder().adaptive(adaptive).build());
    }

    /**
     * The edge of a service: accept a request only with at least 100 ms of its caller's deadline left
     * (seed 002), and answer 504 at once otherwise.
     *
     * @param headerValue the incoming deadline header, or null
     * @param propagation the header codec (its {@code minimumRemaining} is the rule)
     * @param handler the request handler
     * @return the HTTP status
     */
    @SuppressWarnings("try")
    public static int acceptIncoming(String headerValue, DeadlinePropagation propagation, Runnable handler) {
        try (ContextScope scope = propagation.acceptIncoming(headerValue)) {
            handler.run();
            return 200;
        } catch (DeadlineExceededException tooLate) {
            return 504;
        }
    }

    /**
     * A database transaction under the seed's timeouts (query 5 s, transaction 30 s), cut to the
     * current deadline.
     *
     * @param connection an open connection
     * @param executor the executor the driver uses to abort a timed-out connection
     * @param id the row to update
     * @return rows updated
     * @throws SQLException from the driver
     */
    public static int databaseTransaction(Connection connection, Executor executor, long id) throws SQLException {
        DatabaseTimeoutProfile now = DatabaseTimeoutProfile.ofDefaults("orders-db").within(Deadline.currentOrNull());
        connection.setNetworkTimeout(executor, now.queryMillis());
        Timeout transaction = Timeout.of("orders-tx", now.transactionTimeoutConfig());
        return transaction.execute(() -> {
            try (PreparedStatement statement = connection.prepareStatement("update items set seen = 1 where id = ?")) {
                statement.setQueryTimeout(now.querySecondsRoundedUp());
                statement.setLong(1, id);
                int updated = statement.executeUpdate();
                connection.commit();
                return updated;
            }
        });
    }

    /**
     * At start-up: do 3 attempts of 2 s with up to 700 ms of backoff fit in the 5 s the caller gives?
     * (They do not: 6.7 s; a WARN is logged.)
     *
     * @return whether they fit
     */
    public static boolean retriesFitTheCallersTimeout() {
        return TimeoutFit.warnIfCannotFit("inventory", Duration.ofSeconds(2), 3, Duration.ofMillis(700),
                Duration.ofSeconds(5));
    }
}
