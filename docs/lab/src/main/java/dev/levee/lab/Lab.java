package dev.levee.lab;

import dev.levee.core.RandomSource;
import dev.levee.core.Ticker;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One run of the script against every configuration at once: each second a tick switches the
 * downstreams' mode when a phase starts, schedules that second's arrivals (evenly spaced, the same
 * requests for every configuration), samples the gauges of the second that ended and prints one console
 * line per configuration. The load is bounded: {@code rate x seconds} requests per configuration, then a
 * drain of {@value #DRAIN_SECONDS} s, then the run is over whatever is still in flight.
 */
final class Lab {
    static final int DRAIN_SECONDS = 3;
    static final String UNPROTECTED = "unprotected";
    static final String PROTECTED = "levee";

    private final Script script;
    private final LabSettings settings;
    private final Environment env;
    private final PrintStream console;
    private final List<Lane> lanes = new ArrayList<>();
    private final RandomSource requests;
    private final CountDownLatch finished = new CountDownLatch(1);
    private long start;
    private long nextId;

    private Lab(Script script, LabSettings settings, Environment env, long seed, PrintStream console) {
        this.script = script;
        this.settings = settings;
        this.env = env;
        this.console = console;
        this.requests = RandomSource.seeded(seed);
    }

    /** Runs {@code script} for the unprotected and the Levee configuration in {@code env}. */
    static LabResult run(Script script, LabSettings settings, Environment env, long seed, PrintStream console)
            throws IOException, InterruptedException {
        Lab lab = new Lab(script, settings, env, seed, console);
        lab.start(seed);
        env.await(lab);
        return new LabResult(script, settings, env.kind(), lab.lanes.stream()
                .map(l -> new LabResult.Series(l.name(), l.recorder().seconds())).toList());
    }

    boolean finished() {
        return finished.getCount() == 0;
    }

    /** Waits up to {@code timeout} for the run to end; true if it did. */
    boolean awaitFinished(long timeout, TimeUnit unit) throws InterruptedException {
        return finished.await(timeout, unit);
    }

    /** How long the run lasts on a clock: the script and the drain. */
    int totalSeconds() {
        return script.seconds() + DRAIN_SECONDS;
    }

    private void start(long seed) throws IOException {
        Ticker ticker = env.ticker();
        start = ticker.read();
        int total = script.seconds() + DRAIN_SECONDS;
        for (String name : List.of(UNPROTECTED, PROTECTED)) {
            boolean protect = name.equals(PROTECTED);
            Environment.Resources resources = env.resources(name);
            Downstream downstream = new Downstream(settings, protect, ticker, resources.scheduler(), RandomSource.seeded(seed + 1));
            Recorder recorder = new Recorder(name, ticker, start, total);
            Transport wire = env.connect(downstream, resources);
            Transport counted = request -> {
                recorder.attempt();
                return wire.send(request);
            };
            Client client = protect
                    ? new LeveeClient(counted, ticker, resources.scheduler(), resources.executor(), RandomSource.seeded(seed + 2))
                    : new NaiveClient(counted, resources.scheduler());
            lanes.add(new Lane(name, downstream, client, recorder, ticker, resources.executor(), settings.deadlineNanos()));
        }
        console.printf(Locale.ROOT, "Levee overload lab (%s script, %s): capacity %.0f req/s (%d workers x %d ms), "
                        + "steady load %.0f req/s, deadline %d ms, %d s%n",
                script.name(), env.kind(), settings.capacity(), settings.workers(), settings.serviceNanos() / LabSettings.MS,
                settings.steadyRate(), settings.deadlineNanos() / LabSettings.MS, script.seconds());
        scheduleTick(0);
    }

    private void scheduleTick(int second) {
        long due = start + second * 1_000_000_000L;
        env.scheduler().schedule(() -> tick(second), due - env.ticker().read());
    }

    private void tick(int second) {
        if (second > 0) {
            for (Lane lane : lanes) {
                lane.sample(second - 1);
            }
            if (second - 1 < script.seconds()) {
                printSecond(second - 1);
            }
        }
        if (second < script.seconds()) {
            Phase phase = script.phaseAt(second);
            if (second == 0 || script.phaseAt(second - 1) != phase) {
                banner(phase, second);
                for (Lane lane : lanes) {
                    lane.downstream().mode(phase.mode());
                }
            }
            scheduleArrivals(second, phase);
        }
        if (second >= script.seconds() + DRAIN_SECONDS) {
            finished.countDown();
            return;
        }
        scheduleTick(second + 1);
    }

    private void scheduleArrivals(int second, Phase phase) {
        int count = (int) Math.round(settings.steadyRate() * phase.load());
        long base = start + second * 1_000_000_000L;
        for (int k = 0; k < count; k++) {
            Request request = newRequest();
            long due = base + k * 1_000_000_000L / count;
            env.scheduler().schedule(() -> {
                for (Lane lane : lanes) {
                    lane.arrive(request);
                }
            }, due - env.ticker().read());
        }
    }

    /** 10% critical (9), 60% normal (5), 30% batch (2); tenants acme 50%, globex 30%, initech 20%. */
    private Request newRequest() {
        double p = requests.nextDouble();
        int priority = p < 0.1 ? 9 : p < 0.7 ? 5 : 2;
        double t = requests.nextDouble();
        String tenant = t < 0.5 ? "acme" : t < 0.8 ? "globex" : "initech";
        return new Request(nextId++, priority, tenant, settings.deadlineNanos(), 1);
    }

    private void banner(Phase phase, int second) {
        console.printf(Locale.ROOT, "%n== %s at %d s, %d s, load %.0fx: %s%n", phase.key(), second, phase.seconds(),
                phase.load(), phase.shows());
    }

    private void printSecond(int second) {
        for (Lane lane : lanes) {
            Second s = lane.recorder().read(list -> list.get(second));
            String line = lane.recorder().read(list -> Console.line(second, script, lane.name(), s));
            console.println(line);
        }
    }
}
