package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Selection and construction edges of a replica set, seeded and on the manual ticker. */
class ReplicaSetSelectionEdgesTest {
    private final ManualTicker ticker = new ManualTicker();

    /**
     * Least-outstanding over two replicas compares both on every pick (the two choices are the two
     * replicas), so calls that never complete stay spread to within one, whichever comes up first.
     */
    @Test
    void leastOutstandingKeepsTwoReplicasWithinOneCallOfEachOther() {
        for (long seed = 1; seed <= 5; seed++) {
            ReplicaSet<String> set = ReplicaSet.of("lo", ReplicaSetConfig.builder().ticker(ticker)
                    .random(RandomSource.seeded(seed)).selectionRule(SelectionRule.LEAST_OUTSTANDING).build(),
                    List.of("a", "b"));
            for (int i = 0; i < 100; i++) {
                set.pick();
                assertThat(Math.abs(set.outstanding(0) - set.outstanding(1))).as("seed %d, pick %d", seed, i)
                        .isLessThanOrEqualTo(1);
            }
        }
    }

    @Test
    void defaultsNameAndTheLargestSet() {
        ReplicaSet<String> set = ReplicaSet.ofDefaults("named", List.of("a"));
        assertThat(set.name()).isEqualTo("named");
        assertThat(set.size()).isEqualTo(1);

        List<Integer> largest = Collections.nCopies(ReplicaSet.MAX_REPLICAS, 7);
        assertThat(ReplicaSet.of("big", ReplicaSetConfig.defaults(), largest).size()).isEqualTo(ReplicaSet.MAX_REPLICAS);
        List<Integer> tooMany = Collections.nCopies(ReplicaSet.MAX_REPLICAS + 1, 7);
        assertThatThrownBy(() -> ReplicaSet.of("big", ReplicaSetConfig.defaults(), tooMany))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("replicas");
    }
}
