package dev.levee.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.RandomSource;
import org.junit.jupiter.api.Test;

/** The bucket layout and the quantile scan of the shared latency histogram (formulas in its Javadoc). */
class LatencyHistogramTest {

    @Test
    void valuesBelowSixteenHaveABucketEachAndNegativesCountAsZero() {
        assertThat(LatencyHistogram.bucketOf(-5)).isZero();
        assertThat(LatencyHistogram.bucketOf(Long.MIN_VALUE)).isZero();
        for (int v = 0; v < 16; v++) {
            assertThat(LatencyHistogram.bucketOf(v)).isEqualTo(v);
            assertThat(LatencyHistogram.midpointOf(v)).isEqualTo(v);
        }
    }

    @Test
    void largerValuesFallInSixteenSubBucketsPerOctave() {
        // Octave 4 (16..31): width 1, so still exact.
        assertThat(LatencyHistogram.bucketOf(16)).isEqualTo(16);
        assertThat(LatencyHistogram.bucketOf(31)).isEqualTo(31);
        // Octave 5 (32..63): width 2.
        assertThat(LatencyHistogram.bucketOf(32)).isEqualTo(32);
        assertThat(LatencyHistogram.bucketOf(33)).isEqualTo(32);
        assertThat(LatencyHistogram.bucketOf(34)).isEqualTo(33);
        assertThat(LatencyHistogram.bucketOf(63)).isEqualTo(47);
        assertThat(LatencyHistogram.bucketOf(64)).isEqualTo(48);
        // 1 ms = 1,000,000 ns: highest bit 19, sub = (1e6 >>> 15) & 15 = 30 & 15 = 14.
        assertThat(LatencyHistogram.bucketOf(1_000_000)).isEqualTo((19 - 3) * 16 + 14);
        assertThat(LatencyHistogram.bucketOf(Long.MAX_VALUE)).isEqualTo(LatencyHistogram.BUCKETS - 1);
    }

    @Test
    void midpointsAreTheCentreOfEachBucket() {
        assertThat(LatencyHistogram.midpointOf(32)).isEqualTo(33);   // [32, 34)
        assertThat(LatencyHistogram.midpointOf(47)).isEqualTo(63);   // [62, 64)
        assertThat(LatencyHistogram.midpointOf(48)).isEqualTo(66);   // [64, 68)
        assertThat(LatencyHistogram.midpointOf(LatencyHistogram.BUCKETS - 1))
                .isEqualTo((31L << 58) + (1L << 57));
    }

    @Test
    void everyMidpointLiesInItsOwnBucketAndEstimatesWithinOneThirtySecond() {
        for (int i = 0; i < LatencyHistogram.BUCKETS; i++) {
            assertThat(LatencyHistogram.bucketOf(LatencyHistogram.midpointOf(i))).as("bucket %d", i).isEqualTo(i);
        }
        RandomSource random = RandomSource.seeded(19);
        for (int n = 0; n < 10_000; n++) {
            long v = 1 + random.nextLong(1L << (1 + random.nextLong(62)));
            long estimate = LatencyHistogram.midpointOf(LatencyHistogram.bucketOf(v));
            assertThat(Math.abs((double) estimate - v)).as("value %d", v).isLessThanOrEqualTo(v / 32.0);
        }
    }

    @Test
    void countsAndClears() {
        LatencyHistogram h = new LatencyHistogram();
        h.record(3);
        h.record(3);
        h.record(40);
        assertThat(h.count(3)).isEqualTo(2);
        assertThat(h.count(LatencyHistogram.bucketOf(40))).isEqualTo(1);
        h.clear();
        for (int i = 0; i < LatencyHistogram.BUCKETS; i++) {
            assertThat(h.count(i)).isZero();
        }
        assertThat(LatencyHistogram.quantile(0.5, h)).isEqualTo(-1L);
    }

    @Test
    void quantileIsTheMidpointOfTheBucketHoldingRankCeilQTimesTotal() {
        LatencyHistogram h = new LatencyHistogram();
        for (int v = 1; v <= 10; v++) {
            h.record(v);
        }
        assertThat(LatencyHistogram.quantile(0.5, h)).isEqualTo(5);   // rank 5
        assertThat(LatencyHistogram.quantile(0.51, h)).isEqualTo(6);  // rank ceil(5.1) = 6
        assertThat(LatencyHistogram.quantile(0.9, h)).isEqualTo(9);
        assertThat(LatencyHistogram.quantile(1.0, h)).isEqualTo(10);
        assertThat(LatencyHistogram.quantile(0.01, h)).isEqualTo(1);  // rank ceil(0.1) = 1
    }

    @Test
    void rankIsAtLeastOneSoAQuantileOfZeroIsTheSmallestSample() {
        LatencyHistogram h = new LatencyHistogram();
        h.record(7);
        h.record(9);
        assertThat(LatencyHistogram.quantile(0.0, h)).isEqualTo(7);
    }

    @Test
    void aRankBeyondTheSamplesSaturatesAtTheTopBucket() {
        LatencyHistogram h = new LatencyHistogram();
        h.record(7);
        assertThat(LatencyHistogram.quantile(2.0, h))
                .isEqualTo(LatencyHistogram.midpointOf(LatencyHistogram.BUCKETS - 1));
    }

    @Test
    void quantileMergesSeveralHistograms() {
        LatencyHistogram a = new LatencyHistogram();
        LatencyHistogram b = new LatencyHistogram();
        a.record(1);
        a.record(2);
        b.record(3);
        b.record(4);
        assertThat(LatencyHistogram.quantile(0.5, a, b)).isEqualTo(2);
        assertThat(LatencyHistogram.quantile(0.75, a, b)).isEqualTo(3);
        assertThat(LatencyHistogram.quantile(1.0, a, b)).isEqualTo(4);
        assertThat(LatencyHistogram.quantile(1.0, b, a)).isEqualTo(4);
        assertThat(LatencyHistogram.quantile(0.25, b, a)).isEqualTo(1);
    }
}
