package dev.levee.jcstress;

import dev.levee.core.ManualTicker;
import dev.levee.retry.RetryBudget;
import dev.levee.retry.RetryBudgetConfig;
import java.time.Duration;

/**
 * A retry budget (ratio 0.5, no minimum, ttl 1 s) whose ring of buckets has turned once: a deposit and
 * a withdrawal were made a full ring ago (64 buckets of 2^25 ns), so the slots the actors write hold a
 * stale epoch and the first writer of each rotates it. The budget has been read after the turn, so
 * deposits land in the current bucket (a deposit reads no clock; it uses the newest bucket a reader saw).
 */
final class Budgets {
    /** One full ring of the counters' buckets for a 1 s ttl: 64 × 2^25 ns. */
    static final long RING_NANOS = 64L << 25;

    final ManualTicker ticker = new ManualTicker(1L << 40);
    final RetryBudget budget = RetryBudget.of("jcstress", RetryBudgetConfig.builder()
            .retryRatio(0.5)
            .minRetriesPerSecond(0.0)
            .ttl(Duration.ofSeconds(1))
            .ticker(ticker)
            .build());

    Budgets() {
        budget.onRequestStart();
        budget.onRequestStart();
        budget.tryRetry();
        ticker.advance(RING_NANOS);
        // Deposits read no clock: they land in the newest bucket a reader has published. Reading the
        // budget publishes the current one, as the first request after a quiet spell would.
        budget.available();
    }
}
