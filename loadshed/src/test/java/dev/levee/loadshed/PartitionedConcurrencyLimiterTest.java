package dev.levee.loadshed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.Gate;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import dev.levee.core.ShedException;
import dev.levee.loadshed.limit.FixedLimit;
import dev.levee.loadshed.sim.Admission;
import dev.levee.loadshed.sim.SimRequest;
import dev.levee.loadshed.sim.SimStats;
import dev.levee.loadshed.sim.Simulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PartitionedConcurrencyLimiterTest {
    private final ManualTicker ticker = new ManualTicker(1_000_000_000L);

    private PartitionedConcurrencyLimiter limiter(int limit) {
        return PartitionedConcurrencyLimiter.of("api", ConcurrencyLimiterConfig.builder()
                .algorithm(() -> FixedLimit.of(limit)).ticker(ticker).build(),
                Partitions.builder().add("checkout", 0.7).add("search", 0.3).build());
    }

    @Test
    void anIdlePartitionLendsItsShareAndGetsItBackAsBorrowersComplete() {
        PartitionedConcurrencyLimiter l = limiter(10);
        Gate checkout = l.partition("checkout");
        Gate search = l.partition("search");
        long now = ticker.read();
        for (int i = 0; i < 10; i++) {
            assertThat(search.tryAcquire(now)).as("search borrows idle checkout capacity").isTrue();
        }
        assertThat(search.tryAcquire(now)).isFalse();
        assertThat(checkout.tryAcquire(now)).as("total at the limit").isFalse();
        // Checkout is now active: search may not take the slots search frees.
        search.onSuccess(1);
        assertThat(search.tryAcquire(now)).isFalse();
        assertThat(checkout.tryAcquire(now)).isTrue();
        for (int i = 0; i < 6; i++) {
            search.onSuccess(1);
            assertThat(search.tryAcquire(now)).isFalse();
            assertThat(checkout.tryAcquire(now)).isTrue();
        }
        assertThat(l.inflight("checkout")).isEqualTo(7);
        assertThat(l.inflight("search")).isEqualTo(3);
        assertThat(l.guaranteed("checkout")).isEqualTo(7);
        assertThat(l.guaranteed("search")).isEqualTo(3);
        // At their shares, both compete for nothing more: the limit is full.
        assertThat(checkout.tryAcquire(now)).isFalse();
        assertThat(search.tryAcquire(now)).isFalse();
        // Search within its share is admitted as soon as a search slot frees.
        search.onSuccess(1);
        assertThat(search.tryAcquire(now)).isTrue();
        assertThat(l.rejectedCount("search")).isGreaterThan(0);
        assertThat(search.rejection(now)).isInstanceOf(ShedException.class);
    }

    @Test
    void aPartitionSilentLongerThanTheIdleTimeoutLendsItsShareAgain() {
        PartitionedConcurrencyLimiter l = limiter(10);
        Gate checkout = l.partition("checkout");
        Gate search = l.partition("search");
        assertThat(checkout.tryAcquire(ticker.read())).isTrue();
        checkout.onSuccess(1);
        for (int i = 0; i < 3; i++) {
            assertThat(search.tryAcquire(ticker.read())).isTrue();
        }
        assertThat(search.tryAcquire(ticker.read())).as("checkout active: its 7 are reserved").isFalse();
        ticker.advance(Duration.ofSeconds(2));
        assertThat(search.tryAcquire(ticker.read())).as("checkout idle: lent").isTrue();
    }

    @Test
    void sharesHoldUnderContentionOnTheSimulatedServer() {
        ManualTicker t = new ManualTicker();
        PartitionedConcurrencyLimiter l = PartitionedConcurrencyLimiter.of("api", ConcurrencyLimiterConfig.builder()
                .algorithm(() -> FixedLimit.of(12)).ticker(t).build(),
                Partitions.builder().add("checkout", 0.7).add("search", 0.3).build());
        AtomicLong checkoutGood = new AtomicLong();
        AtomicLong searchGood = new AtomicLong();
        Admission partitioned = Admission.keyed(r -> l.partition(r.key() == null ? "search" : r.key()));
        Admission counting = new Admission() {
            @Override
            public boolean tryAdmit(SimRequest request, long nowNanos) {
                return partitioned.tryAdmit(request, nowNanos);
            }

            @Override
            public void onComplete(SimRequest request, long nowNanos) {
                partitioned.onComplete(request, nowNanos);
                if (request.isGood()) {
                    ("checkout".equals(request.key()) ? checkoutGood : searchGood).incrementAndGet();
                }
            }
        };
        // 2x overload, half the traffic each: both partitions want more than their share.
        Simulation sim = OverloadSimulationTest.server(2.0, 3).ticker(t).admission(counting)
                .tagger((r, rnd) -> r.key(rnd.nextDouble() < 0.5 ? "checkout" : "search")).build();
        sim.runFor(Duration.ofSeconds(5));
        checkoutGood.set(0);
        searchGood.set(0);
        SimStats steady = sim.measure();
        int[] maxInflight = new int[1];
        sim.every(Duration.ofMillis(1), now -> maxInflight[0] = Math.max(maxInflight[0], l.inflight()));
        sim.runFor(Duration.ofSeconds(30));
        steady.stop();
        double total = checkoutGood.get() + searchGood.get();
        assertThat(checkoutGood.get() / total).as("checkout share of goodput").isGreaterThanOrEqualTo(0.65);
        assertThat(searchGood.get() / total).as("search share of goodput").isGreaterThanOrEqualTo(0.25);
        assertThat(steady.goodputFractionOfCapacity()).isGreaterThanOrEqualTo(0.9);
        assertThat(maxInflight[0]).isLessThanOrEqualTo(12);
    }

    @Test
    void sixteenThreadsNeverExceedTheLimitAndEveryPermitIsReturned() throws InterruptedException {
        PartitionedConcurrencyLimiter l = limiter(10);
        AtomicInteger inside = new AtomicInteger();
        AtomicLong violations = new AtomicLong();
        AtomicLong[] admitted = {new AtomicLong(), new AtomicLong()};
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            int p = i % 2;
            Gate gate = l.partition(p == 0 ? "checkout" : "search");
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int n = 0; n < 20_000; n++) {
                    if (gate.tryAcquire(ticker.read())) {
                        admitted[p].incrementAndGet();
                        if (inside.incrementAndGet() > 10) {
                            violations.incrementAndGet();
                        }
                        inside.decrementAndGet();
                        gate.onSuccess(1);
                    }
                }
            });
            threads.add(thread);
            thread.start();
        }
        start.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertThat(violations.get()).isZero();
        assertThat(l.inflight()).isZero();
        assertThat(l.inflight("checkout")).isZero();
        assertThat(l.inflight("search")).isZero();
        assertThat(admitted[0].get()).isGreaterThan(0);
        assertThat(admitted[1].get()).isGreaterThan(0);
    }

    @Test
    void sharesAreFractionsSummingToOne() {
        assertThatThrownBy(() -> Partitions.builder().add("a", 70).add("b", 30).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("PartitionedConcurrencyLimiter: share of 'a' must be a fraction in (0, 1] (0.7 means 70 %; "
                        + "this looks like a percent) but was 70.0");
        assertThatThrownBy(() -> Partitions.builder().add("a", 0.7).add("b", 0.2).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("PartitionedConcurrencyLimiter: shares must be summing to 1.0 but was 0.8999999999999999");
        assertThatThrownBy(() -> Partitions.builder().add("a", 0).add("b", 1).build())
                .hasMessage("PartitionedConcurrencyLimiter: share of 'a' must be in (0, 1] but was 0.0");
        assertThatThrownBy(() -> Partitions.builder().add("a", -0.5).add("b", 1.5).build())
                .hasMessage("PartitionedConcurrencyLimiter: share of 'a' must be in (0, 1] but was -0.5");
        assertThatThrownBy(() -> Partitions.builder().build())
                .hasMessage("PartitionedConcurrencyLimiter: partitions must be at least one but was none");
        assertThatThrownBy(() -> Partitions.builder().add("a", 0.5).add("a", 0.5))
                .hasMessage("PartitionedConcurrencyLimiter: partition must be unique but was 'a' twice");
        assertThatThrownBy(() -> Partitions.builder().add("a", 1).idleTimeout(Duration.ZERO).build())
                .hasMessage("PartitionedConcurrencyLimiter: idleTimeout must be > 0 but was PT0S");
        assertThatThrownBy(() -> PartitionedConcurrencyLimiter.of("x", ConcurrencyLimiterConfig.builder()
                .maxWait(Duration.ofSeconds(1)).build(), Partitions.builder().add("a", 1).build()))
                .hasMessage("PartitionedConcurrencyLimiter 'x': maxWait must be zero (partitions fail fast) but was PT1S");
        assertThatThrownBy(() -> limiter(10).partition("nope")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("checkout");
        assertThat(Partitions.builder().add("a", 0.1).add("b", 0.2).add("c", 0.7).build().shares()).hasSize(3);
    }
}
