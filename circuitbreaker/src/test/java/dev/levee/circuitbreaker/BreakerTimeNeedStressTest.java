package dev.levee.circuitbreaker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.core.RejectedException;
import dev.levee.testing.Concurrently;
import java.io.IOException;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * 16 threads drive a breaker whose CLOSED state needs no clock reading (callers pass
 * {@code NO_READING}), through every transition, with {@code execute} and the permit protocol by hand.
 * No half-open probe may leak: a probe admitted whose completion the breaker could not account for would
 * hold it HALF_OPEN for the whole {@code maxWaitInHalfOpen} (an hour here), so after the storm a few
 * successful calls must close it.
 */
class BreakerTimeNeedStressTest {

    @Test
    void noProbeLeaksWhileCallersSkipTheClockAcrossTransitions() throws Exception {
        ManualTicker time = new ManualTicker(1_000_000_000L);
        CircuitBreaker breaker = CircuitBreaker.of("stress", CircuitBreakerConfig.builder()
                .countWindow(20)
                .minimumNumberOfCalls(10)
                .failureRateThreshold(0.5)
                .noSlowCallRule()
                .waitDurationInOpen(Duration.ofMillis(10))
                .permittedCallsInHalfOpen(3)
                .maxWaitInHalfOpen(Duration.ofHours(1))
                .ticker(time)
                .build());
        AtomicInteger halfOpens = new AtomicInteger();
        breaker.onStateTransition(e -> {
            if (e.to() == CircuitState.HALF_OPEN) {
                halfOpens.incrementAndGet();
            }
        });
        Concurrently.run(Concurrently.THREADS, thread -> {
            SplittableRandom random = new SplittableRandom(thread);
            for (int i = 0; i < 5_000; i++) {
                if (thread == 0 && i % 4 == 0) {
                    time.advance(Duration.ofMillis(3));
                }
                boolean fail = random.nextInt(100) < 45;
                try {
                    breaker.execute(() -> {
                        if (fail) {
                            throw new IOException("down");
                        }
                        return "ok";
                    });
                } catch (IOException | RejectedException expected) {
                    // the call's failure or a refusal
                }
                long start = breaker.readStart();
                if (breaker.tryAcquire(start)) {
                    switch (random.nextInt(3)) {
                        case 0 -> breaker.onSuccess(breaker.latencySince(start));
                        case 1 -> breaker.onFailure(breaker.latencySince(start), new IOException("down"));
                        default -> breaker.onIgnoredAt(start);
                    }
                }
            }
        });
        assertThat(halfOpens.get()).as("the storm went through HALF_OPEN").isPositive();
        // Recovery with successes only: a leaked probe would keep the breaker HALF_OPEN for an hour.
        for (int step = 0; step < 100 && breaker.state() != CircuitState.CLOSED; step++) {
            time.advance(Duration.ofMillis(10));
            for (int k = 0; k < 3; k++) {
                try {
                    breaker.execute(() -> "ok");
                } catch (RejectedException refused) {
                    // still OPEN, or every probe out
                }
            }
        }
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }
}
