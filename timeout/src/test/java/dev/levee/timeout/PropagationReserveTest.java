package dev.levee.timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Seeds 000/002: the proportional reserve on the way out and the 100 ms rule for accepting work. */
@SuppressWarnings("try") // scopes are opened for their effect on the current deadline
class PropagationReserveTest {
    private static final long MS = 1_000_000L;
    private final ManualTicker ticker = new ManualTicker(5_000 * MS);
    private final DeadlinePropagation propagation = DeadlinePropagation.builder().ticker(ticker).build();

    @ParameterizedTest(name = "{0} ms left sends {1} ms")
    @CsvSource({
        // min(remaining - 100 ms, remaining x 0.9), never negative
        "5000, 4500",   // the proportional reserve (10 %) binds on long deadlines
        "1000, 900",    // both equal at 1 s
        "500, 400",     // the fixed reserve (100 ms) binds on short ones
        "150, 50",
        "100, 0",
        "50, 0",
        "0, 0",
        "-20, 0",
    })
    void theDownstreamBudgetIsTheSeedFormula(long remainingMs, long expectedMs) {
        assertThat(propagation.downstreamNanos(remainingMs * MS)).isEqualTo(expectedMs * MS);
    }

    @Test
    void theProportionalTermBindsWhenTheFixedOneIsSmall() {
        DeadlinePropagation small = DeadlinePropagation.builder().reserve(Duration.ofMillis(1)).ticker(ticker).build();
        assertThat(small.downstreamNanos(2_000 * MS)).isEqualTo(1_800 * MS); // 90 %, not 1999 ms
    }

    @Test
    void encodingTheCurrentDeadlineSendsTheDownstreamBudget() {
        try (ContextScope scope = Deadline.afterNanos(1_300 * MS, ticker).attach()) {
            assertThat(propagation.encodeCurrent()).isEqualTo("1170000u"); // min(1200, 1170) ms
            assertThat(propagation.downstream(Deadline.currentOrNull()).remainingNanos()).isEqualTo(1_170 * MS);
        }
    }

    @Test
    void workWithLessThan100MsLeftIsRefusedBeforeItStarts() {
        assertThatThrownBy(() -> propagation.acceptIncoming("99m")).isInstanceOf(DeadlineExceededException.class)
                .hasMessageContaining("less than the minimum");
        assertThat(propagation.refusedCount()).isEqualTo(1);
        assertThat(Deadline.currentOrNull()).isNull();

        try (ContextScope scope = propagation.acceptIncoming("100m")) {
            assertThat(Deadline.currentOrNull().remainingNanos()).isEqualTo(100 * MS);
        }
        // an earlier deadline already current counts too
        try (ContextScope outer = Deadline.afterNanos(50 * MS, ticker).attach()) {
            assertThatThrownBy(() -> propagation.acceptIncoming("10S")).isInstanceOf(DeadlineExceededException.class);
        }
        assertThat(propagation.refusedCount()).isEqualTo(2);
    }

    @Test
    void boundsOfTheNewFields() {
        assertThatThrownBy(() -> DeadlinePropagation.builder().reserveRatio(10).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("reserveRatio")
                .hasMessageContaining("looks like a percent: write 0.1");
        assertThatThrownBy(() -> DeadlinePropagation.builder().reserveRatio(1.0).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("[0, 1)")
                .hasMessageNotContaining("percent"); // 1.0 is a whole, not a percent: refused by the range
        // Each bound is inclusive: exactly the local maximum is accepted.
        Duration max = Duration.ofSeconds(30);
        assertThat(DeadlinePropagation.builder().localMaximum(max).reserve(max).build().localMaximum()).isEqualTo(max);
        assertThat(DeadlinePropagation.builder().localMaximum(max).minimumRemaining(max).build().localMaximum())
                .isEqualTo(max);
        assertThatThrownBy(() -> DeadlinePropagation.builder().reserveRatio(-0.1).build())
                .isInstanceOf(InvalidConfigException.class);
        assertThatThrownBy(() -> DeadlinePropagation.builder().reserve(Duration.ofMillis(-1)).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("reserve");
        assertThatThrownBy(() -> DeadlinePropagation.builder().reserve(Duration.ofMinutes(1)).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("<= localMaximum");
        assertThatThrownBy(() -> DeadlinePropagation.builder().minimumRemaining(Duration.ofMinutes(1)).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("minimumRemaining");
        assertThatThrownBy(() -> DeadlinePropagation.builder().minimumRemaining(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("minimumRemaining");
    }
}
