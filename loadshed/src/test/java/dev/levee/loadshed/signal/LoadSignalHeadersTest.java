package dev.levee.loadshed.signal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import dev.levee.loadshed.ShedDecision;
import dev.levee.loadshed.signal.LoadSignalHeaders.Ignored;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

// Line length: tables of cases, one per line. try: scopes opened only for their effect on the current thread.
@SuppressWarnings({"checkstyle:LineLength", "try"})
class LoadSignalHeadersTest {
    private static final long MS = 1_000_000L;
    /** 2026-11-24T04:00:00Z in epoch seconds. */
    private static final long EPOCH = 1_795_492_800L;
    private final ManualTicker ticker = new ManualTicker();
    private final Clock clock = Clock.fixed(Instant.ofEpochSecond(EPOCH), ZoneOffset.UTC);
    private final LoadSignalHeaders headers = LoadSignalHeaders.builder().clock(clock).ticker(ticker).build();
    private final long localMax = Duration.ofSeconds(30).toNanos();

    @Test
    void injectsAnAbsoluteDeadlineWithTheReservePriorityAndLoad() {
        Map<String, String> out = new LinkedHashMap<>();
        headers.inject(Deadline.afterNanos(1000 * MS, ticker), 12, 0.734, out::put);
        assertThat(out).containsEntry("X-Deadline", EPOCH + ".900")   // 1 s × 0.9
                .containsEntry("X-Priority", "10")
                .containsEntry("X-Load-Level", "0.734");
        out.clear();
        headers.inject(null, 0, Double.NaN, out::put);
        assertThat(out).doesNotContainKey("X-Deadline").containsEntry("X-Priority", "1").containsEntry("X-Load-Level", "0.000");
        assertThat(headers.encodeDeadline(Deadline.afterNanos(-5 * MS, ticker))).isEqualTo(EPOCH + ".000");
        assertThat(headers.encodeDeadline(Deadline.afterNanos(50 * MS, ticker))).isEqualTo(EPOCH + ".045");
    }

    @Test
    void roundTripGivesTheReservedDeadline() {
        Map<String, String> out = new LinkedHashMap<>();
        headers.inject(Deadline.afterNanos(2000 * MS, ticker), 7, 0.5, out::put);
        LoadSignalHeaders.Incoming in = headers.extract(out::get);
        assertThat(in.deadlineGiven()).isTrue();
        assertThat(in.deadline().remainingNanos()).isEqualTo(1800 * MS);
        assertThat(in.priority()).isEqualTo(7);
        assertThat(in.upstreamLoad()).isEqualTo(0.5);
        assertThat(headers.decide(in)).isEqualTo(ShedDecision.ADMITTED);
    }

    @Test
    void rulesOfSeed002() {
        assertThat(headers.decide(headers.extract(EPOCH + ".099", null, null))).isEqualTo(ShedDecision.DEADLINE);
        assertThat(headers.decide(headers.extract(EPOCH + ".100", null, null))).isEqualTo(ShedDecision.ADMITTED);
        assertThat(headers.decide(headers.extract(String.valueOf(EPOCH - 1), null, null))).isEqualTo(ShedDecision.DEADLINE);
        assertThat(headers.decide(headers.extract(null, "2", "0.91"))).isEqualTo(ShedDecision.UPSTREAM_LOAD);
        assertThat(headers.decide(headers.extract(null, "3", "0.91"))).isEqualTo(ShedDecision.ADMITTED);
        assertThat(headers.decide(headers.extract(null, "2", "0.9"))).isEqualTo(ShedDecision.ADMITTED);
        assertThat(headers.decide(headers.extract(null, null, "5"))).isEqualTo(ShedDecision.ADMITTED); // default priority 5
    }

    @ParameterizedTest(name = "X-Deadline ''{0}'' -> {1}")
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
        "abc|MALFORMED", "''|MALFORMED", "'   '|MALFORMED", "1e9|MALFORMED", "NaN|MALFORMED", "Infinity|MALFORMED",
        "1795492801.1234567891|MALFORMED", "1795492801..5|MALFORMED", "17954 92801|MALFORMED", "0x6B|MALFORMED",
        "1795492801,5|MALFORMED", "'1795492801\t'|MALFORMED", "123456789012345678901234567890123|MALFORMED",
        "-1795492801|NEGATIVE", "-1|NEGATIVE",
        "5|ABSURD", "0|ABSURD", "1795579201|ABSURD", "1795406399|ABSURD", "99999999999999999999|ABSURD",
        "9223372036|ABSURD"})
    void hostileDeadlinesAreIgnoredCountedAndNeverExtend(String value, String reason) {
        LoadSignalHeaders.Incoming in = headers.extract(value, null, null);
        assertThat(in.deadlineGiven()).isFalse();
        assertThat(in.deadline().remainingNanos()).isEqualTo(localMax);
        assertThat(headers.ignoredCount("X-Deadline", Ignored.valueOf(reason))).isEqualTo(1);
    }

    @ParameterizedTest(name = "X-Priority ''{0}'' -> {1}")
    @CsvSource(delimiter = '|', value = {"0|ABSURD", "11|ABSURD", "-3|NEGATIVE", "5.0|MALFORMED", "high|MALFORMED",
        "99999999999999999999|ABSURD", "''|MALFORMED"})
    void hostilePrioritiesAreIgnored(String value, String reason) {
        assertThat(headers.extract(null, value, null).priority()).isEqualTo(5);
        assertThat(headers.ignoredCount("x-priority", Ignored.valueOf(reason))).isEqualTo(1);
    }

    @ParameterizedTest(name = "X-Load-Level ''{0}'' -> {1}")
    @CsvSource(delimiter = '|', value = {"NaN|MALFORMED", "-0.5|NEGATIVE", "100.000001|ABSURD", "1e3|MALFORMED",
        "0.1234567|MALFORMED", "101|ABSURD"})
    void hostileLoadsAreIgnored(String value, String reason) {
        assertThat(headers.extract(null, null, value).upstreamLoad()).isZero();
        assertThat(headers.ignoredCount("X-Load-Level", Ignored.valueOf(reason))).isEqualTo(1);
    }

    @Test
    void aValidHeaderIsCappedByTheLocalMaximumAndTheCurrentDeadline() {
        assertThat(headers.extract(String.valueOf(EPOCH + 3600), null, null).deadline().remainingNanos()).isEqualTo(localMax);
        try (ContextScope s = Deadline.afterNanos(500 * MS, ticker).attach()) {
            assertThat(headers.extract(String.valueOf(EPOCH + 10), null, null).deadline().remainingNanos()).isEqualTo(500 * MS);
            assertThat(headers.extract(null, null, null).deadline().remainingNanos()).isEqualTo(500 * MS);
            assertThat(headers.extract(EPOCH + ".2", null, null).deadline().remainingNanos()).isEqualTo(200 * MS);
        }
    }

    /** 20,000 seeded random garbage values per header: never a throw, never a deadline past the limit. */
    @Test
    void randomGarbageNeverThrowsAndNeverExtendsADeadline() {
        RandomSource random = RandomSource.seeded(20_000);
        String alphabet = "0123456789.-+ eE,xNaInfity\t\u0000\u00e9";
        for (int i = 0; i < 20_000; i++) {
            String d = garbage(random, alphabet);
            String p = garbage(random, alphabet);
            String l = garbage(random, alphabet);
            boolean scoped = i % 2 == 0;
            long cap = scoped ? 1234 * MS : localMax;
            try (ContextScope s = scoped ? Deadline.afterNanos(1234 * MS, ticker).attach() : () -> { }) {
                LoadSignalHeaders.Incoming in = headers.extract(d, p, l);
                assertThat(in.deadline().remainingNanos()).isLessThanOrEqualTo(cap);
                assertThat(in.priority()).isBetween(1, 10);
                assertThat(in.upstreamLoad()).isBetween(0.0, LoadSignalHeaders.MAX_LOAD_LEVEL);
                headers.decide(in);
            }
        }
        assertThat(headers.ignoredCount() + headers.acceptedCount()).isEqualTo(60_000);
    }

    private static String garbage(RandomSource random, String alphabet) {
        int kind = (int) random.nextLong(4);
        if (kind == 0) {
            // plausible numbers around the epoch, with noise
            return Long.toString(EPOCH - 200_000 + random.nextLong(400_000)) + (random.nextDouble() < 0.5 ? "." + random.nextLong(1000) : "");
        }
        int len = (int) random.nextLong(kind == 3 ? 60 : 12);
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < len; k++) {
            sb.append(alphabet.charAt((int) random.nextLong(alphabet.length())));
        }
        return sb.toString();
    }

    @Test
    void configBounds() {
        assertThatThrownBy(() -> LoadSignalHeaders.builder().reserve(90).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("percent");
        assertThatThrownBy(() -> LoadSignalHeaders.builder().reserve(0).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("reserve");
        assertThatThrownBy(() -> LoadSignalHeaders.builder().localMaximum(Duration.ZERO).build()).isInstanceOf(InvalidConfigException.class);
        assertThatThrownBy(() -> LoadSignalHeaders.builder().localMaximum(Duration.ofDays(2)).build()).isInstanceOf(InvalidConfigException.class);
        assertThatThrownBy(() -> LoadSignalHeaders.builder().minRemaining(Duration.ofMinutes(1)).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("minRemaining");
        assertThatThrownBy(() -> LoadSignalHeaders.builder().absurdAfter(Duration.ZERO).build()).isInstanceOf(InvalidConfigException.class);
        assertThatThrownBy(() -> LoadSignalHeaders.builder().upstreamLoadThreshold(-1).build()).isInstanceOf(InvalidConfigException.class);
        assertThatThrownBy(() -> LoadSignalHeaders.builder().lowPriorityBelow(0).build()).isInstanceOf(InvalidConfigException.class);
        assertThatThrownBy(() -> LoadSignalHeaders.builder().clock(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("clock");
        assertThatThrownBy(() -> LoadSignalHeaders.builder().ticker(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("ticker");
    }
}
