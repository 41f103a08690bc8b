package dev.levee.lab;

import dev.levee.core.ShedException;
import java.util.concurrent.CompletableFuture;

/** A client configuration: how a request becomes attempts on the {@link Transport}. */
interface Client {
    /** The policy name every downstream refusal carries, so it is told apart from local rejections. */
    String DOWNSTREAM = "downstream";

    /**
     * Runs one request; completes with {@code "ok"} or {@code "degraded:<reason>"}, or exceptionally.
     * {@link Request#remainingNanos()} is the request's deadline.
     */
    CompletableFuture<String> call(Request request);

    /** The breaker's state: 0 closed, 1 half-open, 2 open; -1 when there is none. */
    int breakerState();

    /** A non-200 reply as the exception a client sees. */
    static RuntimeException failure(Reply reply) {
        if (reply.status() == 503) {
            return new ShedException(DOWNSTREAM, reply.reason(), "downstream shed the request: " + reply.reason(), 0L, null);
        }
        return new DownstreamErrorException();
    }
}
