package dev.levee.loadshed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ContextScope;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.LoadSignal;
import dev.levee.core.ManualTicker;
import dev.levee.core.ShedException;
import dev.levee.loadshed.sim.ServiceTime;
import dev.levee.loadshed.sim.ShedderAdmission;
import dev.levee.loadshed.sim.SimRequest;
import dev.levee.loadshed.sim.Simulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

@SuppressWarnings("try") // scopes opened only for their effect on the current thread
class PriorityShedderTest {
    private final double[] load = {0};

    private PriorityShedder shedder(boolean strict) {
        return PriorityShedder.of("p", PriorityShedderConfig.builder().load(() -> load[0]).shedLowInFirstStage(strict).build());
    }

    private static double below(double x) {
        return Math.nextDown(x);
    }

    @Test
    void tierTableIsExactAtEveryBoundary() {
        assertThat(PriorityShedder.minimumTier(below(0.0))).isZero();
        assertThat(PriorityShedder.minimumTier(Double.NaN)).isZero();
        assertThat(PriorityShedder.minimumTier(0.0)).isEqualTo(PriorityShedder.LOW);
        assertThat(PriorityShedder.minimumTier(below(0.25))).isEqualTo(PriorityShedder.LOW);
        assertThat(PriorityShedder.minimumTier(0.25)).isEqualTo(PriorityShedder.NORMAL);
        assertThat(PriorityShedder.minimumTier(below(0.5))).isEqualTo(PriorityShedder.NORMAL);
        assertThat(PriorityShedder.minimumTier(0.5)).isEqualTo(PriorityShedder.HIGH);
        assertThat(PriorityShedder.minimumTier(below(0.75))).isEqualTo(PriorityShedder.HIGH);
        assertThat(PriorityShedder.minimumTier(0.75)).isEqualTo(PriorityShedder.CRITICAL);
        assertThat(PriorityShedder.minimumTier(1.0)).isEqualTo(PriorityShedder.CRITICAL);
        assertThat(PriorityShedder.minimumTier(40.0)).isEqualTo(PriorityShedder.CRITICAL);
        assertThat(List.of(PriorityShedder.CRITICAL, PriorityShedder.HIGH, PriorityShedder.NORMAL, PriorityShedder.LOW))
                .containsExactly(100, 75, 50, 25);
    }

    @Test
    void loadBoundariesWithTheSeedMaximum() {
        PriorityShedder s = shedder(false);
        assertThat(s.config().maxLoad()).isEqualTo(0.8);
        assertThat(s.minimumWeight(below(0.8))).isZero();
        assertThat(s.minimumWeight(0.8)).isEqualTo(PriorityShedder.LOW);
        assertThat(s.minimumWeight(-1)).isZero();
        assertThat(s.minimumWeight(Double.NaN)).isZero();
        assertThat(s.minimumWeight(1.0)).isEqualTo(PriorityShedder.CRITICAL);
        assertThat(PriorityShedder.overload(0.9, 0.8)).isCloseTo(0.5, org.assertj.core.api.Assertions.within(1e-12));
    }

    /** Which levels each stage admits, level by level; the seed-code reading (LOW admitted in stage 1). */
    @Test
    void admittedLevelsPerStage() {
        PriorityShedder s = shedder(false);
        assertThat(admitted(s, 0.5)).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
        assertThat(admitted(s, 0.8)).containsExactly(3, 4, 5, 6, 7, 8, 9, 10);      // min LOW (25): LOW admitted
        assertThat(admitted(s, 0.86)).containsExactly(5, 6, 7, 8, 9, 10);           // min NORMAL
        assertThat(admitted(s, 0.91)).containsExactly(8, 9, 10);                    // min HIGH (75)
        assertThat(admitted(s, 0.96)).containsExactly(10);                          // only CRITICAL
        assertThat(admitted(s, 3.0)).containsExactly(10);
    }

    @Test
    void theCommentReadingShedsLowInTheFirstStage() {
        PriorityShedder s = shedder(true);
        assertThat(admitted(s, 0.8)).containsExactly(5, 6, 7, 8, 9, 10);
        assertThat(admitted(s, 0.86)).containsExactly(5, 6, 7, 8, 9, 10);
        assertThat(admitted(s, 0.5)).hasSize(10);
    }

    private static List<Integer> admitted(PriorityShedder s, double load) {
        List<Integer> out = new ArrayList<>();
        for (int level = 1; level <= 10; level++) {
            if (s.admitsAt(level, load)) {
                out.add(level);
            }
        }
        return out;
    }

    @Test
    void gateFormUsesTheCurrentPriority() {
        PriorityShedder s = shedder(false);
        load[0] = 0.99;
        assertThat(s.tryAcquire()).isFalse();
        ShedException e = (ShedException) s.rejection(0);
        assertThat(e.reason()).isEqualTo("low_priority_shed");
        try (ContextScope c = RequestPriority.attach(10)) {
            assertThat(s.tryAcquire()).isTrue();
            s.onSuccess(1);
        }
        List<ShedderEvent> events = new ArrayList<>();
        s.onEvent(events::add);
        load[0] = 0.1;
        s.decide(5, 0);
        assertThat(events).singleElement().isInstanceOf(ShedderEvent.MinimumPriorityChanged.class);
        assertThat(s.metrics().shedByReason()).containsEntry("low_priority_shed", 1L);
        assertThat(s.inFlight()).isZero();
    }

    @Test
    void seedClassifierRules() {
        record Req(String path, boolean user) {}
        RequestClassifier<Req> c = RequestClassifier.seedRules(Req::path, Req::user);
        assertThat(c.priority(new Req("/search", false))).isEqualTo(5);
        assertThat(c.priority(new Req("/search", true))).isEqualTo(7);
        assertThat(c.priority(new Req("/checkout", true))).isEqualTo(10);
        assertThat(c.priority(new Req("/cart/checkout", false))).isEqualTo(8);
        assertThat(c.priority(new Req("/export", false))).isEqualTo(3);
        assertThat(c.priority(new Req("/report/checkout/export", true))).isEqualTo(8);
        assertThat(c.priority(new Req("/health", false))).isEqualTo(8);
        assertThat(c.priority(new Req("/api/payments/1", false))).isEqualTo(8);
        assertThat(c.priority(new Req(null, false))).isEqualTo(5);
        assertThat(RequestPriority.clamp(-3)).isEqualTo(1);
        assertThat(RequestPriority.clamp(42)).isEqualTo(10);
    }

    @Test
    void configBounds() {
        assertThatThrownBy(() -> PriorityShedderConfig.builder().build()).isInstanceOf(InvalidConfigException.class).hasMessageContaining("load");
        assertThatThrownBy(() -> PriorityShedderConfig.builder().load(LoadSignal.constant(0)).maxLoad(80).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("percent");
        assertThatThrownBy(() -> PriorityShedderConfig.builder().load(LoadSignal.constant(0)).maxLoad(1.0).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("maxLoad");
        assertThatThrownBy(() -> PriorityShedderConfig.builder().load(LoadSignal.constant(0)).maxLoad(-0.1).build())
                .isInstanceOf(InvalidConfigException.class);
        assertThatThrownBy(() -> PriorityShedderConfig.builder().load(LoadSignal.constant(0)).retryAfter(Duration.ofDays(1)).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("retryAfter");
        assertThatThrownBy(() -> PriorityShedderConfig.builder().load(LoadSignal.constant(0)).ticker(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("ticker");
    }

    /** Under a simulated 3x overload, CRITICAL keeps its goodput while the lowest levels are shed first. */
    @Test
    void criticalGoodputHoldsUnderOverloadWhileLowIsShedFirst() {
        ManualTicker ticker = new ManualTicker(1_000_000_000_000L);
        Simulation[] sim = new Simulation[1];
        PriorityShedder shedder = PriorityShedder.of("p", PriorityShedderConfig.builder().ticker(ticker)
                .load(() -> sim[0].inServer() / (double) sim[0].capacity()).build());
        int[] levels = {2, 4, 6, 8, 10};
        long[] offered = new long[11];
        long[] good = new long[11];
        ShedderAdmission gate = ShedderAdmission.of(shedder);
        sim[0] = Simulation.builder().ticker(ticker).seed(5).capacity(20)
                .serviceTime(ServiceTime.uniform(Duration.ofMillis(20), 0.5))
                .offeredLoad(3.0).deadline(Duration.ofMillis(500))
                .tagger((r, rnd) -> r.priority(levels[(int) rnd.nextLong(levels.length)]))
                .admission(new dev.levee.loadshed.sim.Admission() {
                    @Override
                    public boolean tryAdmit(SimRequest r, long now) {
                        offered[r.priority()]++;
                        return gate.tryAdmit(r, now);
                    }

                    @Override
                    public void onComplete(SimRequest r, long now) {
                        if (r.isGood()) {
                            good[r.priority()]++;
                        }
                        gate.onComplete(r, now);
                    }
                })
                .build();
        sim[0].runFor(Duration.ofSeconds(60));
        double critical = good[10] / (double) offered[10];
        assertThat(critical).isGreaterThanOrEqualTo(0.95);
        double[] share = new double[11];
        for (int l : levels) {
            share[l] = good[l] / (double) offered[l];
        }
        // shed from the bottom: each level keeps at most what the level above it keeps (levels of
        // neighbouring stages alternate as the load moves, hence one point of slack)
        assertThat(share[2]).isLessThanOrEqualTo(share[4] + 0.01);
        assertThat(share[4]).isLessThanOrEqualTo(share[6] + 0.01);
        assertThat(share[6]).isLessThanOrEqualTo(share[8] + 0.01);
        assertThat(share[8]).isLessThan(share[10]);
        assertThat(share[2]).isLessThan(0.05);
        assertThat(shedder.shedCount(ShedDecision.LOW_PRIORITY_SHED)).isPositive();
    }
}
