package dev.levee.retry;

/**
 * An immutable snapshot of a {@link Hedge}'s counters since it was created, from {@link Hedge#metrics()}.
 *
 * @param calls calls made through the hedge
 * @param hedges extra attempts started
 * @param hedgeWins calls answered by an extra attempt rather than the first
 * @param rejected hedges the budget refused (the {@code levee.hedge.rejected} counter, {@code kind}
 *        {@value RetryBudget#REJECTED_KIND})
 * @param rejectedWithoutKey hedges not started because a call declared {@link Idempotency#KEYED} carried
 *        no idempotency key ({@code levee.hedge.rejected}, {@code kind}
 *        {@value MissingIdempotencyKeyException#REJECTED_KIND})
 */
public record HedgeMetrics(long calls, long hedges, long hedgeWins, long rejected, long rejectedWithoutKey) {}
