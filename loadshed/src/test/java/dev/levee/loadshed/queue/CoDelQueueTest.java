package dev.levee.loadshed.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CoDelQueueTest {
    private static final long MS = 1_000_000L;
    private final ManualTicker ticker = new ManualTicker();
    private final List<String> dropped = new ArrayList<>();

    private CoDelQueue<String> queue(boolean lifo) {
        return CoDelQueue.of("q", CoDelQueueConfig.builder().ticker(ticker).adaptiveLifo(lifo).maxSize(100).build(),
                (item, reason) -> dropped.add(item + ":" + reason));
    }

    @Test
    void defaultsAreSeed002() {
        CoDelQueueConfig d = CoDelQueueConfig.defaults();
        assertThat(d.target()).isEqualTo(Duration.ofMillis(5));
        assertThat(d.interval()).isEqualTo(Duration.ofMillis(100));
        assertThat(d.maxSize()).isEqualTo(1000);
        assertThat(d.adaptiveLifo()).isTrue();
    }

    @Test
    void fifoWhileBelowTarget() {
        CoDelQueue<String> q = queue(true);
        q.offer("a");
        q.offer("b");
        ticker.advance(Duration.ofMillis(1));
        assertThat(q.poll()).isEqualTo("a");
        assertThat(q.poll()).isEqualTo("b");
        assertThat(q.poll()).isNull();
        assertThat(q.lastSojournNanos()).isEqualTo(MS);
    }

    @Test
    void dropsFromTheHeadOnTheSeedSchedule() {
        CoDelQueue<String> q = queue(false);
        for (int i = 0; i < 10; i++) {
            q.offer("e" + i);
        }
        ticker.advance(Duration.ofMillis(10));      // t=10: sojourn 10 ms, first above -> 110
        assertThat(q.poll()).isEqualTo("e0");
        ticker.advance(Duration.ofMillis(100));     // t=110: enter dropping, drop_next 210
        assertThat(q.poll()).isEqualTo("e1");
        assertThat(q.isDropping()).isTrue();
        assertThat(dropped).isEmpty();
        ticker.advance(Duration.ofMillis(100));     // t=210: serve e2, then drop head e3
        assertThat(q.poll()).isEqualTo("e2");
        assertThat(dropped).containsExactly("e3:CODEL");
        assertThat(q.dropCount(DropReason.CODEL)).isEqualTo(1);
        assertThat(q.size()).isEqualTo(6);
    }

    @Test
    void adaptiveLifoServesNewestWhileCongestedAndDropsOldest() {
        CoDelQueue<String> q = queue(true);
        for (int i = 0; i < 5; i++) {
            q.offer("old" + i);
        }
        ticker.advance(Duration.ofMillis(10));
        assertThat(q.poll()).isEqualTo("old0");     // not yet congested: FIFO; now congested
        assertThat(q.isCongested()).isTrue();
        q.offer("fresh");
        assertThat(q.poll()).isEqualTo("fresh");    // newest first
        ticker.advance(Duration.ofMillis(100));
        q.poll();                                   // enters dropping (serves old4)
        ticker.advance(Duration.ofMillis(100));
        q.offer("fresh2");
        assertThat(q.poll()).isEqualTo("fresh2");
        assertThat(dropped).containsExactly("old1:CODEL");
    }

    @Test
    void refusesBeyondMaxSizeAndCounts() {
        CoDelQueue<String> q = CoDelQueue.of("q", CoDelQueueConfig.builder().ticker(ticker).maxSize(2).build());
        assertThat(q.offer("a")).isTrue();
        assertThat(q.offer("b")).isTrue();
        assertThat(q.offer("c")).isFalse();
        assertThat(q.remainingCapacity()).isZero();
        assertThat(q.dropCount(DropReason.QUEUE_FULL)).isEqualTo(1);
        assertThat(q.pressure()).isEqualTo(1.0);
    }

    @Test
    void configBoundsNameFieldAndValue() {
        assertThatThrownBy(() -> CoDelQueueConfig.builder().maxSize(0).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("maxSize").hasMessageContaining("0");
        assertThatThrownBy(() -> CoDelQueueConfig.builder().target(Duration.ZERO).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("target");
        assertThatThrownBy(() -> CoDelQueueConfig.builder().target(Duration.ofMillis(200)).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("<= interval");
        assertThatThrownBy(() -> CoDelQueueConfig.builder().interval(Duration.ofMinutes(2)).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("interval");
        assertThatThrownBy(() -> CoDelQueueConfig.builder().ticker(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("ticker");
        assertThatThrownBy(() -> CoDelQueueConfig.builder().scheduler(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("scheduler");
        assertThatThrownBy(() -> CoDelQueueConfig.builder().asyncExecutor(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("asyncExecutor");
        assertThatThrownBy(() -> CoDelQueueConfig.builder().maxSize(CoDelQueueConfig.MAX_SIZE_LIMIT + 1).build())
                .isInstanceOf(InvalidConfigException.class);
        assertThat(CoDelQueueConfig.defaults().toBuilder().maxSize(7).build().maxSize()).isEqualTo(7);
    }

    /** Real threads on the system ticker: a task either runs or (if CoDel drops it) is cancelled, once. */
    @Test
    void plugsIntoAThreadPoolExecutor() throws Exception {
        CoDelQueue<Runnable> q = CoDelQueue.ofDefaults("pool");
        ExecutorService pool = new ThreadPoolExecutor(2, 2, 0, TimeUnit.SECONDS, q);
        java.util.concurrent.atomic.AtomicInteger ran = new java.util.concurrent.atomic.AtomicInteger();
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                futures.add(pool.submit(ran::incrementAndGet));
            }
            int cancelled = 0;
            for (Future<?> f : futures) {
                try {
                    f.get(30, TimeUnit.SECONDS);
                } catch (java.util.concurrent.CancellationException e) {
                    cancelled++;
                }
            }
            assertThat(ran.get() + cancelled).isEqualTo(100);
            assertThat(q.dropCount(DropReason.CODEL)).isEqualTo(cancelled);
        } finally {
            pool.shutdown();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void defaultListenerCancelsDroppedFutures() {
        CoDelQueue<Future<?>> q = CoDelQueue.of("q", CoDelQueueConfig.builder().ticker(ticker).adaptiveLifo(false).build());
        List<java.util.concurrent.FutureTask<Object>> tasks = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            var t = new java.util.concurrent.FutureTask<Object>(() -> null);
            tasks.add(t);
            q.offer(t);
        }
        ticker.advance(Duration.ofMillis(10));
        q.poll();
        ticker.advance(Duration.ofMillis(100));
        q.poll();
        ticker.advance(Duration.ofMillis(100));
        q.poll();
        assertThat(tasks.get(3).isCancelled()).isTrue();
    }
}
