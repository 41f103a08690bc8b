package dev.levee.circuitbreaker;

import dev.levee.core.ManualTicker;
import java.time.Duration;

/** A breaker on a manual ticker, with one-line helpers for the permit protocol. */
final class Fixture {
    static final long MS = 1_000_000L;
    static final long SECOND = 1_000_000_000L;

    final ManualTicker ticker = new ManualTicker(1_000 * SECOND);
    final CircuitBreaker breaker;

    Fixture(CircuitBreakerConfig.Builder builder) {
        this.breaker = CircuitBreaker.of("dep", builder.ticker(ticker).build());
    }

    /** A small, quick config: count window 10, minimum 5 calls, 50%, open 10 s, 3 probes, slow over 100 ms. */
    static CircuitBreakerConfig.Builder small() {
        return CircuitBreakerConfig.builder()
                .countWindow(10)
                .minimumNumberOfCalls(5)
                .failureRateThreshold(0.5)
                .slowCallDurationThreshold(Duration.ofMillis(100))
                .waitDurationInOpen(Duration.ofSeconds(10))
                .permittedCallsInHalfOpen(3)
                .maxWaitInHalfOpen(Duration.ofSeconds(30));
    }

    boolean acquire() {
        return breaker.tryAcquire(ticker.read());
    }

    void succeed(int times) {
        for (int i = 0; i < times; i++) {
            if (!acquire()) {
                throw new AssertionError("refused at success " + i + " in " + breaker.state());
            }
            ticker.advance(MS);
            breaker.onSuccess(MS);
        }
    }

    void fail(int times) {
        for (int i = 0; i < times; i++) {
            if (!acquire()) {
                throw new AssertionError("refused at failure " + i + " in " + breaker.state());
            }
            ticker.advance(MS);
            breaker.onFailure(MS, new java.io.IOException("boom"));
        }
    }

    void slow(int times, long latencyNanos, boolean failed) {
        for (int i = 0; i < times; i++) {
            if (!acquire()) {
                throw new AssertionError("refused at slow call " + i + " in " + breaker.state());
            }
            ticker.advance(latencyNanos);
            if (failed) {
                breaker.onFailure(latencyNanos, new java.io.IOException("slow boom"));
            } else {
                breaker.onSuccess(latencyNanos);
            }
        }
    }

    void advance(long nanos) {
        ticker.advance(nanos);
    }
}
