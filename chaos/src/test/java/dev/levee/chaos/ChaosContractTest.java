package dev.levee.chaos;

import dev.levee.core.ManualTicker;
import dev.levee.core.Policy;
import dev.levee.testing.PolicyContract;
import java.time.Duration;

/** A chaos policy injecting latency into every call still passes the wrapper contract: the call's outcome comes through. */
class ChaosContractTest extends PolicyContract {
    @Override
    protected Policy newPolicy(ManualTicker ticker) {
        return Chaos.of("contract", ChaosConfig.builder()
                .latency(Duration.ofMillis(5))
                .injectionRate(1.0)
                .sleeper(ticker)
                .ticker(ticker)
                .scheduler((task, delayNanos) -> {
                    task.run(); // the delay is immaterial to the contract; run at once so stages complete
                    return () -> false;
                })
                .build());
    }
}
