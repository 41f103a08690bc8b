package dev.levee.examples;

import dev.levee.core.ContextScope;
import dev.levee.core.ManualTicker;
import dev.levee.core.ShedException;
import dev.levee.loadshed.AdaptiveLoadShedder;
import dev.levee.loadshed.AdaptiveLoadShedderConfig;
import dev.levee.loadshed.PriorityShedder;
import dev.levee.loadshed.PriorityShedderConfig;
import dev.levee.loadshed.RequestPriority;
import dev.levee.loadshed.ShedDecision;
import dev.levee.loadshed.ShedResponse;
import dev.levee.loadshed.queue.CoDelQueue;
import dev.levee.loadshed.queue.CoDelQueueConfig;
import dev.levee.loadshed.queue.DropReason;
import dev.levee.loadshed.signal.LoadSignalHeaders;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Load shedding Part II in a few deterministic scenes: a CoDel queue under a burst, the priority
 * shedder's stages, the composite shedder's reasons and HTTP answer, hostile headers.
 */
@SuppressWarnings("try") // priority scopes are opened only for their effect on the current thread
public final class SheddingDemo {
    private SheddingDemo() {}

    /**
     * Runs the demo.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        run(System.out);
    }

    /**
     * Runs every scene.
     *
     * @param out where to print
     */
    public static void run(PrintStream out) {
        codelUnderABurst(out);
        priorityStages(out);
        compositeReasons(out);
        hostileHeaders(out);
    }

    /** 40 requests arrive at once; one worker serves one every 10 ms. */
    static void codelUnderABurst(PrintStream out) {
        out.println("-- CoDel queue (target 5 ms, interval 100 ms): 40 requests at once, one served every 10 ms");
        ManualTicker ticker = new ManualTicker();
        List<String> dropped = new ArrayList<>();
        CoDelQueue<String> queue = CoDelQueue.of("burst", CoDelQueueConfig.builder().ticker(ticker).build(),
                (request, reason) -> dropped.add(request));
        for (int i = 0; i < 40; i++) {
            queue.offer("r" + i);
        }
        List<String> served = new ArrayList<>();
        while (!queue.isEmpty()) {
            ticker.advance(Duration.ofMillis(10));
            served.add(queue.poll());
            if (served.size() % 8 == 0) {
                queue.offer("fresh" + served.size());             // new traffic keeps arriving
            }
        }
        out.println("served in order: " + String.join(" ", served));
        out.println("dropped by CoDel: " + String.join(" ", dropped) + " (" + queue.dropCount(DropReason.CODEL) + ")");
    }

    static void priorityStages(PrintStream out) {
        out.println("-- priority shedder (max load 0.8): admitted levels by load");
        double[] load = {0};
        PriorityShedder shedder = PriorityShedder.of("search", PriorityShedderConfig.builder().load(() -> load[0]).build());
        for (double l : new double[] {0.5, 0.8, 0.86, 0.91, 0.97}) {
            load[0] = l;
            StringBuilder levels = new StringBuilder();
            for (int level = 1; level <= 10; level++) {
                levels.append(shedder.admits(level) ? Integer.toString(level) : ".").append(level < 10 ? " " : "");
            }
            out.printf("load %.2f -> minimum weight %3d, levels %s%n", l, shedder.minimumWeight(l), levels);
        }
    }

    static void compositeReasons(PrintStream out) {
        out.println("-- composite shedder (seed 002 order): the reason for each refusal");
        double[] cpu = {0.2};
        double[] memory = {0.3};
        AdaptiveLoadShedder shedder = AdaptiveLoadShedder.of("api", AdaptiveLoadShedderConfig.builder()
                .maxConcurrent(10).maxQueueDepth(0).cpu(() -> cpu[0]).memory(() -> memory[0]).build());
        long now = shedder.ticker().read();
        out.println("idle, priority 5: " + shedder.decide(5, now).reason());
        cpu[0] = 0.91;
        out.println("cpu 0.91: " + shedder.explain(shedder.decide(5, now)));
        cpu[0] = 0.2;
        memory[0] = 0.93;
        out.println("memory 0.93: " + shedder.explain(shedder.decide(5, now)));
        memory[0] = 0.3;
        try (ContextScope s = RequestPriority.attach(10)) {
            for (int i = 0; i < 10; i++) {
                shedder.tryAcquire();
            }
        }
        out.println("10 of 10 in flight, priority 10: " + shedder.decide(10, now).reason());
        try {
            shedder.acquire(now);
        } catch (ShedException e) {
            ShedResponse r = ShedResponse.of(e);
            out.println("HTTP " + r.status() + " " + r.headers());
        }
        shedder.onSuccess(1);
        out.println("9 of 10 in flight (above 0.8 x limit), priority 5: " + shedder.decide(5, now).reason()
                + ", priority 7: " + shedder.decide(7, now).reason());
    }

    static void hostileHeaders(PrintStream out) {
        out.println("-- incoming X-Deadline values (now 2026-11-24T05:00:00Z, local maximum 30 s)");
        ManualTicker ticker = new ManualTicker();
        LoadSignalHeaders headers = LoadSignalHeaders.builder().ticker(ticker)
                .clock(Clock.fixed(Instant.parse("2026-11-24T05:00:00Z"), ZoneOffset.UTC)).build();
        for (String value : new String[] {"1795496402.5", "1795496400.05", "5", "-1", "1e9", "99999999999999999999"}) {
            LoadSignalHeaders.Incoming in = headers.extract(value, null, null);
            ShedDecision d = headers.decide(in);
            out.printf("%-22s -> %s, remaining %d ms, %s%n", "'" + value + "'", in.deadlineGiven() ? "accepted" : "ignored",
                    in.deadline().remainingNanos() / 1_000_000, d.reason());
        }
        out.println("ignored " + headers.ignoredCount() + ", accepted " + headers.acceptedCount());
    }
}
