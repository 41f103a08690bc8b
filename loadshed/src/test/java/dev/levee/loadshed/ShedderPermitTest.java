package dev.levee.loadshed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.LoadSignal;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import dev.levee.loadshed.limit.FixedLimit;
import dev.levee.loadshed.queue.CoDelQueueConfig;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every shedder counts its permits exactly: a completion without a permit (or a second completion) is
 * refused with an {@link IllegalStateException} and leaves the count, and so the bound, unchanged.
 */
class ShedderPermitTest {
    private final ManualTicker ticker = new ManualTicker();

    private List<Shedder> shedders() {
        return List.of(
                AdaptiveLoadShedder.of("a", AdaptiveLoadShedderConfig.builder().maxConcurrent(2).maxQueueDepth(0)
                        .cpu(LoadSignal.constant(0.0)).memory(LoadSignal.constant(0.0)).priorityThreshold(1.0)
                        .ticker(ticker).build()),
                PidShedder.of("p", PidShedderConfig.builder().measurement(() -> 0.0).random(RandomSource.seeded(1))
                        .scheduler(new ManualScheduler(ticker)).ticker(ticker).build()),
                PriorityShedder.of("q", PriorityShedderConfig.builder().load(LoadSignal.constant(0.0)).ticker(ticker)
                        .build()),
                CoDelGate.of("c", CoDelQueueConfig.defaults(), Duration.ZERO, ConcurrencyLimiter.of("inner",
                        ConcurrencyLimiterConfig.builder().algorithm(() -> FixedLimit.of(2)).ticker(ticker).build())));
    }

    @Test
    void aCompletionWithoutAPermitIsRefusedAndChangesNothing() {
        for (Shedder s : shedders()) {
            long now = ticker.read();
            assertThatThrownBy(() -> s.onSuccess(0L)).as(s.name()).isInstanceOf(IllegalStateException.class);
            assertThat(s.inFlight()).as(s.name()).isZero();
            assertThat(s.tryAcquire(now)).as(s.name()).isTrue();
            s.onIgnored();
            assertThatThrownBy(s::onIgnored).as(s.name() + ": a second completion")
                    .isInstanceOf(IllegalStateException.class);
            assertThat(s.inFlight()).as(s.name()).isZero();
        }
    }

    @Test
    void aBoundedShedderStillAdmitsExactlyItsLimitAfterMisuse() {
        AdaptiveLoadShedder a = (AdaptiveLoadShedder) shedders().get(0);
        long now = ticker.read();
        assertThatThrownBy(() -> a.onFailure(0L, new IllegalStateException())).isInstanceOf(IllegalStateException.class);
        assertThat(a.tryAcquire(now)).isTrue();
        assertThat(a.tryAcquire(now)).isTrue();
        assertThat(a.tryAcquire(now)).isFalse();
    }
}
