package dev.levee.examples;

import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import dev.levee.retry.ReplicaSet;
import dev.levee.retry.ReplicaSetConfig;
import dev.levee.retry.ReplicaSetEvent;
import dev.levee.retry.SelectionRule;
import java.io.PrintStream;
import java.io.IOException;
import java.util.List;
import java.util.Random;

/**
 * Calls across replicas ({@code docs/replicas.md}) on manual time with seeded randomness: five
 * replicas, one ten times slower, one failing every call; P2C over Peak-EWMA against round robin;
 * then panic when the health signal marks most replicas down.
 */
public final class ReplicasDemo {
    private ReplicasDemo() {}

    /**
     * Runs the demo.
     *
     * @param out where to print
     */
    public static void run(PrintStream out) {
        for (SelectionRule rule : List.of(SelectionRule.ROUND_ROBIN, SelectionRule.PEAK_EWMA)) {
            ManualTicker ticker = new ManualTicker();
            ReplicaSet<String> set = ReplicaSet.of("catalog", ReplicaSetConfig.builder().selectionRule(rule)
                    .ticker(ticker).random(RandomSource.seeded(1)).build(), List.of("a", "b", "c", "d", "e"));
            set.onEvent(e -> {
                if (e instanceof ReplicaSetEvent.Ejected && rule == SelectionRule.PEAK_EWMA) {
                    ReplicaSetEvent.Ejected ejected = (ReplicaSetEvent.Ejected) e;
                    out.printf("  ejected %s for %d s (%s)%n", ejected.replica(), ejected.ejectionNanos() / 1_000_000_000L,
                            ejected.reason());
                }
            });
            Random random = new Random(4);
            int[] calls = new int[5];
            for (int i = 0; i < 2_000; i++) {
                ticker.advance(5_000_000L); // one call every 5 ms, each finished before the next
                int r = set.pick();
                calls[r]++;
                long latency = 2_000_000L + random.nextInt(2_000_000);
                if (r == 0) {
                    set.onSuccess(r, 10 * latency); // "a" is ten times slower
                } else if (r == 1) {
                    set.onFailure(r, latency, new IOException("b is broken"));
                } else {
                    set.onSuccess(r, latency);
                }
            }
            out.printf("%-17s calls a=%d (slow) b=%d (failing) c=%d d=%d e=%d%n", rule + ":", calls[0], calls[1], calls[2],
                    calls[3], calls[4]);
        }
        ReplicaSet<String> set = ReplicaSet.of("catalog", ReplicaSetConfig.builder().selectionRule(SelectionRule.ROUND_ROBIN)
                .ticker(new ManualTicker()).build(), List.of("a", "b", "c", "d", "e"));
        set.reportHealth(0, false);
        set.reportHealth(1, false);
        out.println("2 of 5 unhealthy: panic " + set.panicking());
        set.reportHealth(2, false);
        out.println("3 of 5 unhealthy: panic " + set.panicking() + " (every replica gets calls again)");
    }
}
