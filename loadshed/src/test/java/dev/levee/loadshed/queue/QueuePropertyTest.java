package dev.levee.loadshed.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import org.junit.jupiter.api.Test;

/**
 * The queues' documented bounds over seeded random schedules of offers, polls and time steps, checked
 * by the shared {@link QueueInvariants} oracle after every schedule.
 */
class QueuePropertyTest {
    private static final long MS = 1_000_000L;

    @Test
    void codelQueueAccountsForEveryEntryAndNeverExceedsItsBound() {
        for (long seed = 0; seed < 200; seed++) {
            RandomSource random = RandomSource.seeded(seed);
            ManualTicker ticker = new ManualTicker(random.nextLong(1_000_000_000L) - 500_000_000L);
            QueueInvariants<Integer> oracle = new QueueInvariants<>();
            int maxSize = 1 + (int) random.nextLong(50);
            CoDelQueue<Integer> q = CoDelQueue.of("p", CoDelQueueConfig.builder().ticker(ticker).maxSize(maxSize)
                    .adaptiveLifo(random.nextDouble() < 0.5).build(), oracle);
            int next = 0;
            for (int step = 0; step < 2_000; step++) {
                double r = random.nextDouble();
                if (r < 0.5) {
                    int item = next++;
                    oracle.offered(item, q.offer(item));
                } else if (r < 0.9) {
                    oracle.delivered(q.poll());
                } else {
                    ticker.advance(random.nextLong(30 * MS));
                }
                assertThat(q.size()).isBetween(0, maxSize);
            }
            while (!q.isEmpty()) {
                oracle.delivered(q.poll());
            }
            oracle.verify(q, 0);
        }
    }

    @Test
    void deadlineQueueNeverHandsOutLateWorkAndAccountsForEveryEntry() {
        for (long seed = 0; seed < 200; seed++) {
            RandomSource random = RandomSource.seeded(seed);
            ManualTicker ticker = new ManualTicker();
            QueueInvariants<Integer> oracle = new QueueInvariants<>();
            int maxSize = 1 + (int) random.nextLong(40);
            DeadlineAwareQueue<Integer> q = DeadlineAwareQueue.of("p",
                    DeadlineAwareQueueConfig.builder().ticker(ticker).maxSize(maxSize).build(), oracle);
            java.util.Map<Integer, Long> deadlines = new java.util.HashMap<>();
            java.util.Map<Integer, Integer> priorities = new java.util.HashMap<>();
            int next = 0;
            for (int step = 0; step < 2_000; step++) {
                double r = random.nextDouble();
                if (r < 0.5) {
                    int item = next++;
                    int priority = 1 + (int) random.nextLong(10);
                    long deadline = ticker.read() + random.nextLong(400 * MS) - 20 * MS;
                    deadlines.put(item, deadline);
                    priorities.put(item, priority);
                    oracle.offered(item, q.offerAt(item, priority, deadline));
                } else if (r < 0.85) {
                    Integer item = q.poll();
                    if (item != null) {
                        // never handed out with less than 100 ms left
                        assertThat(deadlines.get(item) - ticker.read()).isGreaterThanOrEqualTo(100 * MS);
                    }
                    oracle.delivered(item);
                } else {
                    ticker.advance(random.nextLong(50 * MS));
                }
                assertThat(q.size()).isBetween(0, maxSize);
            }
            Integer item;
            while ((item = q.poll()) != null) {
                oracle.delivered(item);
            }
            // entries left are expired or too late and are dropped by the last polls
            oracle.verify(q, q.size());
        }
    }
}
