package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Callers that meet a key while its policy is still being created: they get that policy (never a
 * second one), they count as a use of it, and an inserter parked for a slot keeps its interrupt. The
 * racing thread is held in its factory by a latch, and the second caller is observed parked or blocked
 * before the first is let go, so each run takes the same path.
 */
class KeyedRegistryWaitersTest {
    private final ManualTicker ticker = new ManualTicker(0);

    /** A factory that holds the creation of the keys starting with "slow" until released. */
    private static final class HeldFactory {
        volatile CountDownLatch entered = new CountDownLatch(1);
        volatile CountDownLatch release = new CountDownLatch(1);

        Object create(String key) {
            if (key.startsWith("slow")) {
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return new Object[] {key};
        }

        void reset() {
            entered = new CountDownLatch(1);
            release = new CountDownLatch(1);
        }
    }

    /** What a caller thread got, and whether its interrupt flag was set when {@code get} returned. */
    private record Got(Object policy, boolean interrupted) {}

    private static Thread start(CompletableFuture<Got> result, Supplier<Object> get) {
        Thread t = new Thread(() -> {
            try {
                Object policy = get.get();
                result.complete(new Got(policy, Thread.currentThread().isInterrupted()));
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void awaitState(Thread t, Set<Thread.State> states) {
        await().atMost(Duration.ofSeconds(60)).until(() -> states.contains(t.getState()));
    }

    /**
     * At the bound, with the only slot held by the creation of the very key asked for, the caller parks,
     * then gets the created policy and touches it (its use counts for idleness). The second round, on
     * the same registry, parks another thread and interrupts it while parked: it still gets the policy,
     * with its interrupt flag restored.
     */
    @Test
    void aCallerParkedForTheKeyBeingCreatedGetsThatPolicyAndUsesIt() throws Exception {
        HeldFactory factory = new HeldFactory();
        KeyedRegistry<String, Object> registry = KeyedRegistry.builder("held").maxEntries(1)
                .idleTimeout(Duration.ofMinutes(1)).ticker(ticker).build(factory::create);

        CompletableFuture<Object> creator = CompletableFuture.supplyAsync(() -> registry.get("slow"));
        assertThat(factory.entered.await(60, TimeUnit.SECONDS)).isTrue();
        ticker.advance(Duration.ofSeconds(50));
        CompletableFuture<Got> waiter = new CompletableFuture<>();
        Thread w = start(waiter, () -> registry.get("slow"));
        awaitState(w, Set.of(Thread.State.WAITING, Thread.State.TIMED_WAITING)); // parked: no slot, no entry
        assertThat(waiter).isNotDone();

        factory.release.countDown();
        Object created = creator.get(60, TimeUnit.SECONDS);
        Got got = waiter.get(60, TimeUnit.SECONDS);
        assertThat(got.policy()).isSameAs(created);
        assertThat(got.interrupted()).as("a wake-up is not an interrupt").isFalse();
        ticker.advance(Duration.ofSeconds(20)); // 70 s after the creation, 20 s after the waiter's use
        registry.cleanUp();
        assertThat(registry.getIfPresent("slow")).as("the waiter's get counts as a use").containsSame(created);

        // Round two, same registry: the parked caller is interrupted while it waits.
        assertThat(registry.remove("slow")).isTrue();
        factory.reset();
        CompletableFuture<Object> creator2 = CompletableFuture.supplyAsync(() -> registry.get("slow-2"));
        assertThat(factory.entered.await(60, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Got> waiter2 = new CompletableFuture<>();
        Thread w2 = start(waiter2, () -> registry.get("slow-2"));
        awaitState(w2, Set.of(Thread.State.TIMED_WAITING));
        w2.interrupt();
        // Let the park consume the interrupt (the thread parks again with its flag clear) before the
        // entry is published, so the flag seen at the end can only be the one the registry restored.
        await().atMost(Duration.ofSeconds(60)).until(
                () -> !w2.isInterrupted() && w2.getState() == Thread.State.TIMED_WAITING);
        factory.release.countDown();
        Object created2 = creator2.get(60, TimeUnit.SECONDS);
        Got got2 = waiter2.get(60, TimeUnit.SECONDS);
        assertThat(got2.policy()).isSameAs(created2);
        assertThat(got2.interrupted()).as("the interrupt is kept").isTrue();
        assertThat(registry.size()).isEqualTo(1);
        assertThat(registry.evictionCount()).isZero();
    }

    /**
     * Two first calls for one key with slots to spare: the second reserves a slot, then finds the first's
     * creation in the map and waits for it; it gives its slot back and touches the winner.
     */
    @Test
    void aCallerThatLosesTheCreationRaceGivesItsSlotBackAndUsesTheWinner() throws Exception {
        HeldFactory factory = new HeldFactory();
        KeyedRegistry<String, Object> registry = KeyedRegistry.builder("race").maxEntries(2)
                .idleTimeout(Duration.ofMinutes(1)).ticker(ticker).build(factory::create);

        CompletableFuture<Object> creator = CompletableFuture.supplyAsync(() -> registry.get("slow"));
        assertThat(factory.entered.await(60, TimeUnit.SECONDS)).isTrue();
        ticker.advance(Duration.ofSeconds(50));
        CompletableFuture<Got> loser = new CompletableFuture<>();
        Thread l = start(loser, () -> registry.get("slow"));
        awaitState(l, Set.of(Thread.State.BLOCKED)); // on the map's bin, inside computeIfAbsent
        factory.release.countDown();

        Object created = creator.get(60, TimeUnit.SECONDS);
        assertThat(loser.get(60, TimeUnit.SECONDS).policy()).isSameAs(created);
        ticker.advance(Duration.ofSeconds(20));
        registry.cleanUp();
        assertThat(registry.getIfPresent("slow")).as("the loser's get counts as a use").containsSame(created);

        registry.get("other"); // the loser's slot was given back: room for one more without eviction
        assertThat(registry.evictionCount()).isZero();
        registry.get("third");
        assertThat(registry.evictionCount()).isEqualTo(1);
        assertThat(registry.size()).isEqualTo(2);
    }
}
