package dev.levee.degrade.internal;

import dev.levee.core.internal.EventListeners;
import dev.levee.core.Ticker;
import dev.levee.degrade.FallbackEvent;
import dev.levee.degrade.FallbackMetrics;
import dev.levee.degrade.FallbackReason;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;

/**
 * The "never silent" half of every degrading policy: counts each fallback by reason and tier, logs
 * at WARN (rate-limited), publishes events, and reports an exhausted chain at ERROR. Runs only on the
 * failure path, so it reads the ticker there and nowhere else.
 */
public final class Activations {
    private static final FallbackReason[] REASONS = FallbackReason.values();

    private final String kind;
    private final String name;
    private final List<String> tiers;
    private final Ticker ticker;
    private final Logger log;
    private final EventListeners<FallbackEvent> listeners;
    /** {@code served[reason.ordinal() * tiers + tier]}. */
    private final LongAdder[] served;
    private final LongAdder[] exhausted;
    private final LongAdder tierFailures = new LongAdder();
    private final LogLimiter warnings;
    private final LogLimiter errors;

    /**
     * @param kind the policy kind for messages, e.g. {@code Fallback}
     * @param name the policy's name
     * @param tiers the tiers' names in order
     * @param ticker the time source
     * @param warnIntervalNanos the least time between two WARN (and two ERROR) lines
     * @param log where to log
     * @param listeners the policy's event listeners
     */
    public Activations(String kind, String name, List<String> tiers, Ticker ticker, long warnIntervalNanos,
            Logger log, EventListeners<FallbackEvent> listeners) {
        this.kind = kind;
        this.name = name;
        this.tiers = List.copyOf(tiers);
        this.ticker = ticker;
        this.log = log;
        this.listeners = listeners;
        this.served = new LongAdder[REASONS.length * tiers.size()];
        for (int i = 0; i < served.length; i++) {
            served[i] = new LongAdder();
        }
        this.exhausted = new LongAdder[REASONS.length];
        for (int i = 0; i < exhausted.length; i++) {
            exhausted[i] = new LongAdder();
        }
        long now = ticker.read();
        this.warnings = new LogLimiter(warnIntervalNanos, now);
        this.errors = new LogLimiter(warnIntervalNanos, now);
    }

    /**
     * A tier served a value.
     *
     * @param reason why the primary was not used
     * @param tier the tier's index
     * @param cause the primary's failure
     */
    public void fellBack(FallbackReason reason, int tier, Throwable cause) {
        served[reason.ordinal() * tiers.size() + tier].increment();
        long now = ticker.read();
        if (!listeners.isEmpty()) {
            listeners.publish(new FallbackEvent.FellBack(name, now, reason, tiers.get(tier), cause));
        }
        long held = warnings.tryLog(now);
        if (held >= 0) {
            log.warn("{} '{}': {} ({}), served by tier '{}'{}", kind, name, reason.tag(), describe(cause),
                    tiers.get(tier), held == 0 ? "" : "; " + held + " more fallbacks since the last warning");
        }
    }

    /**
     * A tier failed.
     *
     * @param reason why the primary was not used
     * @param tier the tier's index
     * @param failure what the tier failed with
     */
    public void tierFailed(FallbackReason reason, int tier, Throwable failure) {
        tierFailures.increment();
        if (!listeners.isEmpty()) {
            listeners.publish(new FallbackEvent.TierFailed(name, ticker.read(), reason, tiers.get(tier), failure));
        }
        if (log.isDebugEnabled()) {
            log.debug("{} '{}': tier '{}' failed: {}", kind, name, tiers.get(tier), describe(failure));
        }
    }

    /**
     * Every tier failed.
     *
     * @param reason why the primary was not used
     * @param cause the primary's failure, with the tiers' failures suppressed where it allows
     */
    public void exhausted(FallbackReason reason, Throwable cause) {
        exhausted[reason.ordinal()].increment();
        long now = ticker.read();
        if (!listeners.isEmpty()) {
            listeners.publish(new FallbackEvent.Exhausted(name, now, reason, cause));
        }
        long held = errors.tryLog(now);
        if (held >= 0) {
            log.error("{} '{}': {} and every fallback tier {} failed{}", kind, name, reason.tag(), tiers,
                    held == 0 ? "" : "; " + held + " more since the last error", cause);
        }
    }

    /**
     * @param reason a reason
     * @param tier a tier's index
     * @return values served by that tier for that reason
     */
    public long fallbackCount(FallbackReason reason, int tier) {
        return served[reason.ordinal() * tiers.size() + tier].sum();
    }

    /**
     * @param reason a reason
     * @return exhausted chains for that reason
     */
    public long exhaustedCount(FallbackReason reason) {
        return exhausted[reason.ordinal()].sum();
    }

    /** @return a snapshot of the counters */
    public FallbackMetrics metrics() {
        Map<FallbackReason, Long> byReason = new EnumMap<>(FallbackReason.class);
        Map<String, Long> byTier = new LinkedHashMap<>();
        long total = 0;
        long allExhausted = 0;
        for (FallbackReason reason : REASONS) {
            long sum = 0;
            for (int t = 0; t < tiers.size(); t++) {
                long n = fallbackCount(reason, t);
                sum += n;
                byTier.merge(tiers.get(t), n, Long::sum);
            }
            byReason.put(reason, sum);
            total += sum;
            allExhausted += exhaustedCount(reason);
        }
        return new FallbackMetrics(total, tierFailures.sum(), allExhausted, byReason, byTier);
    }

    private static String describe(Throwable t) {
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }
}
