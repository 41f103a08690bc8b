package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.core.CircuitOpenException;
import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.examples.FakeTracing.Span;
import dev.levee.examples.FakeTracing.Tracer;
import dev.levee.retry.Retry;
import dev.levee.retry.RetryConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SpanListenerTest {
    private final ManualTicker ticker = new ManualTicker();
    private final Tracer tracer = new Tracer();
    private final SpanListener spans = new SpanListener(tracer, ticker);

    @Test
    void aRetriedCallIsOneSpanWithItsAttemptsAsEvents() {
        Retry retry = Retry.of("orders", RetryConfig.builder().maxAttempts(3).retryAll().ticker(ticker).sleeper(ticker).build());
        spans.listen(retry);
        Pipeline pipeline = Pipeline.of(spans.traced("retry", retry));
        int[] attempts = {0};

        String result = pipeline.execute(() -> {
            ticker.advance(Duration.ofMillis(10));
            if (++attempts[0] < 3) {
                throw new IllegalStateException("try again");
            }
            return "ok";
        });

        assertThat(result).isEqualTo("ok");
        assertThat(tracer.spans()).hasSize(1);
        Span span = tracer.spans().get(0);
        assertThat(span.name()).isEqualTo("levee.retry orders");
        assertThat(span.isEnded()).isTrue();
        assertThat(span.isError()).isFalse();
        assertThat(span.attributes()).containsEntry("levee.outcome", "success").containsEntry("levee.retry.attempts", 3);
        assertThat((Long) span.attributes().get("levee.latency_ns")).isGreaterThanOrEqualTo(30_000_000L);
        assertThat(span.events()).extracting(FakeTracing.SpanEvent::name).containsExactly("levee.retry.retried", "levee.retry.retried");
        assertThat(span.events().get(1).attributes()).containsEntry("attempt", 2).containsKey("delay_ns");
        assertThat(tracer.current()).isNull();
    }

    @Test
    void aRefusalIsAnErrorSpanWithTheRejectionKindAndTheBreakersEvents() {
        CircuitBreaker breaker = CircuitBreaker.of("payments", CircuitBreakerConfig.builder().ticker(ticker).build());
        spans.listen(breaker);
        Pipeline pipeline = Pipeline.of(spans.traced("circuitbreaker", breaker));
        breaker.transitionToForcedOpen();

        assertThatThrownBy(() -> pipeline.execute(() -> "never")).isInstanceOf(CircuitOpenException.class);

        Span span = tracer.spans().get(0);
        assertThat(span.isError()).isTrue();
        assertThat(span.attributes()).containsEntry("levee.outcome", "rejected").containsEntry("levee.kind", "circuit_open");
        assertThat(span.events()).extracting(FakeTracing.SpanEvent::name).contains("levee.circuitbreaker.rejected");
    }
}
