package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import dev.levee.testing.Concurrently;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** 16 threads picking and completing on one set: the counts are exact and the ejection cap holds. */
class ReplicaSetConcurrencyTest {
    private static final int CALLS = 20_000;
    private final IOException boom = new IOException("boom");

    private static List<Integer> replicas(int n) {
        return IntStream.range(0, n).boxed().collect(Collectors.toList());
    }

    @Test
    void outstandingCountsAreExactAndNeverNegative() throws InterruptedException {
        for (SelectionRule rule : SelectionRule.values()) {
            ManualTicker ticker = new ManualTicker();
            ReplicaSet<Integer> set = ReplicaSet.of("stress", ReplicaSetConfig.builder().selectionRule(rule).ticker(ticker)
                    .random(RandomSource.seeded(3)).build(), replicas(10));
            AtomicLong ignored = new AtomicLong();
            Concurrently.run(thread -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int i = 0; i < CALLS; i++) {
                    int r = set.pick();
                    // our own call is in flight: a lost or doubled update elsewhere would show here
                    assertThat(set.outstanding(r)).isPositive();
                    int outcome = random.nextInt(10);
                    if (outcome < 7) {
                        set.onSuccess(r, 1_000_000L + random.nextInt(1_000_000));
                    } else if (outcome < 8) {
                        set.onFailure(r, 1_000_000L, boom);
                    } else if (outcome < 9) {
                        set.onCancelled(r, 2_000_000L);
                    } else {
                        set.onIgnored(r);
                    }
                    if (outcome >= 8) {
                        ignored.incrementAndGet();
                    }
                    if (thread == 0 && i % 1_000 == 0) {
                        ticker.advance(Duration.ofSeconds(3));
                    }
                }
            });
            ReplicaSetMetrics m = set.metrics();
            assertThat(m.outstanding()).as(rule.name()).isZero();
            for (int r = 0; r < 10; r++) {
                assertThat(set.outstanding(r)).isZero();
            }
            assertThat(m.picks()).isEqualTo(16L * CALLS);
            assertThat(m.successes() + m.failures() + ignored.get()).isEqualTo(16L * CALLS);
            assertThat(m.ejected()).isLessThanOrEqualTo(1).isEqualTo(set.ejectedReservations());
            assertThat(set.downCount()).isEqualTo(m.ejected());
        }
    }

    @Test
    void theEjectionCapHoldsWhenSixteenThreadsFailEverything() throws InterruptedException {
        ManualTicker ticker = new ManualTicker();
        ReplicaSet<Integer> set = ReplicaSet.of("cap", ReplicaSetConfig.builder().ticker(ticker).maxEjectedShare(0.2)
                .random(RandomSource.seeded(5)).build(), replicas(20));
        Concurrently.run(thread -> {
            for (int i = 0; i < CALLS; i++) {
                set.onFailure(set.pick(), 1_000_000L, boom);
                assertThat(set.ejectedReservations()).isLessThanOrEqualTo(4); // every ejected replica holds one
                if (thread == 0 && i % 500 == 0) {
                    ticker.advance(Duration.ofSeconds(31));
                }
            }
        });
        assertThat(set.metrics().ejected()).isBetween(1, 4).isEqualTo(set.ejectedReservations());
        assertThat(set.downCount()).isEqualTo(set.metrics().ejected());
        assertThat(set.metrics().outstanding()).isZero();
        assertThat(set.metrics().ejectionsCapped()).isPositive();
    }
}
