package dev.levee.degrade;

/**
 * Probabilistic early expiration ("XFetch", Vattani, Chierichetti and Lowenstein, <i>Optimal
 * Probabilistic Cache Stampede Prevention</i>, VLDB 2015): refresh a cached value a little before it
 * expires, each reader deciding independently with a probability that rises as expiry approaches, so
 * that one reader — not a thousand at the same instant — recomputes it.
 *
 * <p><b>Formula.</b> A reader at time {@code now} refreshes a value expiring at {@code expiry} whose
 * last computation took {@code delta} when
 * <pre>
 *   now - delta · beta · ln(u) &gt;= expiry        u uniform in (0, 1]
 * </pre>
 * i.e. with probability {@code exp(-(expiry - now) / (delta · beta))}: negligible while the remaining
 * time is many {@code delta}s, about 37 % one {@code delta · beta} before expiry, certain at expiry.
 * {@code beta = 1} is the paper's optimum for a single recomputation; larger values refresh earlier.
 * {@code beta = 0} disables early refresh.
 *
 * <p>A pure function; the {@link Coalescer} draws {@code u} from its {@link dev.levee.core.RandomSource}
 * so tests are reproducible.
 */
public final class XFetch {
    private XFetch() {}

    /**
     * Whether a reader should refresh now.
     *
     * @param nowNanos the current ticker reading
     * @param expiryNanos when the value expires, on the same ticker
     * @param deltaNanos how long the value took to compute
     * @param beta the eagerness, {@code >= 0}; 0 never refreshes early
     * @param uniform a uniform random draw in {@code [0, 1)} (mapped to {@code (0, 1]} internally)
     * @return true if this reader should recompute the value now
     */
    public static boolean shouldRefresh(long nowNanos, long expiryNanos, long deltaNanos, double beta, double uniform) {
        long remaining = expiryNanos - nowNanos;
        if (remaining <= 0) {
            return true;
        }
        if (beta <= 0 || deltaNanos <= 0) {
            return false;
        }
        double u = 1.0 - uniform; // (0, 1]: ln(u) is finite and <= 0
        return -(deltaNanos * beta * Math.log(u)) >= remaining;
    }

    /**
     * The probability that {@link #shouldRefresh} answers true: {@code exp(-remaining / (delta · beta))}.
     *
     * @param remainingNanos time left before expiry
     * @param deltaNanos how long the value took to compute
     * @param beta the eagerness
     * @return a probability in [0, 1]
     */
    public static double probability(long remainingNanos, long deltaNanos, double beta) {
        if (remainingNanos <= 0) {
            return 1.0;
        }
        if (beta <= 0 || deltaNanos <= 0) {
            return 0.0;
        }
        return Math.exp(-remainingNanos / (deltaNanos * beta));
    }
}
