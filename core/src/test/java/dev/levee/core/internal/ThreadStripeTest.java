package dev.levee.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class ThreadStripeTest {

    @Test
    @SuppressWarnings("deprecation") // Thread.getId(): threadId() is JDK 19+
    void aThreadsStripeIsTheLowBitsOfItsIdAndNeverChanges() {
        long id = Thread.currentThread().getId();
        for (int mask : new int[] {0, 1, 3, 15, 63}) {
            assertThat(ThreadStripe.of(mask)).isEqualTo((int) (id & mask)).isBetween(0, mask);
            assertThat(ThreadStripe.of(mask)).isEqualTo(ThreadStripe.of(mask));
        }
    }

    /** The property the class exists for: threads whose ids are less than the stripe count apart never share a stripe. */
    @Test
    @SuppressWarnings("deprecation")
    void threadsWithNearbyIdsNeverShareAStripe() throws InterruptedException {
        int stripes = 16;
        Thread[] threads = new Thread[stripes * 2];
        AtomicIntegerArray seen = new AtomicIntegerArray(threads.length);
        for (int i = 0; i < threads.length; i++) {
            int index = i;
            threads[i] = new Thread(() -> seen.set(index, ThreadStripe.of(stripes - 1)));
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        int pairsChecked = 0;
        for (int i = 0; i < threads.length; i++) {
            for (int j = i + 1; j < threads.length; j++) {
                if (Math.abs(threads[i].getId() - threads[j].getId()) < stripes) {
                    assertThat(seen.get(i)).as("stripes of threads %d and %d", threads[i].getId(), threads[j].getId())
                            .isNotEqualTo(seen.get(j));
                    pairsChecked++;
                }
            }
        }
        // Compared by id, not by creation order, so threads the JVM created in between change nothing;
        // ids are handed out in construction order, so most of the 32 threads are neighbours.
        assertThat(pairsChecked).isPositive();
    }
}
