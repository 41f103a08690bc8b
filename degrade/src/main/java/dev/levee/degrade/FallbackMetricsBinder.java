package dev.levee.degrade;

import dev.levee.core.internal.MetricNames;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Micrometer metrics of fallbacks ({@link Fallback} and {@link LastKnownGood}). Meters read the
 * policies' own counters when scraped, so binding adds nothing to the call path.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>meaning</th></tr>
 *   <tr><td>{@code levee.degrade.fallbacks}</td><td>counter</td><td>{@code name}, {@code reason},
 *       {@code tier}</td><td>values served by a fallback tier (one series per reason and tier)</td></tr>
 *   <tr><td>{@code levee.degrade.exhausted}</td><td>counter</td><td>{@code name}, {@code reason}</td>
 *       <td>failures for which every tier failed too</td></tr>
 * </table>
 *
 * <pre>{@code
 * new FallbackMetricsBinder(recommendations, prices).bindTo(meterRegistry);
 * }</pre>
 */
public final class FallbackMetricsBinder implements MeterBinder {
    /** The {@code tier} tag key. */
    public static final String TAG_TIER = "tier";

    private final List<GracefulDegrader> degraders;

    /**
     * @param degraders the fallbacks to bind
     */
    public FallbackMetricsBinder(GracefulDegrader... degraders) {
        this(List.of(degraders));
    }

    /**
     * @param degraders the fallbacks to bind
     */
    public FallbackMetricsBinder(Collection<? extends GracefulDegrader> degraders) {
        this.degraders = List.copyOf(Objects.requireNonNull(degraders, "degraders"));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        for (GracefulDegrader degrader : degraders) {
            List<String> tiers = degrader.tierNames();
            for (FallbackReason reason : FallbackReason.values()) {
                for (int t = 0; t < tiers.size(); t++) {
                    int tier = t;
                    FunctionCounter.builder(MetricNames.name("degrade", "fallbacks"), degrader,
                                    d -> d.fallbackCount(reason, tier))
                            .tag(MetricNames.TAG_NAME, degrader.name())
                            .tag(MetricNames.TAG_REASON, reason.tag())
                            .tag(TAG_TIER, tiers.get(t))
                            .description("values served by a fallback tier")
                            .register(registry);
                }
                FunctionCounter.builder(MetricNames.name("degrade", "exhausted"), degrader,
                                d -> d.exhaustedCount(reason))
                        .tag(MetricNames.TAG_NAME, degrader.name())
                        .tag(MetricNames.TAG_REASON, reason.tag())
                        .description("failures for which every fallback tier failed")
                        .register(registry);
            }
        }
    }
}
