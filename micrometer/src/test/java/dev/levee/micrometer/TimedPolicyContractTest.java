package dev.levee.micrometer;

import dev.levee.core.ManualTicker;
import dev.levee.core.Policy;
import dev.levee.retry.Retry;
import dev.levee.retry.RetryConfig;
import dev.levee.testing.PolicyContract;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * The latency-timing wrapper of {@link LeveeMeters#timed(Policy)} passes the shared {@link PolicyContract}:
 * timing a call changes nothing the caller sees.
 */
class TimedPolicyContractTest extends PolicyContract {

    @Override
    protected Policy newPolicy(ManualTicker ticker) {
        LeveeMeters meters = LeveeMeters.builder(new SimpleMeterRegistry()).ticker(ticker).build();
        return meters.timed(Retry.of("contract", RetryConfig.builder().maxAttempts(1).withoutBudget().build()));
    }
}
