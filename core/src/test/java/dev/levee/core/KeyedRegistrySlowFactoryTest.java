package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, bug 16: an inserter that finds every slot taken by entries still being created must park,
 * not spin on a core for as long as the slow factory runs.
 */
class KeyedRegistrySlowFactoryTest {

    @Test
    void anInserterWaitingForASlowFactoryParksInsteadOfSpinning() throws Exception {
        CountDownLatch factoryEntered = new CountDownLatch(1);
        CountDownLatch releaseFactory = new CountDownLatch(1);
        KeyedRegistry<String, String> registry = KeyedRegistry.builder("slow").maxEntries(1)
                .idleTimeout(Duration.ofMinutes(1)).ticker(new ManualTicker())
                .build(key -> {
                    if (key.equals("slow")) {
                        factoryEntered.countDown();
                        try {
                            releaseFactory.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    return "policy-" + key;
                });
        CompletableFuture<String> slow = CompletableFuture.supplyAsync(() -> registry.get("slow"));
        assertThat(factoryEntered.await(60, TimeUnit.SECONDS)).isTrue();

        AtomicReference<Thread> inserter = new AtomicReference<>();
        CompletableFuture<String> other = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                other.complete(registry.get("other"));
            } catch (Throwable e) {
                other.completeExceptionally(e);
            }
        });
        inserter.set(t);
        t.start();

        // The inserter has no slot (the only one is reserved by the slow creation): it must be parked.
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            Thread.State state = inserter.get().getState();
            return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
        });
        assertThat(other).isNotDone();

        releaseFactory.countDown();
        assertThat(slow.get(60, TimeUnit.SECONDS)).isEqualTo("policy-slow");
        assertThat(other.get(60, TimeUnit.SECONDS)).isEqualTo("policy-other");
        assertThat(registry.size()).isEqualTo(1);
    }
}
