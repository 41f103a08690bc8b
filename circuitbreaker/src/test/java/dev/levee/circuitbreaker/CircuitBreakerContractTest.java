package dev.levee.circuitbreaker;

import dev.levee.core.Gate;
import dev.levee.core.ManualTicker;
import dev.levee.testing.GateContract;

/** A closed circuit breaker passes the shared {@link GateContract} (it refuses only after failures). */
class CircuitBreakerContractTest extends GateContract {
    @Override
    protected Gate newGate(ManualTicker ticker) {
        return CircuitBreaker.of("contract", CircuitBreakerConfig.builder().ticker(ticker).build());
    }

    @Override
    protected int permitsAtOnce() {
        return Integer.MAX_VALUE;
    }

    @Override
    protected boolean completionReturnsPermit() {
        return false;
    }

    @Override
    protected boolean claimsAllocationFreeSuccessPath() {
        return true;
    }
}
