package dev.levee.lab;

import java.util.concurrent.CompletableFuture;

/** Sends one attempt to the downstream: over loopback HTTP, or through the simulated network. */
interface Transport {
    /**
     * Sends {@code request}; the future completes with the downstream's reply, or exceptionally when the
     * connection fails. It never times out by itself: timing out is the clients' business.
     */
    CompletableFuture<Reply> send(Request request);
}
