package dev.levee.timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.Chain;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.Classifier;
import dev.levee.core.Deadline;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.ManualTicker;
import dev.levee.core.Outcome;
import dev.levee.core.Pipeline;
import dev.levee.core.Policy;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The timeout inside a pipeline and under core classification. */
class CompositionTest {

    @Test
    void aDeadlineExceededRejectionIsAFailureForCoreClassification() {
        assertThat(Classifier.defaults().classify(new DeadlineExceededException("t", "m", 0)))
                .isEqualTo(Outcome.FAILURE);
    }

    @Test
    void anOuterTimeoutBoundsAnInnerOneInAPipeline() throws Exception {
        ManualTicker ticker = new ManualTicker();
        Timeout outer = Timeout.of("outer", TimeoutConfig.builder().timeout(Duration.ofMillis(100))
                .mode(TimeoutMode.COOPERATIVE).ticker(ticker).build());
        Timeout inner = Timeout.of("inner", TimeoutConfig.builder().timeout(Duration.ofSeconds(5))
                .reserve(Duration.ofMillis(10)).mode(TimeoutMode.COOPERATIVE).ticker(ticker).build());
        Pipeline pipeline = Pipeline.of(outer, inner);
        long seen = pipeline.execute(() -> Deadline.currentOrNull().remainingNanos());
        assertThat(seen).isEqualTo(90_000_000L);
    }

    @Test
    void aRetryAroundTheTimeoutSeesTheRejectionAndCanTryAgain() {
        ManualTicker ticker = new ManualTicker();
        Timeout timeout = Timeout.of("t", TimeoutConfig.builder().timeout(Duration.ofMillis(100))
                .mode(TimeoutMode.COOPERATIVE).ticker(ticker).build());
        int[] attempts = {0};
        Policy twice = new Policy() {
            @Override
            public String name() {
                return "twice";
            }

            @Override
            public <T, E extends Throwable> T execute(Chain next, CheckedSupplier<T, E> call) throws E {
                try {
                    return next.proceed(call);
                } catch (DeadlineExceededException e) {
                    return next.proceed(call);
                }
            }

            @Override
            public <T> CompletionStage<T> executeAsync(Chain next, Supplier<? extends CompletionStage<T>> call) {
                return next.proceedAsync(call);
            }
        };
        assertThatThrownBy(() -> Pipeline.of(twice, timeout).execute(() -> {
            attempts[0]++;
            ticker.advance(150_000_000L);
            Timeout.checkpoint();
            return "x";
        })).isInstanceOf(DeadlineExceededException.class);
        assertThat(attempts[0]).isEqualTo(2);
        assertThat(timeout.timeoutCount()).isEqualTo(2);
    }
}
