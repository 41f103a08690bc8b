package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A deadline as a value: equality, hashing, ordering, its ticker. */
class DeadlineValueTest {
    private final ManualTicker ticker = new ManualTicker(1_000);

    @Test
    void equalWhenTheSameInstantOnTheSameTicker() {
        Deadline a = Deadline.at(5_000, ticker);
        assertThat(a).isEqualTo(Deadline.at(5_000, ticker));
        assertThat(a).hasSameHashCodeAs(Deadline.at(5_000, ticker));
        assertThat(a).isNotEqualTo(Deadline.at(5_001, ticker));
        assertThat(a).isNotEqualTo(Deadline.at(5_000, new ManualTicker(1_000)));
        assertThat(a).isNotEqualTo("a deadline");
        assertThat(a.hashCode()).isNotEqualTo(Deadline.at(5_001, ticker).hashCode());
        assertThat(a.ticker()).isSameAs(ticker);
    }

    @Test
    void hashCodeMixesTheInstantAndTheTicker() {
        assertThat(Deadline.at(5_000, ticker).hashCode())
                .isEqualTo(Long.hashCode(5_000) * 31 + System.identityHashCode(ticker));
    }

    @Test
    void ordersByInstantOnOneTickerAndByRemainingTimeAcrossTickers() {
        Deadline early = Deadline.at(2_000, ticker);
        Deadline late = Deadline.at(3_000, ticker);
        assertThat(early.compareTo(late)).isNegative();
        assertThat(late.compareTo(early)).isPositive();
        assertThat(early.compareTo(Deadline.at(2_000, ticker))).isZero();
        // Saturated: instants far apart do not wrap around.
        assertThat(Deadline.at(Long.MIN_VALUE, ticker).compareTo(Deadline.at(Long.MAX_VALUE, ticker))).isNegative();

        ManualTicker other = new ManualTicker(0);
        Deadline otherSoon = Deadline.at(500, other);       // 500 ns left
        Deadline otherLater = Deadline.at(1_500, other);    // 1,500 ns left
        assertThat(early.compareTo(otherSoon)).isPositive(); // 1,000 ns left
        assertThat(early.compareTo(otherLater)).isNegative();
        assertThat(early.compareTo(Deadline.at(1_000, other))).isZero();
    }

    @Test
    void afterADurationOnTheSystemTicker() {
        Deadline d = Deadline.after(Duration.ofHours(1));
        assertThat(d.ticker()).isSameAs(Ticker.system());
        assertThat(d.remainingNanos()).isPositive().isLessThanOrEqualTo(Duration.ofHours(1).toNanos());
        assertThat(d.isExpired()).isFalse();
    }

    @Test
    void currentIsTheAttachedDeadline() {
        Deadline d = Deadline.at(5_000, ticker);
        assertThat(Deadline.current()).isEmpty();
        try (ContextScope ignored = d.attach()) {
            assertThat(Deadline.current()).containsSame(d);
        }
        assertThat(Deadline.current()).isEmpty();
    }
}
