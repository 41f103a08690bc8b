package dev.levee.timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Issue 12 gaps: database timeout profiles (seed 003) and the retries-fit-in-the-outer-limit check (001 §3.1). */
@SuppressWarnings("try") // scopes are opened for their effect on the current deadline
class DatabaseProfileAndFitTest {
    private final ManualTicker ticker = new ManualTicker();

    @Test
    void theDatabaseProfileMapsOntoJdbcUnitsAndNeverToZero() {
        DatabaseTimeoutProfile db = DatabaseTimeoutProfile.builder("orders").query(Duration.ofMillis(1_500)).build();
        assertThat(db.querySecondsRoundedUp()).isEqualTo(2);
        assertThat(db.queryMillis()).isEqualTo(1_500);
        assertThat(db.connectMillis()).isEqualTo(2_000);
        assertThat(db.transactionTimeoutConfig().timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(db.queryTimeoutConfig().timeout()).isEqualTo(Duration.ofMillis(1_500));
        DatabaseTimeoutProfile tiny = DatabaseTimeoutProfile.builder("t").query(Duration.ofNanos(1)).build();
        assertThat(tiny.querySecondsRoundedUp()).isEqualTo(1);
        assertThat(tiny.queryMillis()).isEqualTo(1);
        assertThat(DatabaseTimeoutProfile.builder("whole").query(Duration.ofSeconds(2)).build().querySecondsRoundedUp())
                .as("a whole number of seconds is not rounded up").isEqualTo(2);
    }

    @Test
    void withinADeadlineEveryBoundIsCut() {
        DatabaseTimeoutProfile db = DatabaseTimeoutProfile.ofDefaults("orders");
        assertThat(db.within(null)).isSameAs(db);
        assertThat(db.within(Deadline.after(Duration.ofMinutes(1), ticker))).isSameAs(db);
        DatabaseTimeoutProfile cut = db.within(Deadline.after(Duration.ofSeconds(3), ticker));
        assertThat(cut.transaction()).isEqualTo(Duration.ofSeconds(3));
        assertThat(cut.query()).isEqualTo(Duration.ofSeconds(3));
        assertThat(cut.connect()).isEqualTo(Duration.ofSeconds(2));
        assertThat(db.within(Deadline.after(Duration.ofSeconds(-1), ticker)).queryMillis()).isEqualTo(1);
        assertThat(db.within(Deadline.after(db.transaction(), ticker))).as("exactly the transaction left: unchanged")
                .isSameAs(db);
    }

    @Test
    void databaseProfileBounds() {
        assertThatThrownBy(() -> DatabaseTimeoutProfile.builder("db").query(Duration.ofMinutes(1)).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("DatabaseTimeoutProfile 'db': query must be <= transaction (PT30S) but was PT1M");
        assertThat(DatabaseTimeoutProfile.builder("db").query(Duration.ofSeconds(30)).build().query())
                .as("a query bound equal to the transaction is accepted").isEqualTo(Duration.ofSeconds(30));
        assertThatThrownBy(() -> DatabaseTimeoutProfile.builder("db").connect(Duration.ZERO).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("connect");
        assertThatThrownBy(() -> DatabaseTimeoutProfile.builder("db").transaction(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("transaction");
        assertThatThrownBy(() -> DatabaseTimeoutProfile.builder(" ").build()).isInstanceOf(InvalidConfigException.class);
    }

    @Test
    void attemptsTimesTheInnerTimeoutPlusBackoffMustFitTheOuterLimit() {
        TimeoutFit.Result tooLong = TimeoutFit.check(Duration.ofSeconds(2), 3, Duration.ofMillis(700),
                Duration.ofSeconds(5));
        assertThat(tooLong.needed()).isEqualTo(Duration.ofMillis(6_700));
        assertThat(tooLong.fits()).isFalse();
        assertThat(tooLong.describe()).startsWith("does not fit");

        assertThat(TimeoutFit.check(Duration.ofSeconds(1), 3, Duration.ofSeconds(2), Duration.ofSeconds(5)).fits())
                .as("exactly 5 s fits").isTrue();
        assertThat(TimeoutFit.warnIfCannotFit("inventory", Duration.ofSeconds(2), 3, Duration.ofMillis(700),
                Duration.ofSeconds(5))).isFalse();
        assertThat(TimeoutFit.check(Duration.ofDays(100_000), Integer.MAX_VALUE, Duration.ofDays(1),
                Duration.ofSeconds(1)).fits()).as("saturates instead of overflowing").isFalse();
    }

    /** The product attempts × timeout saturates exactly when it would overflow, never before. */
    @Test
    void theNeededTimeSaturatesOnlyWhenTheProductOverflows() {
        assertThat(TimeoutFit.warnIfCannotFit("inventory", Duration.ofSeconds(1), 3, Duration.ofSeconds(2),
                Duration.ofSeconds(5))).as("fits: no warning, true").isTrue();
        assertThat(TimeoutFit.check(Duration.ofSeconds(2), 2, Duration.ZERO, Duration.ofSeconds(5)).needed())
                .isEqualTo(Duration.ofSeconds(4));
        long largest = Long.MAX_VALUE / 3; // 3 × this still fits in a long
        assertThat(TimeoutFit.check(Duration.ofNanos(largest), 3, Duration.ZERO, Duration.ofSeconds(1)).needed())
                .isEqualTo(Duration.ofNanos(largest * 3));
        // 4 × 2^62 ns wraps to exactly 0 in a long: it must saturate, not "fit" in no time at all
        TimeoutFit.Result wraps = TimeoutFit.check(Duration.ofNanos(1L << 62), 4, Duration.ZERO, Duration.ofSeconds(1));
        assertThat(wraps.needed()).isEqualTo(Duration.ofNanos(Long.MAX_VALUE));
        assertThat(wraps.fits()).isFalse();
    }

    @Test
    void theCurrentDeadlineIsTheOuterLimitWhenThereIsOne() {
        assertThat(TimeoutFit.checkCurrentDeadline(Duration.ofSeconds(2), 3, Duration.ZERO).fits()).isTrue();
        try (ContextScope scope = Deadline.after(Duration.ofSeconds(5), ticker).attach()) {
            TimeoutFit.Result r = TimeoutFit.checkCurrentDeadline(Duration.ofSeconds(2), 3, Duration.ZERO);
            assertThat(r.available()).isEqualTo(Duration.ofSeconds(5));
            assertThat(r.fits()).isFalse();
        }
    }

    @Test
    void fitBounds() {
        assertThatThrownBy(() -> TimeoutFit.check(Duration.ZERO, 1, Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("innerTimeout");
        assertThatThrownBy(() -> TimeoutFit.check(Duration.ofSeconds(1), 0, Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("attempts");
        assertThatThrownBy(() -> TimeoutFit.check(Duration.ofSeconds(1), 1, Duration.ofSeconds(-1),
                Duration.ofSeconds(1))).isInstanceOf(InvalidConfigException.class).hasMessageContaining("totalBackoff");
        assertThatThrownBy(() -> TimeoutFit.check(Duration.ofSeconds(1), 1, Duration.ZERO, null))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("outer");
    }
}
