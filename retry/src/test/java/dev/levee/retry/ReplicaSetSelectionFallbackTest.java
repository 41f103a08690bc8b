package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The selection's fall-backs, on exact draws: when every healthy replica has been tried by the call, an
 * attempt goes to a healthy replica already tried (never to the unhealthy one, outside panic); and a
 * choice is up to 8 uniform draws, then a scan from a random start that wraps around the set.
 */
class ReplicaSetSelectionFallbackTest {
    private final ManualTicker ticker = new ManualTicker(7_000_000L);

    @ParameterizedTest
    @EnumSource(value = SelectionRule.class, names = {"PEAK_EWMA", "LEAST_OUTSTANDING"})
    void withEveryHealthyReplicaTriedTheNextAttemptGoesToATriedHealthyOne(SelectionRule rule) {
        ReplicaSet<String> set = ReplicaSet.of("f", ReplicaSetConfig.builder().ticker(ticker)
                .random(RandomSource.seeded(11)).selectionRule(rule).failureRateEjection(false).build(),
                List.of("r0", "r1", "r2", "r3"));
        set.reportHealth(0, false); // 3 of 4 up: no panic
        int[] counts = new int[4];
        for (int i = 0; i < 60; i++) {
            AtomicLongArray tried = set.newTriedSet();
            tried.set(0, 0b1110L); // r1, r2 and r3 already tried by this call
            int replica = set.pickUntried(ticker.read(), tried);
            counts[replica]++;
            set.onIgnored(replica);
        }
        assertThat(counts[0]).as("the unhealthy replica is never chosen").isZero();
        assertThat(counts[1] + counts[2] + counts[3]).isEqualTo(60);
        assertThat(set.outstanding(0) + set.outstanding(1) + set.outstanding(2) + set.outstanding(3)).isZero();
    }

    /**
     * r2 and r3 are unhealthy and every uniform draw lands on one of them: each of the two choices of
     * P2C makes its 8 draws, then scans from the next random start (r2, then r3) past the set's end to
     * r0 (the first choice) and r1 (the second, which must differ): 18 random numbers in all.
     */
    @ParameterizedTest
    @EnumSource(value = SelectionRule.class, names = {"PEAK_EWMA", "LEAST_OUTSTANDING"})
    void eightDrawsThenAScanThatWrapsAroundTheSet(SelectionRule rule) {
        long[] used = new long[1];
        RandomSource scripted = () -> used[0]++ % 2 == 0 ? 0.625 : 0.875; // r2, r3, r2, r3, ...
        ReplicaSet<String> set = ReplicaSet.of("w", ReplicaSetConfig.builder().ticker(ticker).random(scripted)
                .selectionRule(rule).failureRateEjection(false).build(), List.of("r0", "r1", "r2", "r3"));
        set.reportHealth(2, false);
        set.reportHealth(3, false); // 2 of 4 up: not below the panic threshold of 0.5
        assertThat(set.panicking()).isFalse();

        int replica = set.pick();
        assertThat(replica).isIn(0, 1);
        assertThat(used[0]).as("8 draws and a scan start for each of the two choices").isEqualTo(18);
    }
}
