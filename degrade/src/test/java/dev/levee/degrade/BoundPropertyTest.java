package dev.levee.degrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import dev.levee.degrade.internal.LogLimiter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The documented bounds, checked over seeded random schedules and many threads. */
class BoundPropertyTest {

    /** LastKnownGood never serves a value older than T, and always serves one that is not, on any schedule. */
    @Test
    void lastKnownGoodServesExactlyTheValuesNoOlderThanT() {
        for (long seed = 1; seed <= 20; seed++) {
            RandomSource random = RandomSource.seeded(seed);
            ManualTicker ticker = new ManualTicker(random.nextLong(1_000_000_000L) - 500_000_000L);
            long t = 1 + random.nextLong(5_000_000_000L);
            LastKnownGood<Integer, Long> cache = LastKnownGood.of("property-" + seed, LastKnownGoodConfig.builder()
                    .maxStaleness(Duration.ofNanos(t)).maxEntries(1_000)
                    .fallback(FallbackConfig.builder().ticker(ticker).warnInterval(Duration.ofHours(1)).build()).build());
            Map<Integer, Long> storedAt = new HashMap<>();
            for (int step = 0; step < 2_000; step++) {
                ticker.advance(random.nextLong(2 * t / 3 + 1));
                int key = (int) random.nextLong(8);
                if (random.nextDouble() < 0.3) {
                    long now = ticker.read();
                    cache.execute(key, () -> now);
                    storedAt.put(key, now);
                    continue;
                }
                Long stamp = storedAt.get(key);
                long now = ticker.read();
                boolean servable = stamp != null && now - stamp <= t;
                try {
                    Degraded<Long> served = cache.executeDegraded(key, () -> {
                        throw new IllegalStateException("down");
                    });
                    if (!servable) {
                        fail("seed %d: served a value of age %d > T = %d", seed, now - served.value(), t);
                    }
                    assertThat(served.value()).isEqualTo(stamp);
                    assertThat(served.age()).isEqualTo(Duration.ofNanos(now - stamp));
                } catch (IllegalStateException refused) {
                    if (servable) {
                        fail("seed %d: refused a value of age %d <= T = %d", seed, now - stamp, t);
                    }
                }
            }
        }
    }

    /** Of every call within one interval exactly one logs, and it reports all the others. */
    @Test
    void theLogLimiterLetsExactlyOneLinePerIntervalThroughAndCountsTheRest() throws Exception {
        ManualTicker ticker = new ManualTicker();
        LogLimiter limiter = new LogLimiter(1_000L, ticker.read());
        int threads = 16;
        int rounds = 50;
        int callsPerRound = 200;
        AtomicLong logged = new AtomicLong();
        AtomicLong reportedHeld = new AtomicLong();
        for (int round = 0; round < rounds; round++) {
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> workers = new ArrayList<>();
            AtomicLong winnersThisRound = new AtomicLong();
            for (int t = 0; t < threads; t++) {
                Thread worker = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < callsPerRound; i++) {
                        long held = limiter.tryLog(ticker.read());
                        if (held >= 0) {
                            winnersThisRound.incrementAndGet();
                            logged.incrementAndGet();
                            reportedHeld.addAndGet(held);
                        }
                    }
                });
                worker.start();
                workers.add(worker);
            }
            start.countDown();
            for (Thread worker : workers) {
                worker.join();
            }
            assertThat(winnersThisRound).hasValue(1);
            ticker.advance(1_000L);
        }
        long total = (long) rounds * threads * callsPerRound;
        assertThat(logged).hasValue(rounds);
        // Every held line is reported exactly once by a later winner (one of its own interval's, if
        // it was held while that winner was reading the count): one more winner flushes the rest.
        reportedHeld.addAndGet(limiter.tryLog(ticker.read()));
        assertThat(reportedHeld.get()).isEqualTo(total - rounds);
    }
}
