package dev.levee.jcstress;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.core.ManualTicker;
import java.util.concurrent.atomic.AtomicInteger;

/** A circuit breaker in HALF_OPEN with {@code probes} probes, its era stamped at 100 on a manual ticker. */
final class Breakers {
    /** The half-open era's start; acquire at a later reading. */
    static final long ERA = 100L;

    final ManualTicker ticker = new ManualTicker(ERA);
    final CircuitBreaker breaker;
    /** Transitions seen after construction. */
    final AtomicInteger transitions = new AtomicInteger();

    Breakers(int probes) {
        breaker = CircuitBreaker.of("jcstress", CircuitBreakerConfig.builder()
                .countWindow(10)
                .minimumNumberOfCalls(1)
                .failureRateThreshold(0.5)
                .permittedCallsInHalfOpen(probes)
                .ticker(ticker)
                .build());
        breaker.transitionToHalfOpen();
        breaker.onStateTransition(e -> transitions.incrementAndGet());
    }
}
