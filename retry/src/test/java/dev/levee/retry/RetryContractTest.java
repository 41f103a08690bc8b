package dev.levee.retry;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.Policy;
import dev.levee.testing.PolicyContract;
import org.junit.jupiter.api.Nested;

/** Retry and hedge pass the shared {@link PolicyContract}. */
class RetryContractTest {

    @Nested
    class RetryPolicy extends PolicyContract {
        @Override
        protected Policy newPolicy(ManualTicker ticker) {
            return Retry.of("contract", RetryConfig.builder().maxAttempts(3).retryAll()
                    .ticker(ticker).sleeper(ticker).build());
        }
    }

    @Nested
    class HedgePolicy extends PolicyContract {
        @Override
        protected Policy newPolicy(ManualTicker ticker) {
            // A manual scheduler: on the system one the hedge timer fires after 100 ms of real time whatever
            // the manual ticker says, so a call stalled that long would get a second attempt on the shared
            // scheduler thread (and, in the interrupt-flag test, interrupt that thread).
            return Hedge.of("contract", HedgeConfig.builder().withoutBudget()
                    .executor(Runnable::run).asyncExecutor(Runnable::run).ticker(ticker)
                    .scheduler(new ManualScheduler(ticker)).build());
        }
    }
}
