package dev.levee.testing;

import dev.levee.core.BulkheadFullException;
import dev.levee.core.Gate;
import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.core.Policy;
import dev.levee.core.RejectedException;
import dev.levee.core.Ticker;
import org.junit.jupiter.api.Nested;

/**
 * The contracts checked against themselves: a pipeline passes the shared {@link PolicyContract},
 * alone and around gates; the test gate it uses passes {@link GateContract}, so the contract itself
 * is checked against a gate known to be right.
 */
class ContractSelfTest {

    @Nested
    class PipelineOfOneGate extends PolicyContract {
        @Override
        protected Policy newPolicy(ManualTicker ticker) {
            return Pipeline.of(new CountingGate("a", ticker, 100));
        }
    }

    @Nested
    class PipelineOfThreeGates extends PolicyContract {
        @Override
        protected Policy newPolicy(ManualTicker ticker) {
            return Pipeline.of(new CountingGate("a", ticker, 100), new CountingGate("b", ticker, 100),
                    new CountingGate("c", ticker, 100));
        }
    }

    @Nested
    class PipelineOfFiveGates extends PolicyContract {
        @Override
        protected Policy newPolicy(ManualTicker ticker) {
            return Pipeline.of(new CountingGate("a", ticker, 100), new CountingGate("b", ticker, 100),
                    new CountingGate("c", ticker, 100), new CountingGate("d", ticker, 100),
                    new CountingGate("e", ticker, 100));
        }
    }

    @Nested
    class TheTestGate extends GateContract {
        @Override
        protected Gate newGate(ManualTicker ticker) {
            return new CountingGate("counting", ticker, 4);
        }

        @Override
        protected int permitsAtOnce() {
            return 4;
        }

        @Override
        protected boolean completionReturnsPermit() {
            return true;
        }

        @Override
        protected boolean claimsAllocationFreeSuccessPath() {
            return true;
        }
    }

    /** A minimal counting gate: {@code limit} permits, returned by any completion. */
    static final class CountingGate implements Gate {
        private final String name;
        private final Ticker ticker;
        private final int limit;
        private final java.util.concurrent.atomic.AtomicInteger inUse = new java.util.concurrent.atomic.AtomicInteger();

        CountingGate(String name, Ticker ticker, int limit) {
            this.name = name;
            this.ticker = ticker;
            this.limit = limit;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public Ticker ticker() {
            return ticker;
        }

        @Override
        public boolean tryAcquire(long nowNanos) {
            while (true) {
                int n = inUse.get();
                if (n >= limit) {
                    return false;
                }
                if (inUse.compareAndSet(n, n + 1)) {
                    return true;
                }
            }
        }

        @Override
        public RejectedException rejection(long nowNanos) {
            return new BulkheadFullException(name, "full", 0L);
        }

        @Override
        public void onSuccess(long latencyNanos) {
            inUse.decrementAndGet();
        }

        @Override
        public void onFailure(long latencyNanos, Throwable error) {
            inUse.decrementAndGet();
        }

        @Override
        public void onIgnored() {
            inUse.decrementAndGet();
        }
    }
}
