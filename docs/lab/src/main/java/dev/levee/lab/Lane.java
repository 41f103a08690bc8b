package dev.levee.lab;

import dev.levee.core.Ticker;
import java.util.concurrent.Executor;

/**
 * One configuration in a run: its own downstream (own port), its own client, its own recorder. Every
 * lane receives the same requests at the same instants.
 */
final class Lane {
    private final String name;
    private final Downstream downstream;
    private final Client client;
    private final Recorder recorder;
    private final Ticker ticker;
    private final Executor executor;
    private final long deadlineNanos;

    Lane(String name, Downstream downstream, Client client, Recorder recorder, Ticker ticker, Executor executor,
            long deadlineNanos) {
        this.name = name;
        this.downstream = downstream;
        this.client = client;
        this.recorder = recorder;
        this.ticker = ticker;
        this.executor = executor;
        this.deadlineNanos = deadlineNanos;
    }

    String name() {
        return name;
    }

    Downstream downstream() {
        return downstream;
    }

    Recorder recorder() {
        return recorder;
    }

    void arrive(Request request) {
        recorder.offered();
        executor.execute(() -> {
            long start = ticker.read();
            client.call(request).whenComplete((value, error) -> {
                long latency = ticker.read() - start;
                if (error != null) {
                    recorder.outcome("failed", Outcomes.cause(error), latency);
                } else if (value.startsWith("degraded")) {
                    recorder.outcome("degraded", value.substring(value.indexOf(':') + 1), latency);
                } else if (latency <= deadlineNanos) {
                    recorder.outcome("good", "", latency);
                } else {
                    recorder.outcome("late", "late", latency);
                }
            });
        });
    }

    void sample(int second) {
        recorder.sample(second, client.breakerState(), downstream.limit(), downstream.inflight(), downstream.shedCounts());
    }
}
