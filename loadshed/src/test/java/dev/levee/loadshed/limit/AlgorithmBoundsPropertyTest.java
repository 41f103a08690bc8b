package dev.levee.loadshed.limit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.RandomSource;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Every algorithm stays within [minLimit, maxLimit] over seeded random sample schedules. */
class AlgorithmBoundsPropertyTest {

    @Test
    void limitsStayWithinTheirBounds() {
        List<Supplier<LimitAlgorithm>> algorithms = List.of(
                () -> LatencyAimdLimit.builder().minLimit(3).maxLimit(40).initialLimit(20)
                        .target(Duration.ofMillis(5)).build(),
                () -> LatencyAimdLimit.builder().oncePerRtt(false).build(),
                () -> DropAimdLimit.builder().minLimit(2).maxLimit(30).initialLimit(10).build(),
                () -> VegasLimit.builder().minLimit(4).maxLimit(50).initialLimit(10).probeInterval(Duration.ofMillis(50))
                        .random(RandomSource.seeded(1)).build(),
                () -> GradientLimit.builder().minLimit(5).maxLimit(60).initialLimit(5)
                        .probeInterval(Duration.ofMillis(50)).random(RandomSource.seeded(2)).build(),
                () -> FixedLimit.of(9));
        for (long seed = 0; seed < 20; seed++) {
            RandomSource random = RandomSource.seeded(seed);
            for (Supplier<LimitAlgorithm> factory : algorithms) {
                LimitAlgorithm a = factory.get();
                assertThat(a.initialLimit()).isBetween(a.minLimit(), a.maxLimit());
                long now = 1_000_000_000L;
                for (int i = 0; i < 5_000; i++) {
                    now += random.nextLong(2_000_000L);
                    long rtt = random.nextLong(50_000_000L);
                    int inflight = (int) random.nextLong(100);
                    boolean drop = random.nextDouble() < 0.05;
                    int limit = a.update(now, rtt, inflight, drop);
                    assertThat(limit).as(a + " seed " + seed + " step " + i).isBetween(a.minLimit(), a.maxLimit());
                }
            }
        }
    }
}
