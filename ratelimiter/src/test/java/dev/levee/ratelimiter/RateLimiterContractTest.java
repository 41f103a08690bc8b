package dev.levee.ratelimiter;

import dev.levee.core.Gate;
import dev.levee.core.ManualTicker;
import dev.levee.testing.GateContract;
import java.time.Duration;
import org.junit.jupiter.api.Nested;

/**
 * Every rate-limiter algorithm passes the shared {@link GateContract}: 5 permits a second. The leaky
 * bucket spaces calls instead of bursting: it grants one permit at an instant and queues the next
 * (here for up to a second, waited out on the manual ticker).
 */
class RateLimiterContractTest {
    private static final int LIMIT = 5;

    abstract static class AlgorithmContract extends GateContract {
        abstract RateLimitAlgorithm algorithm();

        @Override
        protected Gate newGate(ManualTicker ticker) {
            return RateLimiter.of("contract-" + algorithm(), RateLimiterConfig.builder()
                    .algorithm(algorithm())
                    .limit(LIMIT)
                    .period(Duration.ofSeconds(1))
                    .maxWait(algorithm() == RateLimitAlgorithm.LEAKY_BUCKET ? Duration.ofSeconds(1) : Duration.ZERO)
                    .ticker(ticker)
                    .sleeper(ticker)
                    .build());
        }

        @Override
        protected int permitsAtOnce() {
            return algorithm() == RateLimitAlgorithm.LEAKY_BUCKET ? 1 : LIMIT;
        }

        @Override
        protected boolean waitsForAPermit() {
            return algorithm() == RateLimitAlgorithm.LEAKY_BUCKET;
        }

        @Override
        protected boolean completionReturnsPermit() {
            return false; // a rate limiter's permit is spent, not returned
        }

        @Override
        protected boolean claimsAllocationFreeSuccessPath() {
            return algorithm() != RateLimitAlgorithm.SLIDING_LOG;
        }
    }

    @Nested
    class Gcra extends AlgorithmContract {
        @Override
        RateLimitAlgorithm algorithm() {
            return RateLimitAlgorithm.GCRA;
        }
    }

    @Nested
    class TokenBucket extends AlgorithmContract {
        @Override
        RateLimitAlgorithm algorithm() {
            return RateLimitAlgorithm.TOKEN_BUCKET;
        }
    }

    @Nested
    class SlidingWindowCounter extends AlgorithmContract {
        @Override
        RateLimitAlgorithm algorithm() {
            return RateLimitAlgorithm.SLIDING_WINDOW_COUNTER;
        }
    }

    @Nested
    class FixedWindow extends AlgorithmContract {
        @Override
        RateLimitAlgorithm algorithm() {
            return RateLimitAlgorithm.FIXED_WINDOW;
        }
    }

    @Nested
    class SlidingLog extends AlgorithmContract {
        @Override
        RateLimitAlgorithm algorithm() {
            return RateLimitAlgorithm.SLIDING_LOG;
        }
    }

    @Nested
    class LeakyBucket extends AlgorithmContract {
        @Override
        RateLimitAlgorithm algorithm() {
            return RateLimitAlgorithm.LEAKY_BUCKET;
        }
    }
}
