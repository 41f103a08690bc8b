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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Real time on loopback: each downstream is an {@link HttpDownstream} on its own free port of 127.0.0.1,
 * each client an {@link HttpClient}. Each configuration has its own timer thread, client threads and
 * server threads, as if on its own machine (only the CPU is shared): clients run on virtual threads on
 * JDK 21+ (through core's {@link VirtualThreads}) and on a bounded pool of 16 platform threads on JDK 17.
 * Nothing leaves the machine, and everything stops when the run is over.
 */
final class RealEnvironment implements Environment {
    private static final int CLIENT_THREADS = 16;
    /** The load generator's timer (arrivals and the per-second tick). */
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(daemon("lab-load"));
    private final Scheduler scheduler = Scheduler.of(timer);
    private final List<ExecutorService> pools = new ArrayList<>(List.of(timer));
    private final List<HttpDownstream> downstreams = new ArrayList<>();

    @Override
    public String kind() {
        return "real";
    }

    /** Which threads the clients run on, for the console. */
    static String clientThreads() {
        return VirtualThreads.supported() ? "virtual threads" : CLIENT_THREADS + " platform threads each (JDK 17)";
    }

    @Override
    public Ticker ticker() {
        return Ticker.system();
    }

    @Override
    public Scheduler scheduler() {
        return scheduler;
    }

    /** Each lane gets its own timer thread, client threads and server threads. */
    @Override
    public Resources resources(String lane) {
        ScheduledExecutorService laneTimer = Executors.newSingleThreadScheduledExecutor(daemon("lab-" + lane + "-timer"));
        ExecutorService clients = VirtualThreads.supported()
                ? VirtualThreads.threadPerTaskExecutor("lab-" + lane + "-client-")
                : Executors.newFixedThreadPool(CLIENT_THREADS, daemon("lab-" + lane + "-client"));
        ExecutorService servers = Executors.newFixedThreadPool(4, daemon("lab-" + lane + "-server"));
        pools.addAll(List.of(laneTimer, clients, servers));
        return new Resources(Scheduler.of(laneTimer), clients, servers);
    }

    @Override
    public Transport connect(Downstream downstream, Resources resources) throws IOException {
        HttpDownstream server = new HttpDownstream(downstream, resources.serverExecutor());
        downstreams.add(server);
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2))
                .executor(resources.executor())
                .build();
        return new HttpTransport(client, server.uri(), resources.executor());
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
        pools.forEach(ExecutorService::shutdownNow);
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
