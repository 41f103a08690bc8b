package dev.levee.jcstress;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.circuitbreaker.CircuitBreakerMetrics;
import dev.levee.core.ManualTicker;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

/**
 * A closed breaker with a count window of 3, full: success, success, failure. Two outcomes are recorded
 * at once (a success and a failure), each overwriting one of the two oldest successes; the window's
 * totals, kept by touching the aggregate only when a slot's outcome changes, must come out exact:
 * 3 calls, 2 failed. (Threshold 1.0: the window never reaches 100 % failures, so it never trips.)
 */
@JCStressTest
@Description("CircuitBreaker: the count window's totals stay exact when records race over the ring")
@Outcome(id = "3, 2", expect = Expect.ACCEPTABLE, desc = "exact totals")
@Outcome(expect = Expect.FORBIDDEN, desc = "the aggregate counters drifted from the ring")
@State
public class CountWindowTotalsExact {
    private static final RuntimeException FAILURE = new IllegalStateException("failed");
    private final CircuitBreaker breaker = CircuitBreaker.of("jcstress", CircuitBreakerConfig.builder()
            .countWindow(3)
            .minimumNumberOfCalls(3)
            .failureRateThreshold(1.0)
            .ticker(new ManualTicker(100L))
            .build());

    public CountWindowTotalsExact() {
        breaker.onSuccess(0L);
        breaker.onSuccess(0L);
        breaker.onFailure(0L, FAILURE);
    }

    @Actor
    public void success() {
        breaker.onSuccess(0L);
    }

    @Actor
    public void failure() {
        breaker.onFailure(0L, FAILURE);
    }

    @Arbiter
    public void totals(JJ_Result r) {
        CircuitBreakerMetrics m = breaker.metrics();
        r.r1 = m.calls();
        r.r2 = m.failedCalls();
    }
}
