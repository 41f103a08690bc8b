package dev.levee.loadshed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.core.ShedException;
import dev.levee.loadshed.queue.CoDelQueue;
import dev.levee.loadshed.queue.CoDelQueueConfig;
import dev.levee.loadshed.queue.QueueMetricsBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@SuppressWarnings("try") // scopes opened only for their effect on the current thread
class MetricsTest {
    private final ManualTicker ticker = new ManualTicker();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void shedderMetersReadTheCounters() {
        double[] cpu = {0.95};
        AdaptiveLoadShedder s = AdaptiveLoadShedder.of("api", AdaptiveLoadShedderConfig.builder().ticker(ticker)
                .maxConcurrent(4).cpu(() -> cpu[0]).memory(() -> 0).build());
        new SheddingMetricsBinder(s).bindTo(registry);
        assertThat(s.tryAcquire()).isFalse();
        cpu[0] = 0.1;
        assertThat(s.tryAcquire()).isTrue();
        assertThat(registry.get("levee.loadshed.rejected").tags("name", "api", "kind", "shed", "reason", "cpu_high")
                .functionCounter().count()).isEqualTo(1.0);
        assertThat(registry.get("levee.loadshed.admitted").functionCounter().count()).isEqualTo(1.0);
        assertThat(registry.get("levee.loadshed.concurrency.current").gauge().value()).isEqualTo(1.0);
        assertThat(registry.get("levee.loadshed.concurrency.limit").gauge().value()).isEqualTo(4.0);
        assertThat(registry.get("levee.loadshed.shed.rate").gauge().value()).isEqualTo(0.5);
        assertThat(registry.get("levee.loadshed.queue.waiting").gauge().value()).isZero();
        ShedderMetrics m = s.metrics();
        assertThat(m.admitted()).isEqualTo(1);
        assertThat(m.shed()).isEqualTo(1);
        assertThat(m.shedByReason()).containsExactly(java.util.Map.entry("cpu_high", 1L));
    }

    @Test
    void queueMetersIncludeTheSeedLatencyBuckets() {
        CoDelQueue<String> q = CoDelQueue.of("q", CoDelQueueConfig.builder().ticker(ticker).maxSize(4).build());
        new QueueMetricsBinder(q).bindTo(registry);
        q.offer("a");
        q.offer("b");
        ticker.advance(Duration.ofMillis(3));
        q.poll();
        assertThat(registry.get("levee.loadshed.queue.depth").gauge().value()).isEqualTo(1.0);
        assertThat(registry.get("levee.loadshed.backpressure").gauge().value()).isEqualTo(0.25);
        assertThat(registry.get("levee.loadshed.queue.latency.bucket").tag("le", "0.001").functionCounter().count()).isZero();
        assertThat(registry.get("levee.loadshed.queue.latency.bucket").tag("le", "0.005").functionCounter().count()).isEqualTo(1.0);
        assertThat(registry.get("levee.loadshed.queue.latency.bucket").tag("le", "5.0").functionCounter().count()).isEqualTo(1.0);
        assertThat(registry.get("levee.loadshed.queue.latency.bucket").tag("le", "+Inf").functionCounter().count()).isEqualTo(1.0);
        assertThat(registry.get("levee.loadshed.queue.latency.sum").functionCounter().count()).isEqualTo(0.003);
        q.offer("c");
        q.offer("d");
        q.offer("e");
        q.offer("f");
        assertThat(registry.get("levee.loadshed.queue.dropped").tag("kind", "queue_full").functionCounter().count()).isEqualTo(1.0);
    }

    @Test
    void goodputCountsCompletionsWithinDeadlineOrSloBesideThroughput() {
        Goodput g = Goodput.of("api", Duration.ofMillis(100), ticker);
        new GoodputMetricsBinder(g).bindTo(registry);
        g.onSuccess(Duration.ofMillis(50).toNanos());    // within SLO
        g.onSuccess(Duration.ofMillis(150).toNanos());   // late
        g.onFailure(1, new IllegalStateException());     // failures are throughput, never goodput
        try (ContextScope s = Deadline.afterNanos(10, ticker).attach()) {
            g.onSuccess(Duration.ofSeconds(9).toNanos()); // within its deadline: good despite the SLO
        }
        try (ContextScope s = Deadline.afterNanos(0, ticker).attach()) {
            g.onSuccess(1);                               // deadline passed
        }
        assertThat(g.throughputCount()).isEqualTo(5);
        assertThat(g.goodputCount()).isEqualTo(2);
        assertThat(g.goodputRatio()).isEqualTo(0.4);
        assertThat(registry.get("levee.loadshed.goodput").functionCounter().count()).isEqualTo(2.0);
        assertThat(registry.get("levee.loadshed.throughput").functionCounter().count()).isEqualTo(5.0);
        assertThat(registry.get("levee.loadshed.goodput.ratio").gauge().value()).isEqualTo(0.4);
    }

    @Test
    void goodputInAPipelineSeesInnerRejectionsAsShed() {
        Goodput g = Goodput.of("api", Duration.ofSeconds(1), ticker);
        AdaptiveLoadShedder s = AdaptiveLoadShedder.of("api", AdaptiveLoadShedderConfig.builder().ticker(ticker)
                .cpu(() -> 0.99).memory(() -> 0).build());
        try {
            Pipeline.of(g, s).execute(() -> "x");
        } catch (ShedException expected) {
            // shed
        }
        assertThat(g.offeredCount()).isEqualTo(1);
        assertThat(g.shedCount()).isEqualTo(1);
        assertThat(g.throughputCount()).isZero();
    }
}
