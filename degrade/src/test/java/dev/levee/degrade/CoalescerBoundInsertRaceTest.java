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
 * A coalescer at its bound ({@code maxEntries} 1), empty, with a first call held inside its insert by
 * a key whose {@code hashCode} is scripted (the map hashes the key once per lookup and once per
 * insert; the second hash is the insert).
 *
 * <p>Two defects of the reservation at the bound, each found on older code. A second call of the same
 * key took the first's reservation for "the map is full" and ran a second load (jcstress
 * {@code CoalescerOneLoadPerFlight}, about 13% of its samples). The fix for that made a call that
 * found no room wait for every insert in progress, of any key, so a call was held by another key's
 * insert. The reservation is now taken under the map's lock for the key's bin, in one step with the
 * insert: a call is held only by an insert of its own key.
 */
class CoalescerBoundInsertRaceTest {
    private final ManualTicker ticker = new ManualTicker();
    private final Coalescer<Object, String> coalescer = Coalescer.of("race", CoalescerConfig.builder()
            .ticker(ticker).scheduler(new ManualScheduler(ticker)).maxEntries(1).build());

    @Test
    void twoFirstCallsOfOneKeyAtTheBoundShareOneLoadWhicheverInsertsFirst() throws Exception {
        CountDownLatch firstInserting = new CountDownLatch(1);
        CountDownLatch secondInserting = new CountDownLatch(1);
        Thread[] first = new Thread[1];
        AtomicInteger firstHashes = new AtomicInteger();
        AtomicInteger secondHashes = new AtomicInteger();
        Object key = new Object() {
            @Override
            public int hashCode() {
                if (Thread.currentThread() == first[0]) {
                    if (firstHashes.incrementAndGet() == 2) { // the first call's insert
                        firstInserting.countDown();
                        awaitQuietly(secondInserting);
                    }
                } else if (secondHashes.incrementAndGet() == 2) { // the second call's insert
                    secondInserting.countDown();
                }
                return 1;
            }
        };
        AtomicInteger loads = new AtomicInteger();
        // Whichever call loads waits until the other has joined (or, on a wrong coalescer, loaded too),
        // so the other always meets the flight in the map, whatever the scheduling.
        CheckedSupplierOfString load = () -> {
            String value = "load " + loads.incrementAndGet();
            while (coalescer.metrics().joined() == 0 && loads.get() < 2) {
                Thread.onSpinWait();
            }
            return value;
        };
        CompletableFuture<String> firstResult = new CompletableFuture<>();
        first[0] = new Thread(() -> firstResult.complete(coalescer.execute(key, load::get)), "first-call");
        first[0].start();
        assertThat(firstInserting.await(60, TimeUnit.SECONDS)).isTrue();

        String second = coalescer.execute(key, load::get);

        assertThat(firstResult.get(60, TimeUnit.SECONDS)).isEqualTo(second).isEqualTo("load 1");
        assertThat(loads).as("one load for the key").hasValue(1);
        assertThat(coalescer.metrics().joined()).isEqualTo(1);
        assertThat(coalescer.metrics().bypassed()).isZero();
        assertThat(coalescer.size()).isZero();
    }

    @Test
    void aCallIsNotHeldByAnInsertOfAnotherKey() throws Exception {
        CountDownLatch otherInserting = new CountDownLatch(1);
        CountDownLatch releaseOther = new CountDownLatch(1);
        AtomicInteger otherHashes = new AtomicInteger();
        Object otherKey = new Object() {
            @Override
            public int hashCode() {
                if (otherHashes.incrementAndGet() == 2) { // the other call's insert
                    otherInserting.countDown();
                    awaitQuietly(releaseOther);
                }
                return 1;
            }
        };
        // The call under test: a key hashed once to look up and once to insert, and once more to remove
        // its entry after its load. A third hash before its load started means it looked again, waiting
        // for someone else's insert: the old code span here until the other insert ended (for good, had
        // this test not let it go).
        AtomicBoolean loading = new AtomicBoolean();
        AtomicBoolean heldByTheOtherKey = new AtomicBoolean();
        AtomicInteger myHashes = new AtomicInteger();
        Object myKey = new Object() {
            @Override
            public int hashCode() {
                if (myHashes.incrementAndGet() == 3 && !loading.get()) {
                    heldByTheOtherKey.set(true);
                    releaseOther.countDown();
                }
                return 2;
            }
        };
        CompletableFuture<String> otherResult = new CompletableFuture<>();
        Thread other = new Thread(() -> otherResult.complete(coalescer.execute(otherKey, () -> "other")), "other-key");
        other.start();
        assertThat(otherInserting.await(60, TimeUnit.SECONDS)).isTrue();

        String mine;
        try {
            mine = coalescer.execute(myKey, () -> {
                loading.set(true);
                return "mine";
            });
        } finally {
            releaseOther.countDown();
        }

        assertThat(heldByTheOtherKey).as("the call waited for another key's insert").isFalse();
        assertThat(mine).isEqualTo("mine");
        assertThat(otherResult.get(60, TimeUnit.SECONDS)).isEqualTo("other");
        assertThat(coalescer.metrics().loads()).as("the call led its own flight; the other key led after it")
                .isEqualTo(2);
        assertThat(coalescer.metrics().bypassed()).isZero();
        assertThat(coalescer.size()).isZero();
    }

    @Test
    void aFullMapIsBypassedAtOnceWhileAnotherKeyIsBeingInserted() throws Exception {
        CompletableFuture<String> pending = new CompletableFuture<>();
        coalescer.executeAsync("occupant", () -> pending); // the only slot, in flight
        CountDownLatch otherInserting = new CountDownLatch(1);
        CountDownLatch releaseOther = new CountDownLatch(1);
        AtomicInteger otherHashes = new AtomicInteger();
        Object otherKey = new Object() {
            @Override
            public int hashCode() {
                if (otherHashes.incrementAndGet() == 2) {
                    otherInserting.countDown();
                    awaitQuietly(releaseOther);
                }
                return 1;
            }
        };
        CompletableFuture<String> otherResult = new CompletableFuture<>();
        Thread other = new Thread(() -> otherResult.complete(coalescer.execute(otherKey, () -> "other")), "other-key");
        other.start();
        assertThat(otherInserting.await(60, TimeUnit.SECONDS)).isTrue();

        String mine;
        try {
            mine = coalescer.execute("mine", () -> "mine");
        } finally {
            releaseOther.countDown();
        }

        assertThat(mine).isEqualTo("mine");
        assertThat(otherResult.get(60, TimeUnit.SECONDS)).isEqualTo("other");
        assertThat(coalescer.metrics().bypassed()).isEqualTo(2);
        pending.complete("occupant");
        assertThat(coalescer.size()).isZero();
    }

    @Test
    void anInsertTheMapThrowsOnGivesItsRoomBackAndLeavesNoInsertInProgress() {
        AtomicInteger hashes = new AtomicInteger();
        Object badKey = new Object() {
            @Override
            public int hashCode() {
                if (hashes.incrementAndGet() == 2) { // the insert
                    throw new IllegalStateException("a key whose hashCode fails");
                }
                return 1;
            }
        };
        assertThatThrownBy(() -> coalescer.execute(badKey, () -> "never")).isInstanceOf(IllegalStateException.class);

        // The only slot is free: the next key leads its own flight.
        assertThat(coalescer.execute("next", () -> "loaded")).isEqualTo("loaded");
        assertThat(coalescer.metrics().loads()).isEqualTo(1);
        assertThat(coalescer.metrics().bypassed()).isZero();
        assertThat(coalescer.size()).isZero();
    }

    /** A loader without a checked exception, shared by two calls. */
    private interface CheckedSupplierOfString {
        String get();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
