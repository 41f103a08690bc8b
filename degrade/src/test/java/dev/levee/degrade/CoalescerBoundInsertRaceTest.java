package dev.levee.degrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A coalescer at its bound ({@code maxEntries} 1), empty: two first calls for one key. The first has
 * reserved the only slot but not yet inserted its entry when the second looks; the second must wait
 * for that insert and join the flight, not take the reserved slot for "the map is full" and run a
 * second load of the key. Found by the jcstress test {@code CoalescerOneLoadPerFlight} (two loads in
 * about 13% of its samples); here a key whose {@code hashCode} is scripted holds the first call
 * between its reservation and its insert (the map hashes the key once per lookup and once per insert).
 */
class CoalescerBoundInsertRaceTest {
    private final ManualTicker ticker = new ManualTicker();
    private final Coalescer<Object, String> coalescer = Coalescer.of("race", CoalescerConfig.builder()
            .ticker(ticker).scheduler(new ManualScheduler(ticker)).maxEntries(1).build());

    @Test
    void aCallThatFindsTheOnlySlotReservedForItsKeyJoinsThatFlight() throws Exception {
        CountDownLatch firstReserved = new CountDownLatch(1);
        CountDownLatch secondLooked = new CountDownLatch(1);
        Thread[] first = new Thread[1];
        AtomicInteger firstHashes = new AtomicInteger();
        AtomicInteger secondHashes = new AtomicInteger();
        Object key = new Object() {
            @Override
            public int hashCode() {
                if (Thread.currentThread() == first[0]) {
                    if (firstHashes.incrementAndGet() == 2) { // the insert, after the reservation
                        firstReserved.countDown();
                        awaitQuietly(secondLooked);
                    }
                } else if (secondHashes.incrementAndGet() == 2) { // the second call looks again
                    secondLooked.countDown();
                }
                return 1;
            }
        };
        AtomicInteger loads = new AtomicInteger();
        AtomicBoolean secondLoaded = new AtomicBoolean();
        CompletableFuture<String> firstResult = new CompletableFuture<>();
        // The first load ends only once the second call has joined (or, on the old code, loaded itself),
        // so the second call always meets the first's flight in the map, whatever the scheduling.
        first[0] = new Thread(() -> firstResult.complete(coalescer.execute(key, () -> {
            while (coalescer.metrics().joined() == 0 && !secondLoaded.get()) {
                Thread.onSpinWait();
            }
            return "load " + loads.incrementAndGet();
        })), "first-call");
        first[0].start();
        assertThat(firstReserved.await(60, TimeUnit.SECONDS)).isTrue();

        String second = coalescer.execute(key, () -> {
            secondLooked.countDown(); // the old code bypassed without looking again: let the first go on
            String value = "load " + loads.incrementAndGet();
            secondLoaded.set(true);
            return value;
        });

        assertThat(firstResult.get(60, TimeUnit.SECONDS)).isEqualTo(second);
        assertThat(second).as("the second call joined the first's flight").isEqualTo("load 1");
        assertThat(loads).as("one load for the key").hasValue(1);
        assertThat(coalescer.metrics().bypassed()).isZero();
        assertThat(coalescer.size()).isZero();
    }

    @Test
    void anInsertTheMapThrowsOnGivesItsRoomBackAndLeavesNoInsertInProgress() {
        AtomicInteger hashes = new AtomicInteger();
        Object badKey = new Object() {
            @Override
            public int hashCode() {
                if (hashes.incrementAndGet() == 2) { // the insert, after the reservation
                    throw new IllegalStateException("a key whose hashCode fails");
                }
                return 1;
            }
        };
        assertThatThrownBy(() -> coalescer.execute(badKey, () -> "never")).isInstanceOf(IllegalStateException.class);

        // The only slot is free again and no insert is left marked in progress (a call at the bound would
        // otherwise wait for it for ever): the next key leads its own flight.
        assertThat(coalescer.execute("next", () -> "loaded")).isEqualTo("loaded");
        assertThat(coalescer.metrics().loads()).isEqualTo(1);
        assertThat(coalescer.metrics().bypassed()).isZero();
        assertThat(coalescer.size()).isZero();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
