package dev.levee.circuitbreaker.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The count window finds a call's slot with a multiply and a shift instead of a division; the slot must
 * be exactly {@code index mod size} for every index the ring counter can produce and every size the
 * config allows.
 */
class CountWindowSlotTest {
    private static final int[] SIZES = {1, 2, 3, 5, 7, 10, 20, 64, 100, 127, 128, 129, 1000, 1023, 1024, 1025,
        65_535, 65_536, 65_537, 524_287, 524_288, 524_289, 999_983, 1_000_000};

    @Test
    void theSlotIsTheIndexModuloTheSizeForSmallIndicesTheTopOfTheRangeAndRandomOnes() {
        SplittableRandom random = new SplittableRandom(13);
        StringBuilder wrong = new StringBuilder();
        for (int size : SIZES) {
            CountWindow window = new CountWindow(size, 1);
            for (int i = 0; i < Math.min(4 * size + 3, 5_000); i++) {
                check(window, size, i, wrong);
            }
            for (int k = 0; k < 4_000; k++) {
                check(window, size, Integer.MAX_VALUE - k, wrong);
            }
            // Around the multiples of the size near the top, where a rounding error would show first.
            int lastMultiple = Integer.MAX_VALUE - Integer.MAX_VALUE % size;
            for (int m = lastMultiple, n = 0; n < 50 && m >= size; m -= size, n++) {
                check(window, size, m - 1, wrong);
                check(window, size, m, wrong);
                check(window, size, m + 1, wrong);
            }
            for (int k = 0; k < 20_000; k++) {
                check(window, size, random.nextInt(Integer.MAX_VALUE) + (random.nextBoolean() ? 1 : 0), wrong);
            }
        }
        assertThat(wrong.toString()).isEmpty();
    }

    private static void check(CountWindow window, int size, int index, StringBuilder wrong) {
        if (index >= 0 && window.slotOf(index) != index % size && wrong.length() < 500) {
            wrong.append("size ").append(size).append(" index ").append(index).append(": ")
                    .append(window.slotOf(index)).append("; ");
        }
    }

    @Test
    void everySizeOfTheConfigRangeIsExactAtTheLargestIndices() {
        // The largest indices are where the product i * m is largest and the error bound is tightest.
        StringBuilder wrong = new StringBuilder();
        for (int size = 1; size <= 1_000_000; size++) {
            long m = CountWindow.reciprocalFor(size);
            int s = CountWindow.shiftFor(size);
            int lastMultiple = Integer.MAX_VALUE - Integer.MAX_VALUE % size;
            int[] indices = {Integer.MAX_VALUE, Integer.MAX_VALUE - 1, lastMultiple, lastMultiple - 1, size - 1, size};
            for (int i : indices) {
                if (i >= 0 && CountWindow.mod(i, size, m, s) != i % size && wrong.length() < 500) {
                    wrong.append("size ").append(size).append(" index ").append(i).append("; ");
                }
            }
        }
        assertThat(wrong.toString()).isEmpty();
    }
}
