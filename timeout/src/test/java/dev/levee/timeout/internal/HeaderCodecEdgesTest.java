package dev.levee.timeout.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The exact edges of the deadline-header codec: lengths, digit counts, overflow, unit changes. */
class HeaderCodecEdgesTest {

    @Test
    void nullAndOverlongValuesAreMalformedButBlanksDoNotCount() {
        assertThat(HeaderCodec.parse(null)).isEqualTo(HeaderCodec.MALFORMED);
        String thirtyTwo = "1".repeat(31) + "n";
        String thirtyThree = "1".repeat(32) + "n";
        assertThat(HeaderCodec.parse(thirtyTwo)).isNotEqualTo(HeaderCodec.MALFORMED);
        assertThat(HeaderCodec.parse(thirtyThree)).isEqualTo(HeaderCodec.MALFORMED);
        // Surrounding blanks are trimmed before the length is checked.
        assertThat(HeaderCodec.parse(" ".repeat(20) + "5m" + "\t".repeat(20))).isEqualTo(5_000_000L);
    }

    @Test
    void aGrpcValueHasAtMostEightDigitsAPlainNumberMore() {
        assertThat(HeaderCodec.parse("12345678n")).isEqualTo(12_345_678L);
        assertThat(HeaderCodec.parse("123456789n")).isEqualTo(HeaderCodec.OVERFLOW);
        assertThat(HeaderCodec.parse("123456789")).isEqualTo(123_456_789_000_000L); // milliseconds
    }

    @Test
    void theLargestRepresentableValueParsesAndOneMoreOverflows() {
        long maxMillis = Long.MAX_VALUE / 1_000_000L;   // 9,223,372,036,854
        assertThat(HeaderCodec.parse(Long.toString(maxMillis))).isEqualTo(maxMillis * 1_000_000L);
        assertThat(HeaderCodec.parse(Long.toString(maxMillis + 1))).isEqualTo(HeaderCodec.OVERFLOW);
        assertThat(HeaderCodec.parse("99999999H")).isEqualTo(HeaderCodec.OVERFLOW);
        assertThat(HeaderCodec.parse("2562047H")).isEqualTo(2_562_047L * 3_600_000_000_000L);
    }

    @Test
    void formatPicksTheFinestUnitUnderEightDigits() {
        assertThat(HeaderCodec.formatGrpc(99_999_999L)).isEqualTo("99999999n");
        assertThat(HeaderCodec.formatGrpc(100_000_000L)).isEqualTo("100000u");
        assertThat(HeaderCodec.formatGrpc(99_999_999L * 1_000_000_000L)).isEqualTo("99999999S");
        assertThat(HeaderCodec.formatGrpc(100_000_000L * 1_000_000_000L)).isEqualTo("1666666M");
        assertThat(HeaderCodec.formatGrpc(99_999_999L * 60_000_000_000L)).isEqualTo("99999999M");
        assertThat(HeaderCodec.formatGrpc(100_000_000L * 60_000_000_000L)).isEqualTo("1666666H");
        assertThat(HeaderCodec.formatGrpc(Long.MAX_VALUE)).isEqualTo("2562047H");
    }
}
