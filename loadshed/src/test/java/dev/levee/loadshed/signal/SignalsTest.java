package dev.levee.loadshed.signal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.LoadSignal;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.loadshed.queue.CoDelQueue;
import dev.levee.loadshed.queue.CoDelQueueConfig;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SignalsTest {
    private final ManualTicker ticker = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);

    @Test
    void sampledSignalReadsTheLastSampleAndSanitizes() {
        double[] source = {0.4};
        SampledLoadSignal s = SampledLoadSignal.of("t", () -> source[0], Duration.ofSeconds(1), scheduler);
        assertThat(s.load()).isEqualTo(0.4);          // first sample taken at once
        source[0] = 0.9;
        assertThat(s.load()).isEqualTo(0.4);          // not per read
        scheduler.advance(Duration.ofSeconds(1));
        assertThat(s.load()).isEqualTo(0.9);
        for (double bad : new double[] {Double.NaN, -0.5, Double.POSITIVE_INFINITY}) {
            source[0] = bad;
            scheduler.advance(Duration.ofSeconds(1));
            assertThat(s.load()).isZero();
        }
        source[0] = 1.7;                               // above capacity is allowed
        scheduler.advance(Duration.ofSeconds(1));
        assertThat(s.load()).isEqualTo(1.7);
        s.close();
        source[0] = 0.1;
        scheduler.advance(Duration.ofSeconds(5));
        assertThat(s.load()).isEqualTo(1.7);
        assertThat(scheduler.pending()).isZero();
    }

    @Test
    void aThrowingSourceReadsZero() {
        SampledLoadSignal s = SampledLoadSignal.of("t", () -> {
            throw new IllegalStateException("no");
        }, Duration.ofSeconds(1), scheduler);
        assertThat(s.load()).isZero();
    }

    @Test
    void sampledSignalBounds() {
        assertThatThrownBy(() -> SampledLoadSignal.of("t", () -> 0, Duration.ZERO, scheduler)).isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("interval");
        assertThatThrownBy(() -> SampledLoadSignal.of("t", null, Duration.ofSeconds(1), scheduler)).isInstanceOf(InvalidConfigException.class);
        assertThatThrownBy(() -> SampledLoadSignal.of("t", () -> 0, Duration.ofSeconds(1), null)).isInstanceOf(InvalidConfigException.class);
    }

    @Test
    void cpuAndMemoryReadTheJvmWithinScale() {
        SampledLoadSignal cpu = CpuLoadSignal.process(Duration.ofSeconds(1), scheduler);
        SampledLoadSignal sys = CpuLoadSignal.system(Duration.ofSeconds(1), scheduler);
        SampledLoadSignal mem = MemoryLoadSignal.heapAfterGc(Duration.ofSeconds(1), scheduler);
        for (LoadSignal s : new LoadSignal[] {cpu, sys, mem}) {
            assertThat(s.load()).isBetween(0.0, 1.0);
        }
        assertThat(CpuLoadSignal.process()).isSameAs(CpuLoadSignal.process());
        assertThat(MemoryLoadSignal.afterGc(ManagementFactory.getMemoryPoolMXBeans())).isBetween(0.0, 1.0);
    }

    @Test
    void memoryOccupancyUsesMaxElseCommitted() {
        assertThat(MemoryLoadSignal.occupancy(90, 100, 50)).isEqualTo(0.9);
        assertThat(MemoryLoadSignal.occupancy(25, -1, 50)).isEqualTo(0.5);
        assertThat(MemoryLoadSignal.occupancy(0, 100, 100)).isZero();
        assertThat(MemoryLoadSignal.occupancy(10, -1, 0)).isZero();
        assertThat(MemoryLoadSignal.occupancy(200, 100, 100)).isEqualTo(1.0);
    }

    @Test
    void queueDelayIsTheLastSojournOverTheMaximum() {
        CoDelQueue<String> q = CoDelQueue.of("q", CoDelQueueConfig.builder().ticker(ticker).build());
        QueueDelaySignal s = QueueDelaySignal.of(q, Duration.ofMillis(100));
        assertThat(s.load()).isZero();
        q.offer("a");
        ticker.advance(Duration.ofMillis(50));
        q.poll();
        assertThat(s.load()).isEqualTo(0.5);
        q.offer("b");
        ticker.advance(Duration.ofMillis(250));
        q.poll();
        assertThat(s.load()).isEqualTo(2.5);
        assertThatThrownBy(() -> QueueDelaySignal.of(q, Duration.ZERO)).isInstanceOf(InvalidConfigException.class);
    }

    @Test
    void inFlightIsTheShareOfTheLimit() {
        int[] n = {30};
        int[] limit = {40};
        InFlightSignal s = InFlightSignal.of(() -> n[0], () -> limit[0]);
        assertThat(s.load()).isEqualTo(0.75);
        limit[0] = 0;
        assertThat(s.load()).isZero();
        limit[0] = 10;
        assertThat(s.load()).isEqualTo(3.0);
        n[0] = -1;
        assertThat(s.load()).isZero();
    }
}
