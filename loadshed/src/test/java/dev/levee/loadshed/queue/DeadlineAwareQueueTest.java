package dev.levee.loadshed.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

@SuppressWarnings("try") // scopes opened only for their effect on the current thread
class DeadlineAwareQueueTest {
    private static final long MS = 1_000_000L;
    private final ManualTicker ticker = new ManualTicker();
    private final List<String> dropped = Collections.synchronizedList(new ArrayList<>());

    private DeadlineAwareQueue<String> queue(int maxSize) {
        return DeadlineAwareQueue.of("q", DeadlineAwareQueueConfig.builder().maxSize(maxSize).ticker(ticker).build(),
                (item, reason) -> dropped.add(item + ":" + reason));
    }

    private long in(long millis) {
        return ticker.read() + millis * MS;
    }

    @Test
    void defaultsAreSeed002() {
        DeadlineAwareQueueConfig d = DeadlineAwareQueueConfig.defaults();
        assertThat(d.maxSize()).isEqualTo(1000);
        assertThat(d.defaultDeadline()).isEqualTo(Duration.ofSeconds(5));
        assertThat(d.minRemaining()).isEqualTo(Duration.ofMillis(100));
        assertThat(DeadlineAwareQueue.DEFAULT_PRIORITY).isEqualTo(5);
    }

    @Test
    void highestPriorityFirstThenFifo() {
        DeadlineAwareQueue<String> q = queue(10);
        q.offerAt("n1", 5, in(1000));
        q.offerAt("h1", 9, in(1000));
        q.offerAt("n2", 5, in(1000));
        q.offerAt("l1", 1, in(1000));
        q.offerAt("h2", 9, in(1000));
        assertThat(List.of(q.poll(), q.poll(), q.poll(), q.poll(), q.poll())).containsExactly("h1", "h2", "n1", "n2", "l1");
        assertThat(q.poll()).isNull();
    }

    @Test
    void fullQueueEvictsTheLowestOnlyForAHigherPriorityNewcomer() {
        DeadlineAwareQueue<String> q = queue(3);
        q.offerAt("low-old", 2, in(1000));
        q.offerAt("low-new", 2, in(1000));
        q.offerAt("mid", 5, in(1000));
        // equal to the lowest: refused
        assertThat(q.offerAt("equal", 2, in(1000))).isFalse();
        assertThat(q.dropCount(DropReason.QUEUE_FULL)).isEqualTo(1);
        assertThat(dropped).isEmpty();
        // higher than the lowest: the oldest lowest-priority entry is evicted
        assertThat(q.offerAt("high", 3, in(1000))).isTrue();
        assertThat(dropped).containsExactly("low-old:EVICTED");
        assertThat(q.dropCount(DropReason.EVICTED)).isEqualTo(1);
        assertThat(q.size()).isEqualTo(3);
        assertThat(q.size(2)).isEqualTo(1);
    }

    @Test
    void lowerThanEverythingIsRefused() {
        DeadlineAwareQueue<String> q = queue(2);
        q.offerAt("a", 5, in(1000));
        q.offerAt("b", 6, in(1000));
        assertThat(q.offerAt("c", 1, in(1000))).isFalse();
        assertThat(q.size()).isEqualTo(2);
    }

    @Test
    void expiredEntriesAreDroppedOnEnqueueAndDequeue() {
        DeadlineAwareQueue<String> q = queue(10);
        q.offerAt("short", 5, in(50));
        q.offerAt("long", 5, in(5000));
        q.offerAt("other", 3, in(50));
        ticker.advance(Duration.ofMillis(50));
        // enqueue drops the expired heads
        q.offerAt("new", 1, in(5000));
        assertThat(dropped).containsExactlyInAnyOrder("other:EXPIRED", "short:EXPIRED");
        assertThat(q.size()).isEqualTo(2);
        q.offerAt("soon", 9, in(200));
        ticker.advance(Duration.ofMillis(200));
        assertThat(q.poll()).isEqualTo("long");
        assertThat(dropped).contains("soon:EXPIRED");
        assertThat(q.dropCount(DropReason.EXPIRED)).isEqualTo(3);
    }

    @Test
    void fullQueuePurgesExpiredEntriesBeforeRefusing() {
        DeadlineAwareQueue<String> q = queue(2);
        q.offerAt("valid", 5, in(1000));
        q.offerAt("expiring", 5, in(10));  // behind a valid head: not a head
        ticker.advance(Duration.ofMillis(10));
        assertThat(q.offerAt("newcomer", 1, in(1000))).isTrue();
        assertThat(dropped).containsExactly("expiring:EXPIRED");
    }

    @Test
    void dequeueSkipsEntriesWithLessThan100MillisLeftAtTheBoundary() {
        DeadlineAwareQueue<String> q = queue(10);
        q.offerAt("just-too-late", 9, in(100) - 1);
        q.offerAt("exactly-100", 8, in(100));
        assertThat(q.poll()).isEqualTo("exactly-100");
        assertThat(dropped).containsExactly("just-too-late:TOO_LATE");
        assertThat(q.dropCount(DropReason.TOO_LATE)).isEqualTo(1);
    }

    @Test
    void newcomerAlreadyExpiredIsRefused() {
        DeadlineAwareQueue<String> q = queue(10);
        assertThat(q.offerAt("dead", 5, ticker.read())).isFalse();
        assertThat(q.size()).isZero();
    }

    @Test
    void usesTheCurrentDeadlineOrTheDefault() {
        DeadlineAwareQueue<String> q = queue(10);
        try (ContextScope s = Deadline.afterNanos(150 * MS, ticker).attach()) {
            q.offer("scoped", 5);
        }
        q.offer("default");
        ticker.advance(Duration.ofMillis(60)); // scoped has 90 ms left: too late
        assertThat(q.poll()).isEqualTo("default");
        assertThat(dropped).containsExactly("scoped:TOO_LATE");
    }

    @Test
    void rejectsPrioritiesOutsideOneToTen() {
        DeadlineAwareQueue<String> q = queue(10);
        assertThatThrownBy(() -> q.offer("x", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> q.offer("x", 11)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void configBounds() {
        assertThatThrownBy(() -> DeadlineAwareQueueConfig.builder().maxSize(0).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("maxSize");
        assertThatThrownBy(() -> DeadlineAwareQueueConfig.builder().defaultDeadline(Duration.ZERO).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("defaultDeadline");
        assertThatThrownBy(() -> DeadlineAwareQueueConfig.builder().defaultDeadline(Duration.ofDays(2)).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("defaultDeadline");
        assertThatThrownBy(() -> DeadlineAwareQueueConfig.builder().minRemaining(Duration.ofMillis(-1)).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("minRemaining");
        assertThatThrownBy(() -> DeadlineAwareQueueConfig.builder().minRemaining(Duration.ofSeconds(5)).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("minRemaining");
        assertThatThrownBy(() -> DeadlineAwareQueueConfig.builder().ticker(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("ticker");
    }

    /** 16 producers and 16 consumers: every item is delivered, refused or dropped, exactly once. */
    @Test
    void sixteenProducersAndConsumersLoseNothing() throws Exception {
        int threads = 16;
        int perProducer = 5_000;
        QueueInvariants<Integer> oracle = new QueueInvariants<>();
        DeadlineAwareQueue<Integer> q = DeadlineAwareQueue.of("stress",
                DeadlineAwareQueueConfig.builder().maxSize(64).ticker(ticker).build(), oracle);
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger producersLeft = new AtomicInteger(threads);
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            all.add(new Thread(() -> {
                RandomSource random = RandomSource.seeded(id);
                await(start);
                for (int i = 0; i < perProducer; i++) {
                    int item = id * perProducer + i;
                    int priority = 1 + (int) random.nextLong(10);
                    long deadline = ticker.read() + (50 + random.nextLong(500)) * MS;
                    oracle.offered(item, q.offerAt(item, priority, deadline));
                    if (i % 64 == 0) {
                        ticker.advance(MS);
                    }
                }
                producersLeft.decrementAndGet();
            }));
            all.add(new Thread(() -> {
                await(start);
                while (true) {
                    Integer item;
                    try {
                        item = q.poll(1, TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    oracle.delivered(item);
                    if (item == null && producersLeft.get() == 0 && q.size() == 0) {
                        return;
                    }
                }
            }));
        }
        all.forEach(Thread::start);
        start.countDown();
        for (Thread t : all) {
            t.join(TimeUnit.MINUTES.toMillis(2));
            assertThat(t.isAlive()).isFalse();
        }
        oracle.verify(q, 0);
        assertThat(oracle.count("DELIVERED")).isPositive();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
