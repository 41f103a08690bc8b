package dev.levee.examples;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import dev.levee.idempotency.FingerprintPart;
import dev.levee.idempotency.IdempotencyGuard;
import dev.levee.idempotency.IdempotencyGuardConfig;
import dev.levee.idempotency.IdempotencyGuardMetricsBinder;
import dev.levee.idempotency.IdempotencyHttpHandler;
import dev.levee.idempotency.IdempotencyRequest;
import dev.levee.idempotency.IdempotencyResult;
import dev.levee.idempotency.InMemoryIdempotencyStore;
import dev.levee.idempotency.OutagePolicy;
import dev.levee.idempotency.StoredResponse;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** The server-side code examples of {@code docs/idempotency.md}, compiled. */
public final class IdempotencyExamples {
    private IdempotencyExamples() {}

    /** A charge service: counts the charges it really made. */
    public static final class Charges {
        private final AtomicInteger made = new AtomicInteger();

        /**
         * Makes a charge.
         *
         * @param body the request body
         * @return the charge's JSON
         */
        public byte[] charge(byte[] body) {
            int id = made.incrementAndGet();
            return ("{\"id\":\"ch_" + id + "\",\"request\":" + new String(body, StandardCharsets.UTF_8) + "}")
                    .getBytes(StandardCharsets.UTF_8);
        }

        /**
         * How many charges were made.
         *
         * @return the count
         */
        public int made() {
            return made.get();
        }
    }

    /**
     * The guard without HTTP: {@code handle(scope, key, request, handler)}.
     *
     * @param guard the guard
     * @param charges the charge service
     * @param tenantId the scope
     * @param idempotencyKey the client's key
     * @param body the request body
     * @return the result; send its response
     * @throws Exception what the handler throws
     */
    public static IdempotencyResult chargeOnce(IdempotencyGuard guard, Charges charges, String tenantId, String idempotencyKey,
            byte[] body) throws Exception {
        return guard.handle(tenantId, idempotencyKey,
                new IdempotencyRequest("POST", "/charges", body),
                () -> StoredResponse.of(201, Map.of("content-type", List.of("application/json")), charges.charge(body)));
    }

    /**
     * A guard with every setting spelled out (the defaults but for the store and the wait).
     *
     * @return the guard
     */
    public static IdempotencyGuard configured() {
        return IdempotencyGuard.of("charges", IdempotencyGuardConfig.builder()
                .timeToLive(Duration.ofHours(24))                 // Stripe's retention
                .lease(Duration.ofSeconds(60))                    // without a request deadline
                .maxWait(Duration.ofSeconds(5))                   // wait for a running duplicate instead of 409
                .fingerprintParts(EnumSet.allOf(FingerprintPart.class))
                .storedHeaders(java.util.Set.of("content-type", "location"))
                .storeRule(r -> r.status() < 500 && r.status() != 408 && r.status() != 409 && r.status() != 429)
                .outagePolicy(OutagePolicy.FAIL_CLOSED)
                .store(InMemoryIdempotencyStore.builder().maxEntries(1_000_000).build())
                .build());
    }

    /**
     * A guard for tests and demos: manual time, seeded owner tokens.
     *
     * @param ticker the manual ticker
     * @return the guard
     */
    public static IdempotencyGuard deterministic(ManualTicker ticker) {
        return IdempotencyGuard.of("charges", IdempotencyGuardConfig.builder()
                .store(InMemoryIdempotencyStore.builder().ticker(ticker).build())
                .ticker(ticker).sleeper(ticker).random(RandomSource.seeded(23))
                .build());
    }

    /**
     * The guard on the JDK {@code HttpServer}: {@code POST /charges} keyed per tenant.
     *
     * @param guard the guard
     * @param charges the charge service
     * @return a started server on a loopback port
     * @throws IOException if the server cannot bind
     */
    public static HttpServer httpServer(IdempotencyGuard guard, Charges charges) throws IOException {
        HttpHandler chargeHandler = exchange -> {
            byte[] out = charges.charge(exchange.getRequestBody().readAllBytes());
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(201, out.length);
            try (OutputStream os = exchange.getResponseBody()) {
                os.write(out);
            }
        };
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/charges", IdempotencyHttpHandler.builder(guard, chargeHandler)
                .scope(exchange -> exchange.getRequestHeaders().getFirst("X-Tenant"))
                .keyRequired(exchange -> true)
                .build());
        server.start();
        return server;
    }

    /**
     * The meters.
     *
     * @param guard the guard
     * @param registry the registry
     */
    public static void metrics(IdempotencyGuard guard, MeterRegistry registry) {
        new IdempotencyGuardMetricsBinder(guard).bindTo(registry);
    }
}
