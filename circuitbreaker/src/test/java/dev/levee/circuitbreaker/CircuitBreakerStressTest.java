package dev.levee.circuitbreaker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Hammers the breaker from 16 threads and checks its invariants exactly. */
class CircuitBreakerStressTest {
    private static final int THREADS = 16;

    private static void onThreads(int threads, ThrowingRunnable body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    body.run(id);
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @FunctionalInterface
    interface ThrowingRunnable {
        void run(int thread) throws Exception;
    }

    @Test
    void halfOpenAdmitsExactlyThePermittedProbesUnderContention() throws Exception {
        for (int round = 0; round < 50; round++) {
            ManualTicker ticker = new ManualTicker();
            int permitted = 1 + round % 7;
            CircuitBreaker breaker = CircuitBreaker.of("stress", CircuitBreakerConfig.builder()
                    .permittedCallsInHalfOpen(permitted).waitDurationInOpen(Duration.ofSeconds(1)).ticker(ticker).build());
            breaker.transitionToOpen();
            ticker.advance(Duration.ofSeconds(1));
            AtomicInteger admitted = new AtomicInteger();
            onThreads(THREADS, t -> {
                for (int i = 0; i < 200; i++) {
                    if (breaker.tryAcquire(ticker.read())) {
                        admitted.incrementAndGet();
                    }
                }
            });
            assertThat(admitted.get()).as("round %d", round).isEqualTo(permitted);
            assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
            assertThat(breaker.notPermittedCalls()).isEqualTo(THREADS * 200L - permitted);
        }
    }

    @Test
    void concurrentProbeCompletionsMakeExactlyOneDecision() throws Exception {
        for (int round = 0; round < 40; round++) {
            boolean probesFail = round % 2 == 1;
            ManualTicker ticker = new ManualTicker();
            CircuitBreaker breaker = CircuitBreaker.of("stress", CircuitBreakerConfig.builder()
                    .permittedCallsInHalfOpen(8).waitDurationInOpen(Duration.ofSeconds(1)).ticker(ticker).build());
            breaker.transitionToOpen();
            ticker.advance(Duration.ofSeconds(1));
            java.util.Queue<CircuitBreakerEvent.StateTransitioned> transitions = new java.util.concurrent.ConcurrentLinkedQueue<>();
            breaker.onStateTransition(transitions::add);
            CyclicBarrier admittedAll = new CyclicBarrier(THREADS);
            onThreads(THREADS, t -> {
                boolean admitted = breaker.tryAcquire(ticker.read());
                admittedAll.await(); // every probe is out before any comes back
                if (admitted) {
                    if (probesFail) {
                        breaker.onFailure(1_000L, new java.io.IOException());
                    } else {
                        breaker.onSuccess(1_000L);
                    }
                }
            });
            assertThat(transitions).as("round %d", round).hasSize(2); // OPEN -> HALF_OPEN, then one decision
            CircuitBreakerEvent.StateTransitioned decision = transitions.stream().skip(1).findFirst().orElseThrow();
            assertThat(decision.from()).isEqualTo(CircuitState.HALF_OPEN);
            assertThat(decision.to()).isEqualTo(probesFail ? CircuitState.OPEN : CircuitState.CLOSED);
            assertThat(breaker.state()).isEqualTo(decision.to());
        }
    }

    @Test
    void givenBackProbesAreReadmittedButNeverMoreThanPermittedAtOnce() throws Exception {
        ManualTicker ticker = new ManualTicker();
        int permitted = 4;
        CircuitBreaker breaker = CircuitBreaker.of("stress", CircuitBreakerConfig.builder()
                .permittedCallsInHalfOpen(permitted).waitDurationInOpen(Duration.ofSeconds(1)).ticker(ticker).build());
        breaker.transitionToOpen();
        ticker.advance(Duration.ofSeconds(1));
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger maxInFlight = new AtomicInteger();
        AtomicInteger admissions = new AtomicInteger();
        onThreads(THREADS, t -> {
            for (int i = 0; i < 5_000; i++) {
                if (breaker.tryAcquire(ticker.read())) {
                    int now = inFlight.incrementAndGet();
                    maxInFlight.accumulateAndGet(now, Math::max);
                    admissions.incrementAndGet();
                    inFlight.decrementAndGet();
                    breaker.onIgnored();
                }
            }
        });
        assertThat(maxInFlight.get()).isLessThanOrEqualTo(permitted);
        assertThat(admissions.get()).isGreaterThan(permitted);
        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
    }

    @Test
    void countWindowRecordsEveryCall() throws Exception {
        int perThread = 20_000;
        CircuitBreaker breaker = CircuitBreaker.of("stress", CircuitBreakerConfig.builder()
                .countWindow(THREADS * perThread).minimumNumberOfCalls(THREADS * perThread).failureRateThreshold(1)
                .slowCallDurationThreshold(Duration.ofMillis(10)).ticker(new ManualTicker()).build());
        onThreads(THREADS, t -> record(breaker, t, perThread));
        CircuitBreakerMetrics m = breaker.metrics();
        assertThat(m.calls()).isEqualTo(THREADS * (long) perThread);
        assertThat(m.failedCalls()).isEqualTo(expectedFailures(perThread));
        assertThat(m.slowCalls()).isEqualTo(expectedSlow(perThread));
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void countWindowSmallerThanTheCallsHoldsExactlyItsSizeAfterwards() throws Exception {
        int perThread = 20_000;
        CircuitBreaker breaker = CircuitBreaker.of("stress", CircuitBreakerConfig.builder()
                .countWindow(1000).minimumNumberOfCalls(1000).failureRateThreshold(1)
                .ticker(new ManualTicker()).build());
        onThreads(THREADS, t -> {
            for (int i = 0; i < perThread; i++) {
                breaker.tryAcquire(0L);
                if (i % 3 == 0) {
                    breaker.onFailure(1, new java.io.IOException());
                } else {
                    breaker.onSuccess(1);
                }
            }
        });
        CircuitBreakerMetrics m = breaker.metrics();
        assertThat(m.calls()).isEqualTo(1000);
        // Whatever interleaving, the totals equal the slots: re-fill the window with successes only.
        for (int i = 0; i < 1000; i++) {
            breaker.onSuccess(1);
        }
        assertThat(breaker.metrics().failedCalls()).isZero();
        assertThat(breaker.metrics().calls()).isEqualTo(1000);
    }

    @Test
    void timeWindowRecordsEveryCall() throws Exception {
        int perThread = 20_000;
        ManualTicker ticker = new ManualTicker(7);
        CircuitBreaker breaker = CircuitBreaker.of("stress", CircuitBreakerConfig.builder()
                .timeWindow(10, 10).minimumNumberOfCalls(1_000_000).failureRateThreshold(1)
                .slowCallDurationThreshold(Duration.ofMillis(10)).ticker(ticker).build());
        CountDownLatch half = new CountDownLatch(THREADS);
        Thread mover = new Thread(() -> {
            // Move time across several bucket boundaries while the threads record, staying inside the window.
            try {
                half.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            for (int i = 0; i < 5; i++) {
                ticker.advance(Duration.ofMillis(900));
            }
        });
        mover.start();
        onThreads(THREADS, t -> {
            record(breaker, t, perThread / 2);
            half.countDown();
            record(breaker, t, perThread - perThread / 2);
        });
        mover.join();
        CircuitBreakerMetrics m = breaker.metrics();
        long expectedFailures = 2L * THREADS * failuresIn(perThread / 2);
        assertThat(m.calls()).isEqualTo(THREADS * (long) perThread);
        assertThat(m.failedCalls()).isEqualTo(expectedFailures);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    /** Every 10th call fails, every 7th is slow (20 ms). */
    private static void record(CircuitBreaker breaker, int thread, int calls) {
        for (int i = 0; i < calls; i++) {
            if (!breaker.tryAcquire(0L)) {
                throw new AssertionError("refused");
            }
            long latency = i % 7 == 0 ? 20_000_000L : 1_000L;
            if (i % 10 == 0) {
                breaker.onFailure(latency, new java.io.IOException());
            } else {
                breaker.onSuccess(latency);
            }
        }
    }

    private static long failuresIn(int calls) {
        return (calls + 9) / 10;
    }

    private static long expectedFailures(int perThread) {
        return THREADS * failuresIn(perThread);
    }

    private static long expectedSlow(int perThread) {
        return THREADS * (long) ((perThread + 6) / 7);
    }

    /**
     * Issue 12, bug 1 under contention: half the window's minimum fails first, then 16 threads race
     * the successes that complete it. Whichever recording brings the window to its minimum checks the
     * rules, so the breaker opens (50 % >= 50 %) in every round, for both window types.
     */
    @Test
    void successesRacingToCompleteTheMinimumAlwaysOpenTheBreaker() throws Exception {
        for (boolean timeBased : new boolean[] {false, true}) {
            for (int round = 0; round < 20; round++) {
                ManualTicker ticker = new ManualTicker(1_000_000_000_000L);
                CircuitBreakerConfig.Builder b = CircuitBreakerConfig.builder().minimumNumberOfCalls(THREADS * 64)
                        .failureRateThreshold(0.5).ticker(ticker);
                b = timeBased ? b.timeWindow(10, 10) : b.countWindow(THREADS * 64);
                CircuitBreaker breaker = CircuitBreaker.of("race", b.build());
                for (int i = 0; i < THREADS * 32; i++) {
                    assertThat(breaker.tryAcquire(ticker.read())).isTrue();
                    breaker.onFailure(1_000L, new java.io.IOException("down"));
                }
                assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED); // below the minimum
                onThreads(THREADS, t -> {
                    for (int i = 0; i < 32; i++) {
                        breaker.tryAcquire(ticker.read());
                        breaker.onSuccess(1_000L);
                    }
                });
                assertThat(breaker.state()).as("%s window, round %d", timeBased ? "time" : "count", round)
                        .isEqualTo(CircuitState.OPEN);
            }
        }
    }
}
