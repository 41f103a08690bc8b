package dev.levee.retry;

/**
 * Counters of a {@link Hedge} since it was created; see {@link Hedge#metrics()}.
 *
 * @param calls calls made through the hedge
 * @param hedges extra attempts started
 * @param hedgeWins calls answered by an extra attempt rather than the first
 * @param budgetRefusals hedges the budget refused
 */
public record HedgeMetrics(long calls, long hedges, long hedgeWins, long budgetRefusals) {}
