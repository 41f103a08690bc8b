package dev.levee.loadshed.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

@SuppressWarnings("try") // scopes opened only for their effect on the current thread
class BoundedChannelTest {

    @Test
    void pressureIsExactlySizeOverCapacity() {
        BoundedChannel<Integer> ch = BoundedChannel.of("c", 8);
        assertThat(ch.pressure()).isEqualTo(0.0);
        for (int i = 0; i < 3; i++) {
            assertThat(ch.trySend(i)).isTrue();
        }
        assertThat(ch.pressure()).isEqualTo(3.0 / 8.0);
        for (int i = 3; i < 8; i++) {
            ch.trySend(i);
        }
        assertThat(ch.pressure()).isEqualTo(1.0);
        assertThat(ch.isFull()).isTrue();
        assertThat(ch.trySend(99)).isFalse();
        assertThat(ch.dropCount(DropReason.QUEUE_FULL)).isEqualTo(1);
        assertThat(ch.tryReceive()).isEqualTo(0);
        assertThat(ch.pressure()).isEqualTo(7.0 / 8.0);
    }

    @Test
    void closeLetsReceiversDrainThenEnds() throws Exception {
        BoundedChannel<Integer> ch = BoundedChannel.of("c", 8);
        for (int i = 0; i < 5; i++) {
            ch.send(i);
        }
        ch.close();
        assertThat(ch.send(9)).isFalse();
        assertThat(ch.trySend(9)).isFalse();
        assertThat(ch.isDrained()).isFalse();
        List<Integer> got = new ArrayList<>();
        Integer item;
        while ((item = ch.receive()) != null) {
            got.add(item);
        }
        assertThat(got).containsExactly(0, 1, 2, 3, 4);
        assertThat(ch.poll(Duration.ofSeconds(1))).isNull();
        assertThat(ch.isDrained()).isTrue();
    }

    @Test
    void sendTimesOutAndPollTimesOut() throws Exception {
        BoundedChannel<Integer> ch = BoundedChannel.of("c", 1);
        assertThat(ch.send(1, Duration.ZERO)).isTrue();
        assertThat(ch.send(2, Duration.ofMillis(1))).isFalse();
        assertThat(ch.poll(Duration.ZERO)).isEqualTo(1);
        assertThat(ch.poll(Duration.ofMillis(1))).isNull();
    }

    @Test
    void sendNeverWaitsPastTheCurrentDeadline() throws Exception {
        ManualTicker ticker = new ManualTicker();
        BoundedChannel<Integer> ch = BoundedChannel.of("c", 1, ticker);
        ch.send(1);
        try (ContextScope s = Deadline.afterNanos(0, ticker).attach()) {
            assertThatThrownBy(() -> ch.send(2)).isInstanceOf(DeadlineExceededException.class);
            assertThat(ch.send(2, Duration.ofHours(1))).isFalse();
        }
        assertThat(ch.size()).isEqualTo(1);
    }

    @Test
    void closeWakesEveryBlockedSenderAndReceiver() throws Exception {
        BoundedChannel<Integer> full = BoundedChannel.of("full", 1);
        full.send(0);
        BoundedChannel<Integer> empty = BoundedChannel.of("empty", 1);
        List<Thread> threads = new ArrayList<>();
        AtomicInteger senderResults = new AtomicInteger();
        AtomicInteger receiverNulls = new AtomicInteger();
        for (int i = 0; i < 8; i++) {
            threads.add(startThread(() -> {
                try {
                    if (!full.send(1)) {
                        senderResults.incrementAndGet();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
            threads.add(startThread(() -> {
                try {
                    if (empty.receive() == null) {
                        receiverNulls.incrementAndGet();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> threads.stream().allMatch(
                t -> t.getState() == Thread.State.WAITING));
        full.close();
        empty.close();
        for (Thread t : threads) {
            t.join(30_000);
            assertThat(t.isAlive()).isFalse();
        }
        assertThat(senderResults.get()).isEqualTo(8);
        assertThat(receiverNulls.get()).isEqualTo(8);
        assertThat(full.receive()).isEqualTo(0);
    }

    @Test
    void interruptedSenderDoesNotSendAndKeepsTheFlagForTheCaller() throws Exception {
        BoundedChannel<Integer> ch = BoundedChannel.of("c", 1);
        ch.send(0);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                ch.send(1);
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        t.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> t.getState() == Thread.State.WAITING);
        t.interrupt();
        t.join(30_000);
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
        assertThat(ch.size()).isEqualTo(1);
    }

    /** 8 senders and 8 receivers on a channel of 16: capacity never exceeded, each item received once. */
    @Test
    void sixteenThreadsNeverExceedCapacityAndLoseNothing() throws Exception {
        int capacity = 16;
        int perSender = 20_000;
        BoundedChannel<Integer> ch = BoundedChannel.of("stress", capacity);
        ConcurrentHashMap<Integer, Boolean> received = new ConcurrentHashMap<>();
        AtomicInteger duplicates = new AtomicInteger();
        AtomicInteger maxSeen = new AtomicInteger();
        AtomicBoolean done = new AtomicBoolean();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < 8; s++) {
            int id = s;
            threads.add(new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < perSender; i++) {
                        ch.send(id * perSender + i);
                        maxSeen.accumulateAndGet(ch.size(), Math::max);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        for (int r = 0; r < 8; r++) {
            threads.add(new Thread(() -> {
                try {
                    start.await();
                    Integer item;
                    while ((item = ch.receive()) != null) {
                        if (received.put(item, Boolean.TRUE) != null) {
                            duplicates.incrementAndGet();
                        }
                        maxSeen.accumulateAndGet(ch.size(), Math::max);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        Thread monitor = new Thread(() -> {
            while (!done.get()) {
                maxSeen.accumulateAndGet(ch.size(), Math::max);
            }
        });
        monitor.start();
        threads.forEach(Thread::start);
        start.countDown();
        for (int i = 0; i < 8; i++) {
            threads.get(i).join(120_000);
        }
        ch.close();
        for (Thread t : threads) {
            t.join(120_000);
            assertThat(t.isAlive()).isFalse();
        }
        done.set(true);
        monitor.join();
        assertThat(maxSeen.get()).isLessThanOrEqualTo(capacity);
        assertThat(duplicates.get()).isZero();
        assertThat(received).hasSize(8 * perSender);
        assertThat(ch.latencyCount(11)).isEqualTo(8L * perSender);
    }

    @Test
    void capacityIsValidated() {
        assertThatThrownBy(() -> BoundedChannel.of("c", 0)).isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("capacity");
        assertThatThrownBy(() -> BoundedChannel.of(" ", 1)).isInstanceOf(InvalidConfigException.class);
    }

    @Test
    void pipelineDeliversEveryItemThroughEveryStageAndEndsOnClose() throws Exception {
        ConcurrentHashMap<Integer, Boolean> out = new ConcurrentHashMap<>();
        AtomicInteger duplicates = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            ChannelPipeline<Integer> p = ChannelPipeline.<Integer>builder("p")
                    .stage("a", 8, 6, x -> x + 1_000_000)
                    .stage("b", 8, 6, x -> x + 1_000_000)
                    .stage("c", 4, 4, x -> x - 2_000_000)
                    .sink(x -> {
                        if (out.put(x, Boolean.TRUE) != null) {
                            duplicates.incrementAndGet();
                        }
                    })
                    .start(pool);
            for (int i = 0; i < 20_000; i++) {
                assertThat(p.submit(i)).isTrue();
                for (double pressure : p.pressures()) {
                    assertThat(pressure).isBetween(0.0, 1.0);
                }
            }
            assertThat(p.pressures()).hasSize(3);
            p.close();
            assertThat(p.awaitTermination(Duration.ofMinutes(1))).isTrue();
            assertThat(p.submit(1)).isFalse();
            assertThat(out).hasSize(20_000);
            assertThat(duplicates.get()).isZero();
            assertThat(p.channels()).allMatch(BoundedChannel::isDrained);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void pipelineStageFailureGoesToTheHandler() throws Exception {
        List<String> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            ChannelPipeline<Integer> p = ChannelPipeline.<Integer>builder("p")
                    .stage("boom", 4, 1, x -> {
                        if (x == 3) {
                            throw new IllegalStateException("bad " + x);
                        }
                        return x;
                    })
                    .onError((stage, item, e) -> failures.add(stage + ":" + item))
                    .start(pool);
            for (int i = 0; i < 5; i++) {
                p.submit(i);
            }
            p.close();
            assertThat(p.awaitTermination(Duration.ofMinutes(1))).isTrue();
            assertThat(failures).containsExactly("boom:3");
            assertThat(p.failedCount()).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    private static Thread startThread(Runnable r) {
        Thread t = new Thread(r);
        t.start();
        return t;
    }
}
