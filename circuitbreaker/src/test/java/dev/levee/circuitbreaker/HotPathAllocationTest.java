package dev.levee.circuitbreaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.levee.core.ManualTicker;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The hot paths allocate nothing: checked with the JVM's per-thread allocation counter (not a timing).
 * The paths contain no {@code new}, so this holds in the interpreter as well as in compiled code; JMH's
 * {@code -prof gc} in {@code benchmarks/} gives the exact figure (0 B/op).
 */
class HotPathAllocationTest {
    private static final int CALLS = 50_000;

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    private static long allocationOf(Runnable body) {
        body.run(); // warm up: lazily created JDK structures, class loading
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 3; round++) {
            long empty = measure(() -> { });
            best = Math.min(best, measure(body) - empty); // the probe itself allocates a little
        }
        return best;
    }

    /**
     * Less than one byte per call: any allocation on the path would cost at least 16 bytes per call;
     * what remains is the JVM's own noise (a compilation switching code, the probe's own objects).
     */
    private static final long NOISE = CALLS;

    private static long measure(Runnable body) {
        long before = allocatedBytes();
        body.run();
        return allocatedBytes() - before;
    }

    private static void assumeSupported() {
        assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean);
        assumeTrue(allocatedBytes() >= 0);
    }

    @Test
    void closedSuccessAllocatesNothingInEitherWindow() {
        assumeSupported();
        ManualTicker ticker = new ManualTicker();
        for (CircuitBreakerConfig.Builder b : new CircuitBreakerConfig.Builder[] {
                CircuitBreakerConfig.builder().countWindow(100), CircuitBreakerConfig.builder().timeWindow(10, 10)}) {
            CircuitBreaker breaker = CircuitBreaker.of("alloc", b.ticker(ticker).build());
            long bytes = allocationOf(() -> {
                for (int i = 0; i < CALLS; i++) {
                    if (breaker.tryAcquire(ticker.read())) {
                        breaker.onSuccess(1_000L);
                    }
                    ticker.advance(1_000_000L); // rolls the time window's buckets too
                }
            });
            assertThat(bytes).as(breaker.config().slidingWindowType().toString()).isLessThan(NOISE);
        }
    }

    @Test
    void recordingFailuresAndRefusingAllocateNothingWithoutListeners() {
        assumeSupported();
        ManualTicker ticker = new ManualTicker();
        CircuitBreaker breaker = CircuitBreaker.of("alloc", CircuitBreakerConfig.builder().countWindow(100)
                .minimumNumberOfCalls(100).failureRateThreshold(1).ticker(ticker).build());
        RuntimeException failure = new RuntimeException("same instance every time");
        long bytes = allocationOf(() -> {
            for (int i = 0; i < CALLS; i++) {
                breaker.tryAcquire(ticker.read());
                if (i % 3 == 0) {
                    breaker.onFailure(1_000L, failure);
                } else {
                    breaker.onSuccess(1_000L);
                }
            }
        });
        assertThat(bytes).isLessThan(NOISE);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);

        CircuitBreaker open = CircuitBreaker.of("open", CircuitBreakerConfig.builder()
                .waitDurationInOpen(Duration.ofHours(1)).ticker(ticker).build());
        open.transitionToOpen();
        long refusing = allocationOf(() -> {
            for (int i = 0; i < CALLS; i++) {
                open.tryAcquire(ticker.read());
            }
        });
        assertThat(refusing).isLessThan(NOISE);
    }
}
