package dev.levee.lab;

import dev.levee.core.Scheduler;
import dev.levee.core.Ticker;
import dev.levee.core.internal.VirtualThreads;
import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Real time on loopback: each downstream is an {@link HttpDownstream} on its own free port of 127.0.0.1,
 * each client an {@link HttpClient}. Clients run on virtual threads on JDK 21+ (through core's
 * {@link VirtualThreads}) and on a bounded pool of 32 platform threads on JDK 17; timers on one
 * scheduler thread. Nothing leaves the machine, and everything stops when the run is over.
 */
final class RealEnvironment implements Environment {
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(daemon("lab-timer"));
    private final Scheduler scheduler = Scheduler.of(timer);
    private final ExecutorService clients = VirtualThreads.supported()
            ? VirtualThreads.threadPerTaskExecutor("lab-client-")
            : Executors.newFixedThreadPool(32, daemon("lab-client"));
    private final ExecutorService servers = Executors.newFixedThreadPool(4, daemon("lab-server"));
    private final List<HttpDownstream> downstreams = new ArrayList<>();

    @Override
    public String kind() {
        return "real";
    }

    /** Which threads the clients run on, for the console. */
    static String clientThreads() {
        return VirtualThreads.supported() ? "virtual threads" : "32 platform threads (JDK 17)";
    }

    @Override
    public Ticker ticker() {
        return Ticker.system();
    }

    @Override
    public Scheduler scheduler() {
        return scheduler;
    }

    @Override
    public Executor executor() {
        return clients;
    }

    @Override
    public Transport connect(Downstream downstream) throws IOException {
        HttpDownstream server = new HttpDownstream(downstream, servers);
        downstreams.add(server);
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2))
                .executor(clients)
                .build();
        return new HttpTransport(client, server.uri(), clients);
    }

    @Override
    public void await(Lab run) throws InterruptedException {
        if (!run.awaitFinished(run.totalSeconds() + 30L, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the lab did not finish in time");
        }
    }

    @Override
    public void close() {
        downstreams.forEach(HttpDownstream::close);
        timer.shutdownNow();
        clients.shutdownNow();
        servers.shutdownNow();
    }

    private static ThreadFactory daemon(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
