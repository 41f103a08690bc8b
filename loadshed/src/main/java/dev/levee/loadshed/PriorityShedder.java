package dev.levee.loadshed;

import dev.levee.core.internal.Validate;

/**
 * Sheds the least important requests first as load rises above a maximum (seed 000,
 * {@code PriorityLoadShedder}): under moderate overload only background work is refused, under
 * heavy overload only CRITICAL requests get in.
 *
 * <pre>{@code
 * PriorityShedder shedder = PriorityShedder.of("search",
 *         PriorityShedderConfig.builder().load(cpu).build());
 * if (!shedder.admits(classifier.priority(request))) return ShedResponse.of(ShedDecision.LOW_PRIORITY_SHED);
 * }</pre>
 *
 * <p><b>Model.</b> Tiers on seed 000's scale: CRITICAL {@value #CRITICAL}, HIGH {@value #HIGH},
 * NORMAL {@value #NORMAL}, LOW {@value #LOW}. A request of level {@code L} (1–10, see
 * {@link RequestPriority}) weighs {@code 10·L}. With {@code overload = (load − maxLoad) / (1 − maxLoad)}:
 * <table>
 *   <caption>Minimum admitted weight (seed 000's {@code _min_priority_allowed})</caption>
 *   <tr><th>load / overload</th><th>minimum</th><th>admitted levels</th></tr>
 *   <tr><td>load &lt; maxLoad</td><td>0</td><td>all</td></tr>
 *   <tr><td>overload &lt; 0.25</td><td>LOW (25)</td><td>3–10</td></tr>
 *   <tr><td>overload &lt; 0.5</td><td>NORMAL (50)</td><td>5–10</td></tr>
 *   <tr><td>overload &lt; 0.75</td><td>HIGH (75)</td><td>8–10</td></tr>
 *   <tr><td>otherwise</td><td>CRITICAL (100)</td><td>10</td></tr>
 * </table>
 * A request is admitted iff its weight ≥ the minimum. Each boundary belongs to the stage above it
 * (overload exactly 0.25 is the NORMAL stage), as in the seed's strict {@code <}.
 *
 * <p><b>The seed's LOW quirk, decided.</b> The seed's comment on the first stage says "Drop LOW
 * priority", but its code returns {@code LOW} as the minimum and admits {@code priority >= LOW}, so
 * LOW passes. We follow the code: every stage then drops exactly one more tier, CRITICAL is never
 * shed, and the first stage is a buffer that sheds only work ranked below LOW (levels 1–2: batch,
 * exports, prefetch). Following the comment instead would make the first two stages both shed LOW and
 * the last two both admit only CRITICAL; set {@code shedLowInFirstStage} for that reading (the first
 * stage's minimum becomes NORMAL, so the LOW tier, levels 3–4, is shed from the start).
 *
 * <p><b>Guarantees.</b> Level 10 (CRITICAL) is never shed by this shedder. The decision is a pure
 * function of the load reading and the level. A NaN or negative load reads as 0 (never shed on bad
 * data).
 *
 * <p><b>Cost.</b> One {@link dev.levee.core.LoadSignal#load()} read (a volatile read for Levee's
 * signals) and a few comparisons; no allocation, no lock.
 */
public final class PriorityShedder extends BaseShedder {
    /** Seed 000's CRITICAL weight. */
    public static final int CRITICAL = 100;
    /** Seed 000's HIGH weight. */
    public static final int HIGH = 75;
    /** Seed 000's NORMAL weight. */
    public static final int NORMAL = 50;
    /** Seed 000's LOW weight. */
    public static final int LOW = 25;
    /** Overload boundaries of the stages (seed 000). */
    static final double STAGE_1 = 0.25;
    static final double STAGE_2 = 0.5;
    static final double STAGE_3 = 0.75;

    private final PriorityShedderConfig config;
    private final double maxLoad;
    private final boolean shedLowInFirstStage;
    private volatile int lastMinimum;

    private PriorityShedder(String name, PriorityShedderConfig config) {
        super(name, config.ticker(), config.retryAfter().toNanos());
        this.config = config;
        this.maxLoad = config.maxLoad();
        this.shedLowInFirstStage = config.shedLowInFirstStage();
    }

    /**
     * Creates a priority shedder.
     *
     * @param name the name, used in rejections, events and metric tags
     * @param config the configuration
     * @return the shedder
     */
    public static PriorityShedder of(String name, PriorityShedderConfig config) {
        Validate.name("PriorityShedder", name);
        Validate.notNull(Validate.describe("PriorityShedder", name), "config", config);
        return new PriorityShedder(name, config);
    }

    /** @return the configuration */
    public PriorityShedderConfig config() {
        return config;
    }

    /**
     * Seed 000's overload: {@code (load − maxLoad) / (1 − maxLoad)}.
     *
     * @param load a load reading
     * @param maxLoad the maximum load, in [0, 1)
     * @return the overload; negative below {@code maxLoad}
     */
    public static double overload(double load, double maxLoad) {
        return (load - maxLoad) / (1.0 - maxLoad);
    }

    /**
     * The minimum admitted weight for an overload, per seed 000 (code reading).
     *
     * @param overload the overload; negative means below the maximum load
     * @return 0, {@link #LOW}, {@link #NORMAL}, {@link #HIGH} or {@link #CRITICAL}
     */
    public static int minimumTier(double overload) {
        if (!(overload >= 0.0)) {
            return 0;
        }
        if (overload < STAGE_1) {
            return LOW;
        }
        if (overload < STAGE_2) {
            return NORMAL;
        }
        if (overload < STAGE_3) {
            return HIGH;
        }
        return CRITICAL;
    }

    /**
     * The minimum admitted weight at a load reading.
     *
     * @param load the load
     * @return the minimum weight; a request is admitted iff {@code 10·level >= minimum} (or
     *     {@code >} in the first stage with {@code shedLowInFirstStage})
     */
    public int minimumWeight(double load) {
        double l = load >= 0.0 ? load : 0.0; // NaN and negatives read as idle
        if (l < maxLoad) {
            return 0;
        }
        return minimumTier(overload(l, maxLoad));
    }

    /**
     * Whether a request of {@code level} is admitted at the current load.
     *
     * @param level the request's level in [1, 10]
     * @return true to admit
     */
    public boolean admits(int level) {
        return admitsAt(level, config.load().load());
    }

    /**
     * Whether a request of {@code level} is admitted at a given load.
     *
     * @param level the request's level in [1, 10]
     * @param load the load reading
     * @return true to admit
     */
    public boolean admitsAt(int level, double load) {
        int min = minimumWeight(load);
        if (min != lastMinimum) {
            minimumChanged(min, load);
        }
        int weight = 10 * RequestPriority.clamp(level);
        if (min == LOW && shedLowInFirstStage) {
            return weight >= NORMAL; // the comment's reading: the LOW tier (levels 3-4) is dropped too
        }
        return weight >= min;
    }

    private void minimumChanged(int min, double load) {
        int from = lastMinimum;
        lastMinimum = min;
        if (!events.isEmpty()) {
            events.publish(new ShedderEvent.MinimumPriorityChanged(name, ticker.read(), from, min, load));
        }
    }

    @Override
    public ShedDecision decide(int priority, long nowNanos) {
        return admits(priority) ? ShedDecision.ADMITTED : ShedDecision.LOW_PRIORITY_SHED;
    }
}
