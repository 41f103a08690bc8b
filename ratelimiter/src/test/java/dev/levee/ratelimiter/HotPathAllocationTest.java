package dev.levee.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.levee.core.ManualTicker;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every decision form allocates nothing, granted or refused, including the zero-permit peek: checked
 * with the JVM's per-thread allocation counter (not a timing). JMH's {@code -prof gc} gives the exact
 * figure (0 B/op).
 */
class HotPathAllocationTest {
    private static final int CALLS = 50_000;
    /** Less than one byte per call: any allocation on the path would cost at least 16 bytes per call. */
    private static final long NOISE = CALLS;

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    private static long measure(Runnable body) {
        long before = allocatedBytes();
        body.run();
        return allocatedBytes() - before;
    }

    private static long allocationOf(Runnable body) {
        body.run();
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 3; round++) {
            long empty = measure(() -> { });
            best = Math.min(best, measure(body) - empty);
        }
        return best;
    }

    @ParameterizedTest
    @EnumSource(RateLimitAlgorithm.class)
    void decisionsAndPeeksAllocateNothing(RateLimitAlgorithm algorithm) {
        assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean);
        assumeTrue(allocatedBytes() >= 0);
        ManualTicker ticker = new ManualTicker(1_000_000_000L);
        RateLimiter limiter = RateLimiter.of("alloc", RateLimiterConfig.builder().algorithm(algorithm)
                .rate(1_000, Duration.ofSeconds(1)).ticker(ticker).sleeper(ticker).build());
        RateLimitDecision decision = new RateLimitDecision();
        long[] now = {ticker.read()};
        long allocated = allocationOf(() -> {
            for (int i = 0; i < CALLS; i++) {
                now[0] += 400_000L; // a little faster than the rate: grants and refusals both
                limiter.tryAcquire(1, now[0]);
                limiter.tryAcquire(1, now[0], decision);
                limiter.reserve(1, now[0], 0L);
                limiter.peek(now[0], decision);
            }
        });
        assertThat(allocated).as("%s: bytes for %d rounds", algorithm, CALLS).isLessThan(NOISE);
    }

    /** A keyed decision on present keys, granted or refused, in the state table and in the registry. */
    @ParameterizedTest
    @EnumSource(value = RateLimitAlgorithm.class, names = {"GCRA", "LEAKY_BUCKET", "TOKEN_BUCKET"})
    void keyedDecisionsOnPresentKeysAllocateNothing(RateLimitAlgorithm algorithm) {
        assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean);
        assumeTrue(allocatedBytes() >= 0);
        ManualTicker ticker = new ManualTicker(1_000_000_000L);
        KeyedRateLimiter<String> keyed = KeyedRateLimiter.<String>builder("alloc").defaultConfig(RateLimiterConfig.builder()
                .algorithm(algorithm).rate(1_000, Duration.ofSeconds(1)).ticker(ticker).sleeper(ticker).build()).build();
        String[] keys = new String[64];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = "tenant-" + k;
            keyed.tryAcquire(keys[k]);
        }
        RateLimitDecision decision = new RateLimitDecision();
        long allocated = allocationOf(() -> {
            for (int i = 0; i < CALLS; i++) {
                ticker.advance(10_000L); // far faster than the rate: grants and refusals
                keyed.tryAcquire(keys[i & 63]);
                keyed.tryAcquire(keys[(i + 7) & 63], 1, decision);
            }
        });
        assertThat(allocated).as("keyed %s: bytes for %d rounds", algorithm, CALLS).isLessThan(NOISE);
    }
}
