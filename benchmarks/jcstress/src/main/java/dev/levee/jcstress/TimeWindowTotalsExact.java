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
 * A closed breaker with a time window of 2 s in 2 buckets (a ring of 4 bucket slots). A success and a
 * failure were recorded at 0.5 s (bucket 0). At 4.5 s (bucket 4, the same ring slot, long expired)
 * a success and a failure are recorded at once: both race to reset the stale slot. The window's
 * totals must be exactly the two new calls, one failed: neither record lost to the other's reset,
 * and nothing of bucket 0 left over. (Threshold 1.0 and a high minimum: it never trips.)
 */
@JCStressTest
@Description("CircuitBreaker: the time window's totals stay exact when records race a bucket reset")
@Outcome(id = "2, 1", expect = Expect.ACCEPTABLE, desc = "exact totals: the two new calls")
@Outcome(expect = Expect.FORBIDDEN, desc = "a record lost to the reset, or the stale bucket still counted")
@State
public class TimeWindowTotalsExact {
    private static final RuntimeException FAILURE = new IllegalStateException("failed");
    private final ManualTicker ticker = new ManualTicker(500_000_000L);
    private final CircuitBreaker breaker = CircuitBreaker.of("jcstress", CircuitBreakerConfig.builder()
            .timeWindow(2, 2)
            .minimumNumberOfCalls(100)
            .failureRateThreshold(1.0)
            .ticker(ticker)
            .build());

    public TimeWindowTotalsExact() {
        breaker.onSuccess(0L);
        breaker.onFailure(0L, FAILURE);
        ticker.advance(4_000_000_000L);
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
