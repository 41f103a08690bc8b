package dev.levee.degrade;

import dev.levee.core.ManualTicker;
import dev.levee.core.Policy;
import dev.levee.testing.PolicyContract;
import java.io.IOException;
import org.junit.jupiter.api.Nested;

/**
 * The shared {@link PolicyContract} for a fallback: what the call returns or throws comes out
 * unchanged whenever no tier answers — here, a fallback for open breakers only, and one whose only tier
 * fails (the original failure comes back, the same instance).
 */
class FallbackContractTest {

    @Nested
    class ForOpenBreakersOnly extends PolicyContract {
        @Override
        protected Policy newPolicy(ManualTicker ticker) {
            return Fallback.of("contract", FallbackConfig.builder().ticker(ticker)
                    .reasons(FallbackReason.CIRCUIT_OPEN).build(), FallbackTier.ofValue("static", "static"));
        }
    }

    @Nested
    class WithAFailingTier extends PolicyContract {
        @Override
        protected Policy newPolicy(ManualTicker ticker) {
            return Fallback.of("contract-failing-tier", FallbackConfig.builder().ticker(ticker).build(),
                    FallbackTier.of("broken", cause -> {
                        throw new IOException("the tier is down too");
                    }));
        }
    }
}
