package dev.levee.lab;

import dev.levee.core.Scheduler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The common setup without protection: a plain per-attempt timeout (the request's deadline, 1 s) and
 * naive retries — up to 3 more attempts on any failure, 10 ms apart, no budget, no breaker. Each retry
 * gets a fresh timeout, so a request can go on for 4 s after its caller gave up at 1 s.
 */
final class NaiveClient implements Client {
    static final int MAX_RETRIES = 3;
    private static final long RETRY_DELAY_NANOS = 10 * LabSettings.MS;
    private final Transport transport;
    private final Scheduler scheduler;

    NaiveClient(Transport transport, Scheduler scheduler) {
        this.transport = transport;
        this.scheduler = scheduler;
    }

    @Override
    public CompletableFuture<String> call(Request request) {
        CompletableFuture<String> result = new CompletableFuture<>();
        attempt(request, 1, result);
        return result;
    }

    private void attempt(Request request, int n, CompletableFuture<String> result) {
        long timeout = request.remainingNanos();
        AtomicBoolean done = new AtomicBoolean();
        CompletableFuture<Reply> sent = transport.send(request.attempt(n, timeout));
        Scheduler.Cancellable timer = scheduler.schedule(() -> {
            if (done.compareAndSet(false, true)) {
                failed(request, n, result, new TimeoutException("no answer within " + timeout / LabSettings.MS + " ms"));
            }
        }, timeout);
        sent.whenComplete((reply, error) -> {
            if (!done.compareAndSet(false, true)) {
                return;
            }
            timer.cancel();
            if (error != null) {
                failed(request, n, result, error);
            } else if (reply.status() == 200) {
                result.complete("ok");
            } else {
                failed(request, n, result, Client.failure(reply));
            }
        });
    }

    private void failed(Request request, int n, CompletableFuture<String> result, Throwable error) {
        if (n > MAX_RETRIES) {
            result.completeExceptionally(error);
            return;
        }
        scheduler.schedule(() -> attempt(request, n + 1, result), RETRY_DELAY_NANOS);
    }

    @Override
    public int breakerState() {
        return -1;
    }
}
