package dev.levee.bulkhead;

import dev.levee.core.ManualTicker;
import dev.levee.core.Policy;
import dev.levee.testing.PolicyContract;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/**
 * The thread-pool bulkhead passes the shared {@link PolicyContract} in both of its modes: the call runs
 * on one of the bulkhead's own threads, and what it returns or throws reaches the caller unchanged.
 */
class ThreadPoolBulkheadContractTest {

    /** Closes every bulkhead a contract test built, so no test leaves worker threads behind. */
    abstract static class ClosesItsBulkheads extends PolicyContract {
        private final List<ThreadPoolBulkhead> built = new ArrayList<>();

        abstract ThreadPoolBulkheadConfig config(ManualTicker ticker);

        @Override
        protected Policy newPolicy(ManualTicker ticker) {
            ThreadPoolBulkhead bulkhead = ThreadPoolBulkhead.of("contract", config(ticker));
            built.add(bulkhead);
            return bulkhead;
        }

        @Override
        protected boolean runsTheCallOnTheCallersThread() {
            return false;
        }

        @AfterEach
        void closeBulkheads() {
            built.forEach(ThreadPoolBulkhead::close);
        }
    }

    @Nested
    class PlatformThreads extends ClosesItsBulkheads {
        @Override
        ThreadPoolBulkheadConfig config(ManualTicker ticker) {
            return ThreadPoolBulkheadConfig.builder().maxThreads(4).coreThreads(4).queueCapacity(64)
                    .ticker(ticker).build();
        }
    }

    /** Runs on JDK 21+ ({@code .ci/run} runs the suite on JDK 25 as well as 17). */
    @Nested
    @EnabledForJreRange(min = JRE.JAVA_21)
    class VirtualThreads extends ClosesItsBulkheads {
        @Override
        ThreadPoolBulkheadConfig config(ManualTicker ticker) {
            return ThreadPoolBulkheadConfig.builder().maxThreads(4).queueCapacity(64).virtualThreads(true)
                    .ticker(ticker).build();
        }
    }
}
