package dev.levee.retry;

import static dev.levee.retry.ReplicaSim.MS;
import static dev.levee.retry.ReplicaSim.S;
import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The slow-replica simulation with a hedge (one extra attempt after 30 ms): sending the hedge to
 * another replica against repeating it on the first attempt's replica. Ten replicas, r0 ten times
 * slower; a call every millisecond for 60 s; manual time in 100 µs steps, seeded latencies.
 */
class HedgeAcrossReplicasSimulationTest {
    private static final long TICK = 100_000L;
    private static final long DURATION = 60 * S;
    private static final long WARMUP = 5 * S;

    private record Attempt(long at, CompletableFuture<String> future) {}

    private static final class Run {
        final ManualTicker ticker = new ManualTicker();
        final ManualScheduler scheduler = new ManualScheduler(ticker);
        final Random random = new Random(21);
        final PriorityQueue<Attempt> pending = new PriorityQueue<>((a, b) -> Long.compare(a.at, b.at));
        final List<Long> client = new ArrayList<>();
        final ReplicaSet<Integer> set;
        final Hedge hedge;

        Run(SelectionRule rule) {
            set = ReplicaSet.of("sim", ReplicaSetConfig.builder().selectionRule(rule).ticker(ticker)
                    .random(RandomSource.seeded(3)).build(), IntStream.range(0, 10).boxed().collect(Collectors.toList()));
            hedge = Hedge.of("hedge", HedgeConfig.builder().delay(Duration.ofMillis(30)).maxHedges(1).withoutBudget()
                    .ticker(ticker).scheduler(scheduler).asyncExecutor(Runnable::run).build());
        }

        CompletableFuture<String> attempt(int replica) {
            long latency = ReplicaSim.healthyLatency(random);
            if (replica == 0) {
                latency *= 10;
            }
            CompletableFuture<String> future = new CompletableFuture<>();
            pending.add(new Attempt(ticker.read() + latency, future));
            return future;
        }

        long p999(boolean toAnotherReplica) {
            for (long t = TICK; t <= DURATION; t += TICK) {
                scheduler.advance(TICK); // hedge timers fire here and start their attempts
                while (!pending.isEmpty() && pending.peek().at <= ticker.read()) {
                    pending.poll().future.complete("ok"); // a cancelled loser ignores it
                }
                if (t % MS == 0) {
                    long start = ticker.read();
                    boolean measured = start >= WARMUP;
                    CompletableFuture<String> result;
                    if (toAnotherReplica) {
                        result = hedge.executeAsync(set, this::attempt).toCompletableFuture();
                    } else {
                        int replica = set.pick(start); // the replica is chosen once; the hedge repeats the call on it
                        result = hedge.executeAsync(() -> attempt(replica)).toCompletableFuture();
                        result.whenComplete((v, e) -> set.onSuccess(replica, ticker.read() - start));
                    }
                    result.whenComplete((v, e) -> {
                        if (measured) {
                            client.add(ticker.read() - start);
                        }
                    });
                }
            }
            return ReplicaSim.Result.percentile(client, 0.999);
        }
    }

    @Test
    void hedgingToAnotherReplicaCutsTheTailWellBelowHedgingToTheSameOne() {
        long another = new Run(SelectionRule.ROUND_ROBIN).p999(true);
        long same = new Run(SelectionRule.ROUND_ROBIN).p999(false);
        long anotherP2c = new Run(SelectionRule.PEAK_EWMA).p999(true);
        long sameP2c = new Run(SelectionRule.PEAK_EWMA).p999(false);
        System.out.printf("hedge p99.9, first attempt by round robin: to another replica %.1f ms, to the same %.1f ms%n",
                another / 1e6, same / 1e6);
        System.out.printf("hedge p99.9, first attempt by P2C+Peak-EWMA: to another replica %.1f ms, to the same %.1f ms%n",
                anotherP2c / 1e6, sameP2c / 1e6);
        assertThat((double) another).isLessThan(0.5 * same);
        assertThat(anotherP2c).isLessThanOrEqualTo(sameP2c);
    }
}
