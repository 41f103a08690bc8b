package dev.levee.timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import dev.levee.timeout.internal.HeaderCodec;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Header encoding and decoding, including hostile input. */
@SuppressWarnings("try")
class DeadlinePropagationTest {
    private static final long MS = 1_000_000L;

    private final ManualTicker ticker = new ManualTicker(7_000_000_000L);

    private DeadlinePropagation grpc() {
        // No reserve: these tests pin the codec; the reserve has its own tests (SeedDefaultsTest).
        return DeadlinePropagation.builder().localMaximum(Duration.ofSeconds(30)).reserve(Duration.ZERO)
                .reserveRatio(0).ticker(ticker).build();
    }

    @ParameterizedTest
    @CsvSource({
        "0, 0n",
        "1, 1n",
        "99999999, 99999999n",
        "100000000, 100000u",
        "250000000, 250000u",
        "100000000000, 100000m",
        "100000000000000, 100000S",
        "6000000000000000, 6000000S",
        "600000000000000000, 10000000M",
        "9223372036854775807, 2562047H",
        "-5, 0n",
    })
    void grpcEncodingUsesTheFinestUnitThatFitsAndRoundsDown(long nanos, String expected) {
        assertThat(HeaderCodec.formatGrpc(nanos)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 999, 1_000_000, 123_456_789, 99_999_999_999L, 5_000_000_000_000L, 86_400_000_000_000L})
    void encodeThenDecodeGivesBackAtMostTheOriginalAndWithinOneUnitOfIt(long nanos) {
        long decoded = HeaderCodec.parse(HeaderCodec.formatGrpc(nanos));
        assertThat(decoded).isLessThanOrEqualTo(nanos);
        // The unit chosen is the finest whose count fits in 8 digits, so the loss is under one unit,
        // and a unit is at most 1/100,000 of the value.
        assertThat(nanos - decoded).isLessThanOrEqualTo(nanos / 100_000);
        long millis = HeaderCodec.parse(HeaderCodec.formatMillis(nanos));
        assertThat(millis).isLessThanOrEqualTo(nanos).isGreaterThan(nanos - MS);
    }

    @Test
    void roundTripThroughTheCurrentDeadline() {
        DeadlinePropagation propagation = grpc();
        String header;
        try (ContextScope scope = Deadline.afterNanos(1_500 * MS, ticker).attach()) {
            ticker.advance(200 * MS);
            header = propagation.encodeCurrent();
        }
        assertThat(header).isEqualTo("1300000u");
        Deadline incoming = propagation.incoming(header);
        assertThat(incoming.remainingNanos()).isEqualTo(1_300 * MS);
        assertThat(propagation.acceptedCount()).isEqualTo(1);
        assertThat(propagation.encodeCurrent()).isNull(); // no current deadline: send no header
        assertThat(propagation.encode(null)).isNull();
    }

    @Test
    void millisFormatRoundTrip() {
        DeadlinePropagation propagation = DeadlinePropagation.builder().format(DeadlineHeaderFormat.MILLIS)
                .reserve(Duration.ZERO).reserveRatio(0).ticker(ticker).build();
        assertThat(propagation.headerName()).isEqualTo("levee-timeout-ms");
        String header = propagation.encode(Deadline.afterNanos(750 * MS + 999_999, ticker));
        assertThat(header).isEqualTo("750");
        assertThat(propagation.incoming(header).remainingNanos()).isEqualTo(750 * MS);
        assertThat(propagation.encode(Deadline.afterNanos(-5 * MS, ticker))).isEqualTo("0");
    }

    @Test
    void anIncomingValueCanOnlyShortenTheLocalLimit() {
        DeadlinePropagation propagation = grpc();
        assertThat(propagation.decodeNanos("10S")).isEqualTo(10_000 * MS);
        assertThat(propagation.decodeNanos("60S")).isEqualTo(30_000 * MS);
        assertThat(propagation.clampedCount()).isEqualTo(1);
        assertThat(propagation.decodeNanos(null)).isEqualTo(30_000 * MS);
        assertThat(propagation.missingCount()).isEqualTo(1);
        // attaching keeps an earlier deadline already current
        try (ContextScope outer = Deadline.afterNanos(5 * MS, ticker).attach();
             ContextScope in = propagation.attachIncoming("10S")) {
            assertThat(Deadline.currentOrNull().remainingNanos()).isEqualTo(5 * MS);
        }
    }

    @ParameterizedTest(name = "[{index}] ''{0}'' is {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "\"\"                        | MALFORMED",
        "\"   \"                     | MALFORMED",
        "abc                         | MALFORMED",
        "10x                         | MALFORMED",
        "1.5S                        | MALFORMED",
        "\"1 0m\"                    | MALFORMED",
        "+10m                        | MALFORMED",
        "--10m                       | MALFORMED",
        "m                           | MALFORMED",
        "-                           | MALFORMED",
        "10mm                        | MALFORMED",
        "0x10                        | MALFORMED",
        "１０m                        | MALFORMED",
        "99999999999999999999999999999999999999999 | MALFORMED",
        "-10m                        | NEGATIVE",
        "-1                          | NEGATIVE",
        "-99999999999999999999999    | NEGATIVE",
        "123456789m                  | ABSURD",
        "99999999H                   | ABSURD",
        "9223372036854775808         | ABSURD",
        "99999999999999999999        | ABSURD",
        "9223372036854775807         | ABSURD",
        "25H                         | ABSURD",
        "86400001                    | ABSURD",
    })
    void hostileValuesAreIgnoredCountedAndNeverThrow(String value, DeadlinePropagation.Ignored reason) {
        DeadlinePropagation propagation = grpc();
        assertThat(propagation.decodeNanos(value)).isEqualTo(30_000 * MS);
        assertThat(propagation.ignoredCount(reason)).isEqualTo(1);
        assertThat(propagation.ignoredCount()).isEqualTo(1);
        assertThat(propagation.acceptedCount()).isZero();
        assertThat(propagation.incoming(value).remainingNanos()).isEqualTo(30_000 * MS);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "\" 250m \"  | 250000000",
        "\"\t5S\"    | 5000000000",
        "00000001m   | 1000000",
        "0n          | 0",
        "0           | 0",
        "86400000    | 86400000000000",
        "24H         | 86400000000000",
        "1440M       | 86400000000000",
        "7u          | 7000",
    })
    void validValuesOfBothFormatsAreAccepted(String value, long nanos) {
        assertThat(HeaderCodec.parse(value)).isEqualTo(nanos);
        DeadlinePropagation wide = DeadlinePropagation.builder().localMaximum(Duration.ofDays(1)).ticker(ticker)
                .build();
        assertThat(wide.decodeNanos(value)).isEqualTo(nanos);
        assertThat(wide.ignoredCount()).isZero();
    }

    @Test
    void aZeroIncomingTimeoutMakesTheTimeoutFailBeforeStart() {
        DeadlinePropagation propagation = grpc();
        Timeout timeout = Timeout.of("t", TimeoutConfig.builder().mode(TimeoutMode.COOPERATIVE).ticker(ticker).build());
        try (ContextScope scope = propagation.attachIncoming("0m")) {
            assertThatThrownBy(() -> timeout.execute(() -> "x"))
                    .isInstanceOf(dev.levee.core.DeadlineExceededException.class);
        }
    }

    @Test
    void controlCharactersAreMalformed() {
        DeadlinePropagation propagation = grpc();
        for (String value : new String[] {"10m\u0000", "\u000010m", "10\rm", "10m\n", "\u00a010m"}) {
            assertThat(propagation.decodeNanos(value)).isEqualTo(30_000 * MS);
        }
        assertThat(propagation.ignoredCount(DeadlinePropagation.Ignored.MALFORMED)).isEqualTo(5);
    }

    @Test
    void randomGarbageNeverThrows() {
        DeadlinePropagation propagation = grpc();
        java.util.Random random = new java.util.Random(12345);
        char[] alphabet = "0123456789-+ \tHMSmun.xé\u0000".toCharArray();
        for (int i = 0; i < 20_000; i++) {
            char[] chars = new char[random.nextInt(40)];
            for (int j = 0; j < chars.length; j++) {
                chars[j] = alphabet[random.nextInt(alphabet.length)];
            }
            long nanos = propagation.decodeNanos(new String(chars));
            assertThat(nanos).isBetween(0L, 30_000 * MS);
        }
        assertThat(propagation.ignoredCount() + propagation.acceptedCount()).isEqualTo(20_000);
    }

    @Test
    void configBounds() {
        assertThatThrownBy(() -> DeadlinePropagation.builder().localMaximum(Duration.ZERO).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("DeadlinePropagation: localMaximum must be > 0 but was PT0S");
        assertThatThrownBy(() -> DeadlinePropagation.builder().localMaximum(Duration.ofHours(2))
                .absurdAbove(Duration.ofHours(1)).build())
                .hasMessage("DeadlinePropagation: absurdAbove must be >= localMaximum (PT2H) but was PT1H");
        assertThatThrownBy(() -> DeadlinePropagation.builder().headerName(" ").build())
                .hasMessageContaining("headerName must be a non-blank string");
        assertThatThrownBy(() -> DeadlinePropagation.builder().format(null).build())
                .hasMessageContaining("format must be set");
        assertThatThrownBy(() -> DeadlinePropagation.builder().ticker(null).build())
                .hasMessageContaining("ticker must be set");
    }

    @Test
    void configEffects() {
        DeadlinePropagation custom = DeadlinePropagation.builder().headerName("x-deadline")
                .localMaximum(Duration.ofSeconds(2)).absurdAbove(Duration.ofSeconds(10)).ticker(ticker).build();
        assertThat(custom.headerName()).isEqualTo("x-deadline");
        assertThat(custom.format()).isEqualTo(DeadlineHeaderFormat.GRPC);
        assertThat(custom.decodeNanos("5S")).isEqualTo(2_000 * MS);      // clamped to localMaximum
        assertThat(custom.decodeNanos("11S")).isEqualTo(2_000 * MS);     // absurd: ignored
        assertThat(custom.ignoredCount(DeadlinePropagation.Ignored.ABSURD)).isEqualTo(1);
        assertThat(custom.incoming("1S").ticker()).isSameAs(ticker);
        DeadlinePropagation defaults = DeadlinePropagation.builder().build();
        assertThat(defaults.headerName()).isEqualTo("grpc-timeout");
        assertThat(defaults.localMaximum()).isEqualTo(Duration.ofSeconds(30));
        assertThat(defaults.absurdAbove()).isEqualTo(Duration.ofDays(1));
    }
}
