package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.internal.VirtualThreads;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@SuppressWarnings("try") // scopes opened only to make a key current
class IdempotencyKeyTest {

    @Test
    void aValidKeyKeepsItsValue() {
        IdempotencyKey key = IdempotencyKey.of("order-42");
        assertThat(key.value()).isEqualTo("order-42");
        assertThat(key).isEqualTo(IdempotencyKey.of("order-42")).hasSameHashCodeAs(IdempotencyKey.of("order-42"));
        assertThat(key).isNotEqualTo(IdempotencyKey.of("order-43"));
        assertThat(key.toString()).isEqualTo("order-42");
    }

    @Test
    void theLongestKeyIs255Characters() {
        assertThat(IdempotencyKey.isValid("k".repeat(255))).isTrue();
        assertThat(IdempotencyKey.of("k".repeat(255)).value()).hasSize(255);
        assertThatThrownBy(() -> IdempotencyKey.of("k".repeat(256)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("IdempotencyKey: a key must be at most 255 characters but was 256");
    }

    @Test
    void printableAsciiAtTheEdgesIsValid() {
        assertThat(IdempotencyKey.isValid("!")).isTrue();
        assertThat(IdempotencyKey.isValid("~")).isTrue();
        assertThat(IdempotencyKey.isValid("a b")).isTrue();
        assertThat(IdempotencyKey.isValid("\"quoted\\\"")).isTrue();
        assertThat(IdempotencyKey.isValid("8e03978e-40d5-43e8-bc93-6894a57f9324")).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a\u0000b", "tab\there", "line\nbreak", "cr\r", "del\u007f", "caf\u00e9", "\u4e2d",
        " leading", "trailing ", " "})
    void malformedKeysAreRefused(String value) {
        assertThat(IdempotencyKey.isValid(value)).isFalse();
        assertThat(IdempotencyKey.problem(value)).isNotNull();
        assertThatThrownBy(() -> IdempotencyKey.of(value)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("IdempotencyKey: a key must");
    }

    @Test
    void theProblemNamesTheRuleAndNeverEchoesTheValue() {
        assertThat(IdempotencyKey.problem("")).isEqualTo("a key must not be empty");
        assertThat(IdempotencyKey.problem("ab\u0001")).isEqualTo(
                "a key must be printable ASCII (0x20-0x7E) but has character 0x1 at index 2");
        assertThat(IdempotencyKey.problem("x ")).isEqualTo("a key must not start or end with a space (HTTP strips it)");
        assertThat(IdempotencyKey.isValid(null)).isFalse();
        assertThatThrownBy(() -> IdempotencyKey.of(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void aKeyIsCurrentForItsScopeOnly() {
        assertThat(IdempotencyKey.current()).isEmpty();
        IdempotencyKey key = IdempotencyKey.of("k1");
        try (ContextScope scope = key.attach()) {
            assertThat(IdempotencyKey.current()).contains(key);
            assertThat(IdempotencyKey.currentOrNull()).isSameAs(key);
        }
        assertThat(IdempotencyKey.currentOrNull()).isNull();
    }

    @Test
    void anInnerScopeReplacesTheOuterKeyAndClosingRestoresIt() {
        IdempotencyKey outer = IdempotencyKey.of("outer");
        IdempotencyKey inner = IdempotencyKey.of("inner");
        try (ContextScope o = outer.attach()) {
            try (ContextScope i = inner.attach()) {
                assertThat(IdempotencyKey.currentOrNull()).isSameAs(inner);
            }
            assertThat(IdempotencyKey.currentOrNull()).isSameAs(outer);
        }
        assertThat(IdempotencyKey.currentOrNull()).isNull();
    }

    @Test
    void closingTwiceIsHarmless() {
        ContextScope scope = IdempotencyKey.of("k").attach();
        scope.close();
        scope.close();
        assertThat(IdempotencyKey.currentOrNull()).isNull();
    }

    @Test
    void aScopeClosedOutOfOrderStopsApplyingAndLeavesNothingBehind() {
        ContextScope outer = IdempotencyKey.of("outer").attach();
        ContextScope inner = IdempotencyKey.of("inner").attach();
        assertThatThrownBy(outer::close).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("reverse order");
        assertThat(IdempotencyKey.currentOrNull()).hasToString("inner");
        inner.close();
        assertThat(IdempotencyKey.currentOrNull()).isNull();
    }

    @Test
    void aScopeClosedOnAnotherThreadStopsApplyingOnItsOwner() throws Exception {
        ContextScope scope = IdempotencyKey.of("k").attach();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread other = new Thread(() -> {
            try {
                scope.close();
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        other.start();
        other.join();
        assertThat(thrown.get()).isInstanceOf(IllegalStateException.class).hasMessageContaining("thread that opened it");
        assertThat(IdempotencyKey.currentOrNull()).isNull();
    }

    @Test
    void theKeyOfOneThreadIsNotSeenOnAnother() throws Exception {
        try (ContextScope scope = IdempotencyKey.of("mine").attach()) {
            AtomicReference<IdempotencyKey> seen = new AtomicReference<>(IdempotencyKey.of("sentinel"));
            Thread other = new Thread(() -> seen.set(IdempotencyKey.currentOrNull()));
            other.start();
            other.join();
            assertThat(seen.get()).isNull();
        }
    }

    @Test
    void aSnapshotCarriesTheKeyToAnotherThreadAndThePooledWorkerForgetsIt() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            IdempotencyKey key = IdempotencyKey.of("carried");
            ContextSnapshot snapshot;
            try (ContextScope scope = key.attach()) {
                snapshot = ContextSnapshot.capture();
                assertThat(snapshot.idempotencyKey()).isSameAs(key);
                assertThat(ContextSnapshot.capture(List.of()).idempotencyKey()).isSameAs(key);
            }
            assertThat(pool.submit(snapshot.wrap(IdempotencyKey::currentOrNull)).get()).isSameAs(key);
            assertThat(pool.submit(IdempotencyKey::currentOrNull).get()).as("the worker's next task").isNull();

            CompletableFuture<IdempotencyKey> viaExecutor = new CompletableFuture<>();
            try (ContextScope scope = key.attach()) {
                ContextSnapshot.propagating(pool).execute(() -> viaExecutor.complete(IdempotencyKey.currentOrNull()));
            }
            assertThat(viaExecutor.get(60, TimeUnit.SECONDS)).isSameAs(key);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aSnapshotWithoutAKeyHidesTheWorkersKeyAndRestoresIt() {
        ContextSnapshot empty = ContextSnapshot.capture();
        assertThat(empty.idempotencyKey()).isNull();
        try (ContextScope worker = IdempotencyKey.of("worker's").attach()) {
            try (ContextScope restored = empty.attach()) {
                assertThat(IdempotencyKey.currentOrNull()).isNull();
            }
            assertThat(IdempotencyKey.currentOrNull()).hasToString("worker's");
        }
    }

    @Test
    void aSnapshotWithOnlyADeadlineHasNoKey() {
        try (ContextScope d = Deadline.after(java.time.Duration.ofSeconds(1), new ManualTicker()).attach()) {
            ContextSnapshot snapshot = ContextSnapshot.capture();
            assertThat(snapshot.deadline()).isNotNull();
            assertThat(snapshot.idempotencyKey()).isNull();
        }
    }

    @Test
    void aVirtualThreadKeepsItsKeyToItselfAndDropsItAfterTheScope() throws Exception {
        Assumptions.assumeTrue(VirtualThreads.supported(), "virtual threads need JDK 21+");
        ExecutorService virtual = VirtualThreads.threadPerTaskExecutor("key-test");
        try {
            IdempotencyKey seen = virtual.submit(() -> {
                try (ContextScope scope = IdempotencyKey.of("virtual").attach()) {
                    return IdempotencyKey.currentOrNull();
                }
            }).get();
            assertThat(seen).hasToString("virtual");
            assertThat(virtual.submit(IdempotencyKey::currentOrNull).get()).isNull();
        } finally {
            virtual.shutdownNow();
        }
    }
}
