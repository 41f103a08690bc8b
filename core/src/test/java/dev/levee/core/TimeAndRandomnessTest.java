package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TimeAndRandomnessTest {

    @Test
    void manualTickerMovesOnlyForward() throws Exception {
        ManualTicker ticker = new ManualTicker(5);
        assertThat(ticker.advance(10)).isEqualTo(15);
        assertThat(ticker.advance(Duration.ofNanos(5))).isEqualTo(20);
        ticker.sleep(30);
        assertThat(ticker.read()).isEqualTo(50);
        assertThatThrownBy(() -> ticker.advance(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ManualTicker: advance must be >= 0 ns but was -1");
    }

    @Test
    void manualSchedulerRunsTasksInDueOrderAtTheirTime() {
        ManualTicker ticker = new ManualTicker();
        ManualScheduler scheduler = new ManualScheduler(ticker);
        List<String> ran = new ArrayList<>();
        scheduler.schedule(() -> ran.add("b@" + ticker.read()), 200);
        scheduler.schedule(() -> ran.add("a@" + ticker.read()), 100);
        Scheduler.Cancellable c = scheduler.schedule(() -> ran.add("cancelled"), 150);
        scheduler.schedule(() -> {
            ran.add("c@" + ticker.read());
            scheduler.schedule(() -> ran.add("chained@" + ticker.read()), 10);
        }, 250);

        assertThat(c.cancel()).isTrue();
        assertThat(c.cancel()).isFalse();
        assertThat(scheduler.advance(99)).isZero();
        assertThat(scheduler.advance(Duration.ofNanos(201))).isEqualTo(4);

        assertThat(ran).containsExactly("a@100", "b@200", "c@250", "chained@260");
        assertThat(ticker.read()).isEqualTo(300);
        assertThat(scheduler.pending()).isZero();
        scheduler.schedule(() -> ran.add("now"), 0);
        assertThat(scheduler.runDue()).isEqualTo(1);
    }

    @Test
    void systemSchedulerRunsTasks() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        Scheduler.system().schedule(ran::countDown, 1_000_000);
        assertThat(ran.await(60, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void seededRandomnessReproduces() {
        RandomSource a = RandomSource.seeded(42);
        RandomSource b = RandomSource.seeded(42);
        for (int i = 0; i < 1000; i++) {
            double x = a.nextDouble();
            assertThat(x).isEqualTo(b.nextDouble()).isBetween(0.0, 1.0).isNotEqualTo(1.0);
            long n = a.nextLong(7);
            assertThat(n).isEqualTo(b.nextLong(7)).isBetween(0L, 6L);
        }
        assertThat(RandomSource.seeded(1).nextDouble()).isNotEqualTo(RandomSource.seeded(2).nextDouble());
    }

    @Test
    void seededRandomnessIsRoughlyUniform() {
        RandomSource r = RandomSource.seeded(7);
        int[] buckets = new int[10];
        for (int i = 0; i < 100_000; i++) {
            buckets[(int) r.nextLong(10)]++;
        }
        for (int count : buckets) {
            assertThat(count).isBetween(9_000, 11_000);
        }
    }

    @Test
    void boundsAreChecked() {
        assertThatThrownBy(() -> RandomSource.seeded(1).nextLong(0))
                .hasMessage("RandomSource: bound must be > 0 but was 0");
        assertThatThrownBy(() -> RandomSource.threadLocal().nextLong(-1)).isInstanceOf(IllegalArgumentException.class);
        RandomSource custom = () -> 0.999999999999;
        assertThat(custom.nextLong(3)).isEqualTo(2);
    }
}
