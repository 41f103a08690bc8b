package dev.levee.ratelimiter;

import dev.levee.core.Gate;
import dev.levee.core.ManualTicker;
import dev.levee.testing.GateContract;
import java.time.Duration;

/**
 * The adaptive rate limiter passes the shared {@link GateContract}: it is a GCRA gate whose rate moves,
 * so at one instant it grants its burst and then refuses, and a completion never returns a permit.
 */
class AdaptiveRateLimiterContractTest extends GateContract {
    private static final int BURST = 4;

    @Override
    protected Gate newGate(ManualTicker ticker) {
        return AdaptiveRateLimiter.of("contract", AdaptiveRateLimiterConfig.builder()
                .minRate(1)
                .initialRate(10)
                .maxRate(100)
                .burst(BURST)
                .adjustInterval(Duration.ofSeconds(1))
                .ticker(ticker)
                .sleeper(ticker)
                .build());
    }

    @Override
    protected int permitsAtOnce() {
        return BURST;
    }

    @Override
    protected boolean completionReturnsPermit() {
        return false; // a rate limiter's permit is spent, not returned
    }
}
