package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ContextScope;
import dev.levee.core.IdempotencyKey;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.core.RandomSource;
import dev.levee.core.Scheduler;
import dev.levee.core.internal.VirtualThreads;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The client side of issue 23: one idempotency key per logical call, on every attempt and hedge. */
@SuppressWarnings("try") // scopes opened only to make a key current
class IdempotencyKeyRetryTest {
    private final ManualTicker ticker = new ManualTicker();

    private RetryConfig.Builder config() {
        return RetryConfig.builder().ticker(ticker).sleeper(ticker).retryAll().withoutBudget()
                .backoff(Backoff.constant(Duration.ofMillis(100))).jitter(Jitter.none());
    }

    private RetryConfig.Builder keyed(long seed) {
        return config().idempotency(Idempotency.KEYED)
                .keyGenerator(IdempotencyKeyGenerator.randomUuid(RandomSource.seeded(seed)));
    }

    /** Records the current key of each attempt and fails the first {@code failures} of them. */
    private static final class KeyRecorder {
        final List<IdempotencyKey> keys = new CopyOnWriteArrayList<>();
        final List<Thread> threads = new CopyOnWriteArrayList<>();
        final AtomicInteger calls = new AtomicInteger();
        final int failures;

        KeyRecorder(int failures) {
            this.failures = failures;
        }

        String call() throws IOException {
            keys.add(IdempotencyKey.currentOrNull());
            threads.add(Thread.currentThread());
            if (calls.incrementAndGet() <= failures) {
                throw new IOException("lost response " + calls.get());
            }
            return "charged";
        }
    }

    /** Counts the keys a generator makes. */
    private static final class CountingGenerator implements IdempotencyKeyGenerator {
        final IdempotencyKeyGenerator delegate = IdempotencyKeyGenerator.randomUuid(RandomSource.seeded(7));
        final AtomicInteger made = new AtomicInteger();

        @Override
        public IdempotencyKey newKey() {
            made.incrementAndGet();
            return delegate.newKey();
        }
    }

    // ---- one key per logical call ----

    @Test
    void aKeyedCallMakesOneKeyBeforeTheFirstAttemptAndSendsItWithEveryRetry() throws Exception {
        CountingGenerator generator = new CountingGenerator();
        Retry retry = Retry.of("charges", config().idempotency(Idempotency.KEYED).keyGenerator(generator).build());
        KeyRecorder call = new KeyRecorder(2);
        assertThat(retry.execute(call::call)).isEqualTo("charged");
        assertThat(call.keys).hasSize(3).doesNotContainNull();
        assertThat(new HashSet<>(call.keys)).as("one key for the three attempts").hasSize(1);
        assertThat(generator.made).hasValue(1);
        assertThat(IdempotencyKey.currentOrNull()).as("nothing left on the caller's thread").isNull();
    }

    @Test
    void differentLogicalCallsGetDifferentKeys() throws Exception {
        Retry retry = Retry.of("charges", keyed(1).build());
        Set<IdempotencyKey> keys = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            KeyRecorder call = new KeyRecorder(1);
            retry.execute(call::call);
            assertThat(call.keys.get(0)).isEqualTo(call.keys.get(1));
            keys.add(call.keys.get(0));
        }
        assertThat(keys).hasSize(100);
    }

    @Test
    void aSeededGeneratorIsReproducibleAndMakesVersion4Uuids() {
        IdempotencyKeyGenerator a = IdempotencyKeyGenerator.randomUuid(RandomSource.seeded(42));
        IdempotencyKeyGenerator b = IdempotencyKeyGenerator.randomUuid(RandomSource.seeded(42));
        IdempotencyKeyGenerator c = IdempotencyKeyGenerator.randomUuid(RandomSource.seeded(43));
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            IdempotencyKey key = a.newKey();
            assertThat(b.newKey()).isEqualTo(key);
            UUID uuid = UUID.fromString(key.value());
            assertThat(uuid.version()).isEqualTo(4);
            assertThat(uuid.variant()).isEqualTo(2);
            assertThat(uuid.toString()).as("canonical form").isEqualTo(key.value());
            seen.add(key.value());
        }
        assertThat(seen).hasSize(1000);
        assertThat(c.newKey()).isNotEqualTo(IdempotencyKeyGenerator.randomUuid(RandomSource.seeded(42)).newKey());
        assertThat(IdempotencyKeyGenerator.randomUuid().newKey()).isNotEqualTo(IdempotencyKeyGenerator.randomUuid().newKey());
    }

    @Test
    void theUuidFormatMatchesTheJdks() {
        long[][] cases = {{0L, 0L}, {-1L, -1L}, {0x0123456789abcdefL, 0xfedcba9876543210L}, {Long.MIN_VALUE, 1L}};
        for (long[] c : cases) {
            assertThat(RandomUuidGenerator.format(c[0], c[1])).isEqualTo(new UUID(c[0], c[1]).toString());
        }
    }

    @Test
    void theCallersOwnKeyIsUsedAndNoneIsMade() throws Exception {
        CountingGenerator generator = new CountingGenerator();
        Retry retry = Retry.of("charges", config().idempotency(Idempotency.KEYED).keyGenerator(generator).build());
        KeyRecorder call = new KeyRecorder(2);
        IdempotencyKey orderId = IdempotencyKey.of("order-42");
        try (ContextScope scope = orderId.attach()) {
            retry.execute(call::call);
            assertThat(IdempotencyKey.currentOrNull()).as("the caller's scope is untouched").isSameAs(orderId);
        }
        assertThat(call.keys).containsExactly(orderId, orderId, orderId);
        assertThat(generator.made).hasValue(0);
    }

    @Test
    void nestedKeyedRetriesShareTheOuterKeySoTheOuterRepeatIsRecognised() throws Exception {
        Retry outer = Retry.of("outer", keyed(1).build());
        Retry inner = Retry.of("inner", keyed(2).maxAttempts(2).build());
        KeyRecorder call = new KeyRecorder(3); // inner fails twice (gives up), outer retries, inner: fail, succeed
        assertThat(outer.execute(() -> inner.execute(call::call))).isEqualTo("charged");
        assertThat(call.keys).hasSize(4);
        assertThat(new HashSet<>(call.keys)).hasSize(1);
    }

    @Test
    void anIdempotentRetryMakesNoKey() throws Exception {
        Retry retry = Retry.of("reads", config().build());
        assertThat(retry.config().idempotency()).isEqualTo(RetryConfig.DEFAULT_IDEMPOTENCY).isEqualTo(Idempotency.IDEMPOTENT);
        KeyRecorder call = new KeyRecorder(2);
        retry.execute(call::call);
        assertThat(call.keys).containsExactly(null, null, null);
    }

    @Test
    void anIdempotentRetryCarriesTheCallersKeyAsItIs() throws Exception {
        Retry retry = Retry.of("puts", config().build());
        KeyRecorder call = new KeyRecorder(1);
        try (ContextScope scope = IdempotencyKey.of("put-7").attach()) {
            retry.execute(call::call);
        }
        assertThat(call.keys).extracting(IdempotencyKey::value).containsExactly("put-7", "put-7");
    }

    @Test
    void everyAttemptAcrossReplicasCarriesTheKey() throws Exception {
        ReplicaSet<String> replicas = ReplicaSet.of("shards", ReplicaSetConfig.builder().ticker(ticker)
                .random(RandomSource.seeded(3)).build(), List.of("a", "b", "c"));
        Retry retry = Retry.of("charges", keyed(5).build());
        KeyRecorder call = new KeyRecorder(2);
        List<String> tried = new ArrayList<>();
        retry.execute(replicas, replica -> {
            tried.add(replica);
            return call.call();
        });
        assertThat(tried).hasSize(3).doesNotHaveDuplicates();
        assertThat(new HashSet<>(call.keys)).hasSize(1).doesNotContainNull();
    }

    // ---- asynchronous attempts and hedges, on other threads ----

    @Test
    void asyncAttemptsOnAnotherThreadCarryTheSameKey() throws Exception {
        ManualScheduler scheduler = new ManualScheduler(ticker);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Retry retry = Retry.of("charges", keyed(9).scheduler(scheduler).executor(pool).build());
            KeyRecorder call = new KeyRecorder(2);
            CompletableFuture<String> result = retry.executeAsync(() -> {
                try {
                    return CompletableFuture.completedFuture(call.call());
                } catch (IOException e) {
                    return CompletableFuture.<String>failedFuture(e);
                }
            }).toCompletableFuture();
            assertThat(IdempotencyKey.currentOrNull()).as("the key is not left on the caller's thread").isNull();
            for (int retries = 0; retries < 2; retries++) {
                // The failed attempt arms its backoff on whichever thread it failed on (the pool's after the
                // first): advance only once that timer is registered, or the advance passes before it and
                // the timer lands a backoff later than this loop drives.
                org.awaitility.Awaitility.await().atMost(60, TimeUnit.SECONDS).until(() -> scheduler.pending() == 1);
                int attempts = call.calls.get();
                scheduler.advance(Duration.ofMillis(100));
                org.awaitility.Awaitility.await().atMost(60, TimeUnit.SECONDS).until(() -> call.calls.get() > attempts);
            }
            assertThat(result.get(60, TimeUnit.SECONDS)).isEqualTo("charged");
            assertThat(call.threads.get(0)).isSameAs(Thread.currentThread());
            assertThat(call.threads.subList(1, 3)).allMatch(t -> t != Thread.currentThread());
            assertThat(call.keys).hasSize(3).doesNotContainNull();
            assertThat(new HashSet<>(call.keys)).hasSize(1);
            assertThat(pool.submit(IdempotencyKey::currentOrNull).get()).as("the pooled worker forgot it").isNull();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aHedgeInsideAKeyedRetryRunsItsAttemptsOnOtherThreadsWithTheRetrysKey() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            Scheduler immediate = (task, delay) -> {
                task.run();
                return () -> false;
            };
            Hedge hedge = Hedge.of("hedge", HedgeConfig.builder().ticker(ticker).scheduler(immediate).executor(pool)
                    .withoutBudget().delay(Duration.ofMillis(50)).build());
            Retry retry = Retry.of("charges", keyed(11).build());
            List<IdempotencyKey> keys = new CopyOnWriteArrayList<>();
            List<Thread> threads = new CopyOnWriteArrayList<>();
            CountDownLatch bothStarted = new CountDownLatch(2);
            AtomicInteger calls = new AtomicInteger();
            String answer = Pipeline.of(retry, hedge).execute(() -> {
                keys.add(IdempotencyKey.currentOrNull());
                threads.add(Thread.currentThread());
                int n = calls.incrementAndGet();
                if (n <= 2) { // the first call: both attempts fail after both have started
                    bothStarted.countDown();
                    bothStarted.await();
                    throw new IOException("attempt " + n);
                }
                return "charged";
            });
            assertThat(answer).isEqualTo("charged");
            assertThat(keys).hasSizeGreaterThanOrEqualTo(3).doesNotContainNull();
            assertThat(new HashSet<>(keys)).as("the retry's key on every hedge attempt").hasSize(1);
            assertThat(threads).doesNotContain(Thread.currentThread());
            assertThat(new HashSet<>(threads.subList(0, 2))).as("the hedge ran on a second thread").hasSize(2);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aKeyedHedgeMakesOneKeyForAllItsAttempts() {
        ManualScheduler scheduler = new ManualScheduler(ticker);
        CountingGenerator generator = new CountingGenerator();
        Hedge hedge = Hedge.of("hedge", HedgeConfig.builder().ticker(ticker).scheduler(scheduler).asyncExecutor(Runnable::run)
                .delay(Duration.ofMillis(50)).maxHedges(2).idempotency(Idempotency.KEYED).keyGenerator(generator).build());
        List<IdempotencyKey> keys = new ArrayList<>();
        List<CompletableFuture<String>> attempts = new ArrayList<>();
        CompletableFuture<String> result = hedge.executeAsync(() -> {
            keys.add(IdempotencyKey.currentOrNull());
            CompletableFuture<String> f = new CompletableFuture<>();
            attempts.add(f);
            return f;
        }).toCompletableFuture();
        assertThat(IdempotencyKey.currentOrNull()).isNull();
        scheduler.advance(Duration.ofMillis(100));
        assertThat(attempts).hasSize(3);
        attempts.get(2).complete("third");
        assertThat(result.getNow(null)).isEqualTo("third");
        assertThat(keys).doesNotContainNull();
        assertThat(new HashSet<>(keys)).hasSize(1);
        assertThat(generator.made).hasValue(1);
    }

    @Test
    void aKeyedHedgeWithoutAKeyStartsNoHedge() {
        ManualScheduler scheduler = new ManualScheduler(ticker);
        Hedge hedge = Hedge.of("hedge", HedgeConfig.builder().ticker(ticker).scheduler(scheduler).asyncExecutor(Runnable::run)
                .delay(Duration.ofMillis(50)).withoutBudget().idempotency(Idempotency.KEYED)
                .keyGenerator(IdempotencyKeyGenerator.callerSupplied()).build());
        List<HedgeEvent> events = new ArrayList<>();
        hedge.onEvent(events::add);
        List<CompletableFuture<String>> attempts = new ArrayList<>();
        CompletableFuture<String> result = hedge.executeAsync(() -> {
            CompletableFuture<String> f = new CompletableFuture<>();
            attempts.add(f);
            return f;
        }).toCompletableFuture();
        scheduler.advance(Duration.ofSeconds(1));
        assertThat(attempts).hasSize(1);
        assertThat(events).containsExactly(new HedgeEvent.RejectedWithoutKey("hedge", 50_000_000L, 2));
        assertThat(hedge.metrics()).isEqualTo(new HedgeMetrics(1, 0, 0, 0, 1));
        attempts.get(0).complete("only");
        assertThat(result.getNow(null)).isEqualTo("only");
    }

    // ---- refusal: at build, and at the first retry decision ----

    @Test
    void buildRefusesRepeatingANonIdempotentCall() {
        assertThatThrownBy(() -> config().idempotency(Idempotency.NOT_IDEMPOTENT).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("Retry: maxAttempts must be 1 when idempotency is NOT_IDEMPOTENT (a repeated "
                        + "non-idempotent call without a key can execute twice; declare KEYED to retry it under an "
                        + "idempotency key) but was 3")
                .satisfies(e -> assertThat(((InvalidConfigException) e).field()).isEqualTo("maxAttempts"));
        assertThatThrownBy(() -> config().idempotency(Idempotency.NOT_IDEMPOTENT).unlimitedAttempts()
                .maxDuration(Duration.ofSeconds(1)).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageEndingWith("but was unlimited");
        assertThat(config().idempotency(Idempotency.NOT_IDEMPOTENT).maxAttempts(1).build().idempotency())
                .isEqualTo(Idempotency.NOT_IDEMPOTENT);
    }

    @Test
    void buildRefusesNullDeclarations() {
        assertThatThrownBy(() -> config().idempotency(null).build()).isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("Retry: idempotency must be");
        assertThatThrownBy(() -> config().keyGenerator(null).build()).isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("Retry: keyGenerator must be");
        assertThatThrownBy(() -> HedgeConfig.builder().idempotency(null).build()).isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("Hedge: idempotency must be");
        assertThatThrownBy(() -> HedgeConfig.builder().keyGenerator(null).build()).isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("Hedge: keyGenerator must be");
        assertThatThrownBy(() -> IdempotencyKeyGenerator.randomUuid(null)).isInstanceOf(InvalidConfigException.class);
    }

    @Test
    void buildRefusesHedgingANonIdempotentCall() {
        assertThatThrownBy(() -> HedgeConfig.builder().idempotency(Idempotency.NOT_IDEMPOTENT).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageStartingWith("Hedge: idempotency must be IDEMPOTENT or KEYED")
                .hasMessageEndingWith("but was NOT_IDEMPOTENT");
        assertThat(HedgeConfig.builder().idempotency(Idempotency.KEYED).build().toBuilder().build().idempotency())
                .isEqualTo(Idempotency.KEYED);
    }

    @Test
    void theConfigKeepsItsDeclarationThroughToBuilder() {
        IdempotencyKeyGenerator generator = IdempotencyKeyGenerator.callerSupplied();
        RetryConfig c = config().idempotency(Idempotency.KEYED).keyGenerator(generator).build().toBuilder().build();
        assertThat(c.idempotency()).isEqualTo(Idempotency.KEYED);
        assertThat(c.keyGenerator()).isSameAs(generator);
        assertThat(RetryConfig.defaults().keyGenerator()).isSameAs(RetryConfig.DEFAULT_KEY_GENERATOR);
        assertThat(generator).hasToString("IdempotencyKeyGenerator.callerSupplied()");
    }

    @Test
    void aKeyedCallWithoutAKeyIsNotRetriedAndItsFailureComesOutUnchanged() {
        Retry retry = Retry.of("charges", config().idempotency(Idempotency.KEYED)
                .keyGenerator(IdempotencyKeyGenerator.callerSupplied()).build());
        List<RetryEvent> events = new ArrayList<>();
        retry.onEvent(events::add);
        KeyRecorder call = new KeyRecorder(5);
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> retry.execute(call::call));
        assertThat(thrown).isInstanceOf(IOException.class).hasMessage("lost response 1");
        assertThat(call.calls).as("never repeated").hasValue(1);
        assertThat(thrown.getSuppressed()).hasSize(1);
        assertThat(thrown.getSuppressed()[0]).isInstanceOf(MissingIdempotencyKeyException.class)
                .hasMessageStartingWith("Retry 'charges': not retried: the call is declared KEYED but carries no idempotency key");
        assertThat(((MissingIdempotencyKeyException) thrown.getSuppressed()[0]).policyName()).isEqualTo("charges");
        assertThat(events).hasSize(2);
        assertThat(events.get(0)).isEqualTo(new RetryEvent.RejectedWithoutKey("charges", ticker.read(), 1, thrown, null));
        assertThat(events.get(1)).isInstanceOfSatisfying(RetryEvent.GaveUp.class,
                g -> assertThat(g.reason()).isEqualTo(GiveUpReason.NO_IDEMPOTENCY_KEY));
        assertThat(retry.metrics()).isEqualTo(new RetryMetrics(0, 0, 1, 0, 0, 0, 1));
    }

    @Test
    void theRefusalIsAddedOnceToAFailureThrownAgain() {
        Retry retry = Retry.of("charges", config().idempotency(Idempotency.KEYED)
                .keyGenerator(IdempotencyKeyGenerator.callerSupplied()).build());
        IOException shared = new IOException("shared");
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> retry.execute(() -> {
                throw shared;
            })).isSameAs(shared);
        }
        assertThat(shared.getSuppressed()).hasSize(1);
        assertThat(retry.metrics().rejectedWithoutKey()).isEqualTo(3);
    }

    @Test
    void aKeyedFailedResultWithoutAKeyIsReturnedNotRetried() {
        Retry retry = Retry.of("charges", config().idempotency(Idempotency.KEYED)
                .keyGenerator(IdempotencyKeyGenerator.callerSupplied()).retryOnResult("503"::equals).build());
        AtomicInteger calls = new AtomicInteger();
        assertThat(retry.execute(() -> {
            calls.incrementAndGet();
            return "503";
        })).isEqualTo("503");
        assertThat(calls).hasValue(1);
        assertThat(retry.metrics().rejectedWithoutKey()).isEqualTo(1);
    }

    @Test
    void aKeyedCallWithTheCallersKeyIsRetriedWithIt() throws Exception {
        Retry retry = Retry.of("charges", config().idempotency(Idempotency.KEYED)
                .keyGenerator(IdempotencyKeyGenerator.callerSupplied()).build());
        KeyRecorder call = new KeyRecorder(2);
        try (ContextScope scope = IdempotencyKey.of("order-7").attach()) {
            assertThat(retry.execute(call::call)).isEqualTo("charged");
        }
        assertThat(call.keys).extracting(IdempotencyKey::value).containsExactly("order-7", "order-7", "order-7");
        assertThat(retry.metrics().rejectedWithoutKey()).isZero();
    }

    @Test
    void aNonRetryableFailureOfAKeylessCallIsNotCountedAsARefusal() {
        Retry retry = Retry.of("charges", RetryConfig.builder().ticker(ticker).sleeper(ticker)
                .idempotency(Idempotency.KEYED).keyGenerator(IdempotencyKeyGenerator.callerSupplied()).build());
        IllegalStateException bug = new IllegalStateException("not transient");
        assertThatThrownBy(() -> retry.execute(() -> {
            throw bug;
        })).isSameAs(bug);
        assertThat(bug.getSuppressed()).isEmpty();
        assertThat(retry.metrics().rejectedWithoutKey()).isZero();
    }

    @Test
    void anAsyncKeyedCallWithoutAKeyIsNotRetried() {
        ManualScheduler scheduler = new ManualScheduler(ticker);
        Retry retry = Retry.of("charges", config().idempotency(Idempotency.KEYED).scheduler(scheduler).executor(Runnable::run)
                .keyGenerator(IdempotencyKeyGenerator.callerSupplied()).build());
        AtomicInteger calls = new AtomicInteger();
        IOException lost = new IOException("lost");
        CompletionStage<String> stage = retry.executeAsync(() -> {
            calls.incrementAndGet();
            return CompletableFuture.failedFuture(lost);
        });
        scheduler.advance(Duration.ofSeconds(10));
        assertThat(calls).hasValue(1);
        assertThat(stage.toCompletableFuture()).isCompletedExceptionally();
        assertThat(stage.toCompletableFuture().handle((v, t) -> t).join()).isSameAs(lost);
        assertThat(retry.metrics().rejectedWithoutKey()).isEqualTo(1);
    }

    // ---- no leak to the next call on the same thread ----

    @Test
    void theKeyIsGoneAfterTheCallWhateverItsOutcome() {
        Retry retry = Retry.of("charges", keyed(3).maxAttempts(2).build());
        assertThatThrownBy(() -> retry.execute(() -> {
            throw new IOException("always");
        })).isInstanceOf(IOException.class);
        assertThat(IdempotencyKey.currentOrNull()).isNull();
        assertThatThrownBy(() -> retry.execute(() -> {
            throw new OutOfMemoryError("an Error is never retried");
        })).isInstanceOf(OutOfMemoryError.class);
        assertThat(IdempotencyKey.currentOrNull()).isNull();
        List<IdempotencyKey> keys = new ArrayList<>();
        retry.execute(() -> keys.add(IdempotencyKey.currentOrNull()));
        retry.execute(() -> keys.add(IdempotencyKey.currentOrNull()));
        assertThat(keys.get(0)).isNotEqualTo(keys.get(1));
        assertThat(IdempotencyKey.currentOrNull()).isNull();
    }

    @Test
    void onAVirtualThreadTheKeyIsGoneAfterTheCall() throws Exception {
        Assumptions.assumeTrue(VirtualThreads.supported(), "virtual threads need JDK 21+");
        Retry retry = Retry.of("charges", keyed(4).build());
        ExecutorService virtual = VirtualThreads.threadPerTaskExecutor("keyed");
        try {
            List<IdempotencyKey> afterwards = virtual.submit(() -> {
                KeyRecorder call = new KeyRecorder(1);
                retry.execute(call::call);
                List<IdempotencyKey> seen = new ArrayList<>(call.keys);
                seen.add(IdempotencyKey.currentOrNull());
                return seen;
            }).get(60, TimeUnit.SECONDS);
            assertThat(afterwards.get(0)).isNotNull().isEqualTo(afterwards.get(1));
            assertThat(afterwards.get(2)).isNull();
        } finally {
            virtual.shutdownNow();
        }
    }

    @Test
    void theRefusalIsCountedInTheRejectedCounterWithItsKind() {
        Retry retry = Retry.of("charges", config().idempotency(Idempotency.KEYED)
                .keyGenerator(IdempotencyKeyGenerator.callerSupplied()).build());
        io.micrometer.core.instrument.simple.SimpleMeterRegistry registry = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
        new RetryMetricsBinder(retry).bindTo(registry);
        assertThatThrownBy(() -> retry.execute(() -> {
            throw new IOException("lost");
        })).isInstanceOf(IOException.class);
        assertThat(registry.get("levee.retry.rejected").tag("name", "charges").tag("kind", "no_idempotency_key")
                .functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("levee.retry.rejected").tag("name", "charges").tag("kind", "retry_budget")
                .functionCounter().count()).isZero();
    }
}
