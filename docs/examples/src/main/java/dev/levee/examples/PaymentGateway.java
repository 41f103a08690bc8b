package dev.levee.examples;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.levee.idempotency.IdempotencyGuard;
import dev.levee.idempotency.IdempotencyGuardConfig;
import dev.levee.idempotency.IdempotencyHttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;

/**
 * The server of seed 000's payment gateway ("never charge a customer twice for the same request"): a
 * JDK {@code HttpServer} whose {@code POST /payments} runs behind an {@link IdempotencyGuard}, scoped
 * per merchant ({@code X-Merchant}). The first request with a key charges the card and its answer is
 * stored; a repeat of it — the client's retry after a lost response, a double click — gets the stored
 * answer, marked {@code Idempotent-Replayed: true}, and charges nothing.
 */
public final class PaymentGateway implements AutoCloseable {
    /** Charges a card; the processor the gateway protects. */
    @FunctionalInterface
    public interface CardProcessor {
        /**
         * Charges a card.
         *
         * @param body the payment request, as sent
         * @return the processor's charge id
         * @throws IOException if the processor is unavailable (the gateway answers 503; nothing is stored)
         */
        String charge(String body) throws IOException;
    }

    private final HttpServer server;
    private final ExecutorService workers = Executors.newFixedThreadPool(4);
    private final IdempotencyGuard guard;

    /**
     * Starts the gateway on a free loopback port.
     *
     * @param processor the card processor
     * @param network what stands between the gateway and its clients: identity in production; a test
     *                passes a handler that loses responses
     * @throws IOException if the server cannot start
     */
    public PaymentGateway(CardProcessor processor, UnaryOperator<HttpHandler> network) throws IOException {
        this.guard = IdempotencyGuard.of("payments", IdempotencyGuardConfig.defaults()); // 24 h records, 60 s lease
        HttpHandler payments = IdempotencyHttpHandler.builder(guard, exchange -> charge(processor, exchange))
                .scope(exchange -> exchange.getRequestHeaders().getFirst("X-Merchant")) // one key space per merchant
                .build();                                                                // POST and PATCH need a key
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/payments", network.apply(payments));
        server.setExecutor(workers);
        server.start();
    }

    private static void charge(CardProcessor processor, HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        int status;
        String answer;
        try {
            answer = "{\"charge\":\"" + processor.charge(body) + "\"}";
            status = 201;
        } catch (IOException processorDown) {
            answer = "{\"error\":\"processor unavailable\"}";
            status = 503; // transient: the guard releases the key, so the client's retry charges
        }
        byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /**
     * The gateway's address.
     *
     * @return {@code http://127.0.0.1:<port>/}
     */
    public URI base() {
        return URI.create("http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort() + "/");
    }

    /**
     * The guard, for its metrics.
     *
     * @return the guard
     */
    public IdempotencyGuard guard() {
        return guard;
    }

    @Override
    public void close() {
        server.stop(0);
        workers.shutdownNow();
    }
}
