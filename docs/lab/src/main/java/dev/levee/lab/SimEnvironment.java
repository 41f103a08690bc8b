package dev.levee.lab;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.Scheduler;
import dev.levee.core.Ticker;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Virtual time: a {@link ManualTicker} and {@link ManualScheduler}, one thread, every callback run in
 * timestamp order, a fixed one-way network delay. The downstream, the clients and every Levee policy are
 * the same objects as in the real run; only the clock, the timers and the wire are simulated. A run is
 * deterministic for a seed and takes well under a second of CPU.
 */
final class SimEnvironment implements Environment {
    private final ManualTicker ticker = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);
    private final long networkNanos;

    SimEnvironment(LabSettings settings) {
        this.networkNanos = settings.networkNanos();
    }

    @Override
    public String kind() {
        return "simulated";
    }

    @Override
    public Ticker ticker() {
        return ticker;
    }

    @Override
    public Scheduler scheduler() {
        return scheduler;
    }

    @Override
    public Resources resources(String lane) {
        Executor direct = Runnable::run;
        return new Resources(scheduler, direct, direct);
    }

    @Override
    public Transport connect(Downstream downstream, Resources resources) {
        return request -> {
            CompletableFuture<Reply> reply = new CompletableFuture<>();
            scheduler.schedule(() -> downstream.handle(request,
                    r -> scheduler.schedule(() -> reply.complete(r), networkNanos)), networkNanos);
            return reply;
        };
    }

    @Override
    public void await(Lab run) {
        while (!run.finished()) {
            scheduler.advance(LabSettings.MS * 100);
        }
    }

    @Override
    public void close() {
        // nothing to release
    }
}
