package dev.levee.examples;

import com.sun.net.httpserver.HttpServer;
import dev.levee.bulkhead.ShuffleSharding;
import dev.levee.retry.Hedge;
import dev.levee.retry.HedgeConfig;
import dev.levee.retry.ReplicaSet;
import dev.levee.retry.ReplicaSetConfig;
import dev.levee.retry.ReplicaSetMetricsBinder;
import dev.levee.retry.Retry;
import dev.levee.retry.RetryConfig;
import dev.levee.retry.SelectionRule;
import io.micrometer.core.instrument.MeterRegistry;
import dev.levee.core.Ticker;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The code examples of {@code docs/replicas.md}, compiled by the build and exercised by
 * {@code ReplicasExamplesTest}. Each method is one snippet of the page.
 */
public final class ReplicasExamples {
    private ReplicasExamples() {}

    /** Three loopback HTTP servers answering {@code replica-<i>}; one of them answers only after a delay. */
    public static final class LoopbackReplicas implements AutoCloseable {
        private final List<HttpServer> servers = new ArrayList<>();
        private final List<URI> uris = new ArrayList<>();
        private final ScheduledExecutorService delays = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "slow-replica");
            t.setDaemon(true);
            return t;
        });

        /**
         * Starts the servers on free loopback ports.
         *
         * @param count how many replicas
         * @param slow the index of the slow one
         * @param slowBy how long the slow one takes to answer
         * @throws IOException if a server cannot start
         */
        public LoopbackReplicas(int count, int slow, Duration slowBy) throws IOException {
            for (int i = 0; i < count; i++) {
                String body = "replica-" + i;
                boolean isSlow = i == slow;
                HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
                server.createContext("/item", exchange -> {
                    Runnable answer = () -> {
                        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                        try (OutputStream out = exchange.getResponseBody()) {
                            exchange.sendResponseHeaders(200, bytes.length);
                            out.write(bytes);
                        } catch (IOException clientGone) {
                            // the hedge cancelled this call: nobody is listening any more
                        } finally {
                            exchange.close();
                        }
                    };
                    if (isSlow) {
                        delays.schedule(answer, slowBy.toMillis(), TimeUnit.MILLISECONDS); // no thread is blocked
                    } else {
                        answer.run();
                    }
                });
                server.start();
                servers.add(server);
                uris.add(URI.create("http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort()));
            }
        }

        /** @return the replicas' base addresses */
        public List<URI> uris() {
            return uris;
        }

        @Override
        public void close() {
            servers.forEach(s -> s.stop(0));
            delays.shutdownNow();
        }
    }

    /**
     * One GET: the body of {@code replica/item}.
     *
     * @param client the HTTP client
     * @param replica the replica's base address
     * @return the body
     * @throws IOException on an I/O error or a status other than 200; an {@link InterruptedIOException}
     *     (flag restored) if interrupted, which is how a hedge cancels the attempt that lost
     */
    public static String get(HttpClient client, URI replica) throws IOException {
        HttpResponse<String> response;
        try {
            response = client.send(HttpRequest.newBuilder(replica.resolve("/item")).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted: " + replica);
        }
        if (response.statusCode() != 200) {
            throw new IOException(replica + " answered " + response.statusCode());
        }
        return response.body();
    }

    /**
     * The hedge to another replica: the first attempt goes where the set's rule says; if it has not
     * answered after 50 ms, a second attempt goes to a replica this call has not tried, and the first
     * answer wins (the other is cancelled).
     *
     * @param replicas the set
     * @param client the HTTP client
     * @return the first answer
     * @throws IOException if every attempt failed
     */
    public static String hedgeToAnotherReplica(ReplicaSet<URI> replicas, HttpClient client) throws IOException {
        Hedge hedge = Hedge.of("catalog", HedgeConfig.builder().delay(Duration.ofMillis(50)).build());
        return hedge.execute(replicas, replica -> get(client, replica));
    }

    /**
     * A replica set for the catalog: P2C over Peak-EWMA, Envoy-style ejection, panic below 50%.
     *
     * @param uris the replicas
     * @return the set
     */
    public static ReplicaSet<URI> catalogReplicas(List<URI> uris) {
        return ReplicaSet.ofDefaults("catalog", uris);
    }

    /**
     * Round robin instead (the baseline), e.g. to make a demo's first attempt predictable.
     *
     * @param uris the replicas
     * @return the set
     */
    public static ReplicaSet<URI> roundRobin(List<URI> uris) {
        return ReplicaSet.of("catalog", ReplicaSetConfig.builder().selectionRule(SelectionRule.ROUND_ROBIN).build(), uris);
    }

    /**
     * A retry that goes to another replica after a failure (Envoy's previous-hosts rule).
     *
     * @param replicas the set
     * @param client the HTTP client
     * @return the answer
     * @throws IOException if every attempt failed
     */
    public static String retryOnAnotherReplica(ReplicaSet<URI> replicas, HttpClient client) throws IOException {
        Retry retry = Retry.of("catalog", RetryConfig.builder().maxAttempts(3).build());
        return retry.execute(replicas, replica -> get(client, replica));
    }

    /**
     * A tenant's calls stay within its shuffle shard of the replicas; ejection, health and panic apply
     * within the shard.
     *
     * @param replicas the set (here of 8 or more replicas)
     * @param sharding e.g. {@code ShuffleSharding.of(replicas.size(), 2)}
     * @param tenant the tenant
     * @param client the HTTP client
     * @return the answer
     * @throws IOException on failure
     */
    public static String withinATenantsShard(ReplicaSet<URI> replicas, ShuffleSharding sharding, String tenant,
                                             HttpClient client) throws IOException {
        int[] shard = sharding.shard(tenant);
        Ticker ticker = replicas.config().ticker(); // the set's own clock, so tests can run it on manual time
        long start = ticker.read();
        int replica = replicas.pick(shard);
        try {
            String body = get(client, replicas.replica(replica));
            replicas.onSuccess(replica, ticker.read() - start);
            return body;
        } catch (InterruptedIOException interrupted) {
            replicas.onCancelled(replica, ticker.read() - start);
            throw interrupted;
        } catch (IOException failure) {
            replicas.onFailure(replica, ticker.read() - start, failure);
            throw failure;
        }
    }

    /**
     * Per-replica meters ({@code levee.replicas.calls{replica, outcome}}, outstanding, ejections, panic).
     *
     * @param replicas the set
     * @param registry the registry
     */
    public static void bindMetrics(ReplicaSet<URI> replicas, MeterRegistry registry) {
        new ReplicaSetMetricsBinder(replicas).bindTo(registry);
    }
}
