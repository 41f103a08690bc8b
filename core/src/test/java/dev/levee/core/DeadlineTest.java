package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

@SuppressWarnings("try") // scopes are opened for their effect on the current deadline
class DeadlineTest {
    private final ManualTicker ticker = new ManualTicker(10_000);

    @AfterEach
    void noDeadlineLeaks() {
        assertThat(Deadline.currentOrNull()).isNull();
    }

    @Test
    void remainingAndExpiryFollowTheTicker() {
        Deadline d = Deadline.after(Duration.ofMillis(100), ticker);

        assertThat(d.remainingNanos()).isEqualTo(100_000_000L);
        assertThat(d.isExpired()).isFalse();
        ticker.advance(Duration.ofMillis(60));
        assertThat(d.remaining()).isEqualTo(Duration.ofMillis(40));
        ticker.advance(Duration.ofMillis(40));
        assertThat(d.isExpired()).isTrue();
        ticker.advance(Duration.ofMillis(1));
        assertThat(d.remaining()).isEqualTo(Duration.ZERO);
        assertThat(d.remainingNanos()).isEqualTo(-1_000_000L);
    }

    @Test
    void reserveGivesAShorterDeadline() {
        Deadline d = Deadline.after(Duration.ofMillis(100), ticker);
        Deadline callee = d.reserve(Duration.ofMillis(30));

        assertThat(callee.remaining()).isEqualTo(Duration.ofMillis(70));
        assertThat(callee.earlierOf(d)).isSameAs(callee);
        assertThat(d.earlierOf(callee)).isSameAs(callee);
        assertThatThrownBy(() -> d.reserve(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reserve must be >= 0");
    }

    @Test
    void arithmeticSaturatesInsteadOfOverflowing() {
        ManualTicker late = new ManualTicker(Long.MAX_VALUE - 10);
        Deadline far = Deadline.after(Duration.ofDays(365 * 1000L), late);
        assertThat(far.instantNanos()).isEqualTo(Long.MAX_VALUE);
        assertThat(far.isExpired()).isFalse();

        Deadline huge = Deadline.after(Duration.ofSeconds(Long.MAX_VALUE), ticker);
        assertThat(huge.remainingNanos()).isPositive();
        Deadline past = Deadline.at(Long.MIN_VALUE, ticker);
        assertThat(past.isExpired()).isTrue();
        assertThat(past.reserve(Duration.ofSeconds(1)).instantNanos()).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void earliestHandlesNulls() {
        Deadline a = Deadline.after(Duration.ofSeconds(1), ticker);
        assertThat(Deadline.earliest(null, null)).isNull();
        assertThat(Deadline.earliest(a, null)).isSameAs(a);
        assertThat(Deadline.earliest(null, a)).isSameAs(a);
    }

    @SuppressWarnings("try") // the scope is held only for its close()
    @Test
    void nestedScopesKeepTheEarlierAndRestoreOnClose() {
        Deadline outer = Deadline.after(Duration.ofSeconds(1), ticker);
        Deadline longer = Deadline.after(Duration.ofSeconds(5), ticker);
        Deadline shorter = Deadline.after(Duration.ofMillis(200), ticker);

        assertThat(Deadline.current()).isEmpty();
        try (ContextScope s1 = outer.attach()) {
            assertThat(Deadline.currentOrNull()).isSameAs(outer);
            try (ContextScope s2 = longer.attach()) {
                assertThat(Deadline.currentOrNull()).as("an inner scope cannot extend").isSameAs(outer);
                try (ContextScope s3 = shorter.attach()) {
                    assertThat(Deadline.currentOrNull()).as("an inner scope can shorten").isSameAs(shorter);
                }
                assertThat(Deadline.currentOrNull()).isSameAs(outer);
            }
            assertThat(Deadline.currentOrNull()).isSameAs(outer);
        }
        assertThat(Deadline.current()).isEmpty();
    }

    @Test
    void scopeMustBeClosedOnItsOwnThread() throws Exception {
        ContextScope scope = Deadline.after(Duration.ofSeconds(1), ticker).attach();
        try {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread other = new Thread(() -> {
                try {
                    scope.close();
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            other.start();
            other.join();
            assertThat(failure.get())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed on the thread that opened it");
        } finally {
            scope.close();
        }
        scope.close(); // twice is harmless
    }

    @SuppressWarnings("try") // the scope is held only for its close()
    @Test
    void deadlineTravelsToExecutorTasks() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Deadline d = Deadline.after(Duration.ofSeconds(1), ticker);
            AtomicReference<Deadline> seen = new AtomicReference<>();
            AtomicReference<Deadline> seenAfter = new AtomicReference<>();
            try (ContextScope s = d.attach()) {
                ContextSnapshot.propagating(pool).execute(() -> seen.set(Deadline.currentOrNull()));
            }
            pool.submit(() -> seenAfter.set(Deadline.currentOrNull())).get(60, TimeUnit.SECONDS);

            assertThat(seen.get()).isSameAs(d);
            assertThat(seenAfter.get()).as("the worker's own context is restored after the task").isNull();
        } finally {
            pool.shutdownNow();
        }
    }

    @SuppressWarnings("try") // the scope is held only for its close()
    @Test
    void deadlineTravelsToCompletionStageContinuations() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Deadline d = Deadline.after(Duration.ofSeconds(1), ticker);
            var executor = ContextSnapshot.propagating(pool);
            CompletableFuture<Deadline> viaAsync;
            CompletableFuture<Deadline> viaWrap;
            CompletableFuture<Void> gate = new CompletableFuture<>();
            try (ContextScope s = d.attach()) {
                viaAsync = CompletableFuture.supplyAsync(() -> "x", executor)
                        .thenApplyAsync(x -> Deadline.currentOrNull(), executor);
                ContextSnapshot snapshot = ContextSnapshot.capture();
                // A non-async continuation runs on whichever thread completes `gate`: the pool's.
                viaWrap = gate.thenApply(snapshot.wrap((Void v) -> Deadline.currentOrNull()));
            }
            pool.execute(() -> gate.complete(null));

            assertThat(viaAsync.get(60, TimeUnit.SECONDS)).isSameAs(d);
            assertThat(viaWrap.get(60, TimeUnit.SECONDS)).isSameAs(d);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void userPropagatorsAreCapturedAndRestoredInOrder() {
        ThreadLocal<String> local = new ThreadLocal<>();
        ContextPropagator<String> propagator = new ContextPropagator<>() {
            @Override
            public String capture() {
                return local.get();
            }

            @Override
            public ContextScope restore(String captured) {
                String previous = local.get();
                local.set(captured);
                return () -> local.set(previous);
            }
        };
        local.set("tenant-a");
        ContextSnapshot snapshot = ContextSnapshot.capture(java.util.List.of(propagator));
        local.set("tenant-b");

        AtomicReference<String> seen = new AtomicReference<>();
        snapshot.wrap(() -> seen.set(local.get())).run();

        assertThat(seen.get()).isEqualTo("tenant-a");
        assertThat(local.get()).isEqualTo("tenant-b");
        local.remove();
    }
}
