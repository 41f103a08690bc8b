package dev.levee.degrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.LoadSignal;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** Every config field's bound: refused with a message naming the policy, the field, the bound and the value. */
@SuppressWarnings("checkstyle:LineLength") // tables of cases, one per line
class ConfigBoundsTest {

    private static void invalid(ThrowingCallable build, String policy, String field, String bound, Object value) {
        assertThatThrownBy(build)
                .isInstanceOfSatisfying(InvalidConfigException.class, e -> {
                    assertThat(e.policy()).isEqualTo(policy);
                    assertThat(e.field()).isEqualTo(field);
                })
                .hasMessage(policy + ": " + field + " must be " + bound + " but was " + value);
    }

    // ---------------------------------------------------------------- FallbackConfig

    @Test
    void fallbackConfigBounds() {
        String p = "Fallback config";
        invalid(() -> FallbackConfig.builder().classifier(null).build(), p, "classifier", "set (not null)", null);
        invalid(() -> FallbackConfig.builder().reasons((Set<FallbackReason>) null).build(), p, "reasons", "set (not null)", null);
        invalid(() -> FallbackConfig.builder().reasons(EnumSet.noneOf(FallbackReason.class)).build(), p, "reasons", "not empty", "[]");
        Set<FallbackReason> withNull = new HashSet<>();
        withNull.add(null);
        invalid(() -> FallbackConfig.builder().reasons(withNull).build(), p, "reasons", "free of nulls", "[null]");
        invalid(() -> FallbackConfig.builder().reasons(FallbackReason.ERROR, (FallbackReason) null).build(), p, "reasons", "free of nulls", null);
        invalid(() -> FallbackConfig.builder().warnInterval(null).build(), p, "warnInterval", "set (not null)", null);
        invalid(() -> FallbackConfig.builder().warnInterval(Duration.ofNanos(-1)).build(), p, "warnInterval", ">= 0", "PT-0.000000001S");
        invalid(() -> FallbackConfig.builder().warnInterval(Duration.ofHours(1).plusNanos(1)).build(),
                p, "warnInterval", "<= PT1H", "PT1H0.000000001S");
        invalid(() -> FallbackConfig.builder().ticker(null).build(), p, "ticker", "set (not null)", null);
        invalid(() -> FallbackConfig.builder().scheduler(null).build(), p, "scheduler", "set (not null)", null);

        FallbackConfig edge = FallbackConfig.builder().warnInterval(Duration.ZERO).reasons(FallbackReason.RESULT).build();
        assertThat(edge.reasons()).containsExactly(FallbackReason.RESULT);
        assertThat(FallbackConfig.builder().warnInterval(FallbackConfig.MAX_WARN_INTERVAL).build().warnInterval()).isEqualTo(Duration.ofHours(1));
        assertThat(FallbackConfig.defaults().warnInterval()).isEqualTo(FallbackConfig.DEFAULT_WARN_INTERVAL).isEqualTo(Duration.ofSeconds(10));
        assertThat(FallbackConfig.defaults().reasons()).isEqualTo(FallbackConfig.DEFAULT_REASONS).hasSize(7);
        assertThat(FallbackConfig.defaults().classifier()).isSameAs(FallbackConfig.DEFAULT_CLASSIFIER);
        assertThat(edge.toBuilder().build().reasons()).isEqualTo(edge.reasons());
    }

    @Test
    void fallbackAndTierBounds() {
        FallbackTier<String> tier = FallbackTier.ofValue("static", "s");
        invalid(() -> Fallback.of(" ", FallbackConfig.defaults(), tier), "Fallback", "name", "a non-blank string", "' '");
        invalid(() -> Fallback.of("f", null, tier), "Fallback 'f'", "config", "set (not null)", null);
        invalid(() -> Fallback.of("f", FallbackConfig.defaults(), List.of()), "Fallback 'f'", "tiers", "at least 1 tier", "[]");
        invalid(() -> Fallback.of("f", FallbackConfig.defaults(), (List<FallbackTier<String>>) null),
                "Fallback 'f'", "tiers", "set (not null)", null);
        invalid(() -> Fallback.of("f", FallbackConfig.defaults(), java.util.Arrays.asList(tier, null)),
                "Fallback 'f'", "tiers[1]", "set (not null)", null);
        invalid(() -> Fallback.of("f", FallbackConfig.defaults(), tier, FallbackTier.ofValue("static",
                "t")), "Fallback 'f'", "tiers[1].name", "unique", "static");

        invalid(() -> FallbackTier.of("", c -> "x"), "FallbackTier", "name", "a non-blank string", "''");
        invalid(() -> FallbackTier.of("t", null), "FallbackTier 't'", "function", "set (not null)", null);
        invalid(() -> FallbackTier.ofAsync("t", null), "FallbackTier 't'", "function", "set (not null)", null);
        invalid(() -> tier.withTimeout(null), "FallbackTier 'static'", "timeout", "set (not null)", null);
        invalid(() -> tier.withTimeout(Duration.ZERO), "FallbackTier 'static'", "timeout", "> 0", "PT0S");
        invalid(() -> tier.withTimeout(Duration.ofHours(1).plusNanos(1)), "FallbackTier 'static'", "timeout", "<= PT1H", "PT1H0.000000001S");
        assertThat(tier.withTimeout(Duration.ofNanos(1)).timeoutNanos()).isEqualTo(1);
        assertThat(tier.withTimeout(FallbackTier.MAX_TIMEOUT).timeout()).isEqualTo(Duration.ofHours(1));
        assertThat(tier.timeout()).isNull();
    }

    // ---------------------------------------------------------------- LastKnownGood

    @Test
    void lastKnownGoodBounds() {
        String p = "LastKnownGood config";
        invalid(() -> LastKnownGoodConfig.builder().maxStaleness(null).build(), p, "maxStaleness", "set (not null)", null);
        invalid(() -> LastKnownGoodConfig.builder().maxStaleness(Duration.ZERO).build(), p, "maxStaleness", "> 0", "PT0S");
        invalid(() -> LastKnownGoodConfig.builder().maxStaleness(Duration.ofDays(7).plusNanos(1)).build(),
                p, "maxStaleness", "<= PT168H", "PT168H0.000000001S");
        invalid(() -> LastKnownGoodConfig.builder().maxEntries(0).build(), p, "maxEntries", "in [1, 10000000]", 0);
        invalid(() -> LastKnownGoodConfig.builder().maxEntries(10_000_001).build(), p, "maxEntries", "in [1, 10000000]", 10_000_001);
        invalid(() -> LastKnownGoodConfig.builder().fallback(null).build(), p, "fallback", "set (not null)", null);
        invalid(() -> LastKnownGood.of("", LastKnownGoodConfig.defaults()), "LastKnownGood", "name", "a non-blank string", "''");
        invalid(() -> LastKnownGood.of("l", null), "LastKnownGood 'l'", "config", "set (not null)", null);

        LastKnownGoodConfig edge = LastKnownGoodConfig.builder().maxEntries(1).maxStaleness(Duration.ofNanos(1)).build();
        assertThat(edge.toBuilder().build().maxEntries()).isEqualTo(1);
        assertThat(LastKnownGoodConfig.builder().maxEntries(LastKnownGoodConfig.MAX_MAX_ENTRIES)
                .maxStaleness(LastKnownGoodConfig.MAX_MAX_STALENESS).build().maxStalenessNanos()).isEqualTo(Duration.ofDays(7).toNanos());
        assertThat(LastKnownGoodConfig.defaults().maxStaleness()).isEqualTo(LastKnownGoodConfig.DEFAULT_MAX_STALENESS)
                .isEqualTo(Duration.ofMinutes(5));
        assertThat(LastKnownGoodConfig.defaults().maxEntries()).isEqualTo(LastKnownGoodConfig.DEFAULT_MAX_ENTRIES).isEqualTo(10_000);
    }

    // ---------------------------------------------------------------- Coalescer

    @Test
    void coalescerBounds() {
        String p = "Coalescer config";
        invalid(() -> CoalescerConfig.builder().maxEntries(0).build(), p, "maxEntries", "in [1, 10000000]", 0);
        invalid(() -> CoalescerConfig.builder().maxEntries(10_000_001).build(), p, "maxEntries", "in [1, 10000000]", 10_000_001);
        invalid(() -> CoalescerConfig.builder().holdWindow(null).build(), p, "holdWindow", "set (not null)", null);
        invalid(() -> CoalescerConfig.builder().holdWindow(Duration.ofNanos(-1)).build(), p, "holdWindow", ">= 0", "PT-0.000000001S");
        invalid(() -> CoalescerConfig.builder().holdWindow(Duration.ofHours(1).plusNanos(1)).build(), p, "holdWindow", "<= PT1H", "PT1H0.000000001S");
        invalid(() -> CoalescerConfig.builder().earlyRefreshBeta(-0.1).build(), p, "earlyRefreshBeta", "in [0.0, 100.0]", -0.1);
        invalid(() -> CoalescerConfig.builder().earlyRefreshBeta(100.1).build(), p, "earlyRefreshBeta", "in [0.0, 100.0]", 100.1);
        invalid(() -> CoalescerConfig.builder().earlyRefreshBeta(Double.NaN).build(), p, "earlyRefreshBeta", "in [0.0, 100.0]", Double.NaN);
        invalid(() -> CoalescerConfig.builder().ticker(null).build(), p, "ticker", "set (not null)", null);
        invalid(() -> CoalescerConfig.builder().scheduler(null).build(), p, "scheduler", "set (not null)", null);
        invalid(() -> CoalescerConfig.builder().random(null).build(), p, "random", "set (not null)", null);
        invalid(() -> Coalescer.of(null, CoalescerConfig.defaults()), "Coalescer", "name", "a non-blank string", null);
        invalid(() -> Coalescer.of("c", null), "Coalescer 'c'", "config", "set (not null)", null);

        CoalescerConfig edge = CoalescerConfig.builder().maxEntries(1).holdWindow(CoalescerConfig.MAX_HOLD_WINDOW)
                .earlyRefreshBeta(CoalescerConfig.MAX_EARLY_REFRESH_BETA).build();
        assertThat(edge.toBuilder().earlyRefreshBeta(0).build().earlyRefreshBeta()).isZero();
        assertThat(CoalescerConfig.defaults().holdWindow()).isEqualTo(CoalescerConfig.DEFAULT_HOLD_WINDOW).isZero();
        assertThat(CoalescerConfig.defaults().earlyRefreshBeta()).isEqualTo(CoalescerConfig.DEFAULT_EARLY_REFRESH_BETA).isEqualTo(1.0);
        assertThat(CoalescerConfig.defaults().maxEntries()).isEqualTo(CoalescerConfig.DEFAULT_MAX_ENTRIES);
    }

    // ---------------------------------------------------------------- DegradationLevel

    @Test
    void degradationLevelBounds() {
        String p = "DegradationLevel config";
        invalid(() -> DegradationLevelConfig.builder().thresholds((double[]) null).build(), p, "thresholds", "set (not null)", null);
        invalid(() -> DegradationLevelConfig.builder().thresholds().build(), p, "thresholds.length", "in [1, 16]", 0);
        invalid(() -> DegradationLevelConfig.builder().thresholds(new double[17]).build(), p, "thresholds.length", "in [1, 16]", 17);
        invalid(() -> DegradationLevelConfig.builder().thresholds(0.0).build(), p, "thresholds[0]", "in (0, 1]", 0.0);
        invalid(() -> DegradationLevelConfig.builder().thresholds(-0.5).build(), p, "thresholds[0]", "in (0, 1]", -0.5);
        invalid(() -> DegradationLevelConfig.builder().thresholds(Double.NaN).build(), p, "thresholds[0]", "in (0, 1]", Double.NaN);
        invalid(() -> DegradationLevelConfig.builder().thresholds(0.5, 80.0).build(), p, "thresholds[1]",
                "in (0, 1] (a fraction of capacity, not a percent)", 80.0);
        invalid(() -> DegradationLevelConfig.builder().thresholds(0.5, 101.0).build(), p, "thresholds[1]", "in (0, 1]", 101.0);
        invalid(() -> DegradationLevelConfig.builder().thresholds(0.8, 0.8).build(), p, "thresholds[1]", "> thresholds[0] (0.8)", 0.8);
        invalid(() -> DegradationLevelConfig.builder().hysteresis(-0.01).build(), p, "hysteresis", "in [0, 1)", -0.01);
        invalid(() -> DegradationLevelConfig.builder().hysteresis(1.0).build(), p, "hysteresis", "in [0, 1)", 1.0);
        invalid(() -> DegradationLevelConfig.builder().hysteresis(Double.NaN).build(), p, "hysteresis", "in [0, 1)", Double.NaN);
        invalid(() -> DegradationLevelConfig.builder().recoveryDelay(null).build(), p, "recoveryDelay", "set (not null)", null);
        invalid(() -> DegradationLevelConfig.builder().recoveryDelay(Duration.ofNanos(-1)).build(), p, "recoveryDelay", ">= 0", "PT-0.000000001S");
        invalid(() -> DegradationLevelConfig.builder().recoveryDelay(Duration.ofHours(1).plusNanos(1)).build(),
                p, "recoveryDelay", "<= PT1H", "PT1H0.000000001S");
        invalid(() -> DegradationLevelConfig.builder().sampleInterval(null).build(), p, "sampleInterval", "set (not null)", null);
        invalid(() -> DegradationLevelConfig.builder().sampleInterval(Duration.ZERO).build(), p, "sampleInterval", "> 0", "PT0S");
        invalid(() -> DegradationLevelConfig.builder().sampleInterval(Duration.ofHours(1).plusNanos(1)).build(),
                p, "sampleInterval", "<= PT1H", "PT1H0.000000001S");
        invalid(() -> DegradationLevelConfig.builder().ticker(null).build(), p, "ticker", "set (not null)", null);
        invalid(() -> DegradationLevel.of("", DegradationLevelConfig.defaults(), LoadSignal.constant(0)),
                "DegradationLevel", "name", "a non-blank string", "''");
        invalid(() -> DegradationLevel.of("d", null, LoadSignal.constant(0)), "DegradationLevel 'd'", "config", "set (not null)", null);
        invalid(() -> DegradationLevel.of("d", DegradationLevelConfig.defaults(), null), "DegradationLevel 'd'", "signal", "set (not null)", null);
        DegradationLevel level = DegradationLevel.ofDefaults("d", LoadSignal.constant(0));
        invalid(() -> level.toggle(0), "DegradationLevel 'd'", "offFromLevel", "in [1, 2]", 0);
        invalid(() -> level.toggle(3), "DegradationLevel 'd'", "offFromLevel", "in [1, 2]", 3);

        DegradationLevelConfig edge = DegradationLevelConfig.builder().thresholds(Double.MIN_VALUE, 1.0).hysteresis(0.0)
                .recoveryDelay(Duration.ZERO).sampleInterval(Duration.ofNanos(1)).build();
        assertThat(edge.toBuilder().build().thresholds()).containsExactly(Double.MIN_VALUE, 1.0);
        assertThat(DegradationLevelConfig.defaults().thresholds()).containsExactly(0.8, 0.95);
        assertThat(DegradationLevelConfig.DEFAULT_THRESHOLDS).containsExactly(0.8, 0.95);
        assertThat(DegradationLevelConfig.defaults().hysteresis()).isEqualTo(DegradationLevelConfig.DEFAULT_HYSTERESIS);
        assertThat(DegradationLevelConfig.defaults().recoveryDelay()).isEqualTo(DegradationLevelConfig.DEFAULT_RECOVERY_DELAY);
        assertThat(DegradationLevelConfig.defaults().sampleInterval()).isEqualTo(DegradationLevelConfig.DEFAULT_SAMPLE_INTERVAL);
    }
}
