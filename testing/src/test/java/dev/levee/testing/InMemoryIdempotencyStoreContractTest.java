package dev.levee.testing;

import dev.levee.core.ManualTicker;
import dev.levee.idempotency.IdempotencyStore;
import dev.levee.idempotency.InMemoryIdempotencyStore;
import java.time.Duration;

/** The in-memory store keeps the store contract (here: levee-idempotency's tests cannot use this module). */
class InMemoryIdempotencyStoreContractTest extends IdempotencyStoreContract {
    private final ManualTicker ticker = new ManualTicker();

    @Override
    protected IdempotencyStore newStore() {
        return InMemoryIdempotencyStore.builder().ticker(ticker).build();
    }

    @Override
    protected void elapse(Duration amount) {
        ticker.advance(amount);
    }
}
