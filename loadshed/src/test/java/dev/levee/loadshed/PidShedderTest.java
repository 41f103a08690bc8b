package dev.levee.loadshed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.levee.core.ContextScope;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.ShedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

// Line length: tables of cases, one per line. try: scopes opened only for their effect on the current thread.
@SuppressWarnings({"checkstyle:LineLength", "try"})
class PidShedderTest {
    private static final long MS = 1_000_000L;
    private final ManualTicker ticker = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);
    private final double[] measured = {0};
    private final double[] draws = {0.5};

    private PidShedder pid(double kd) {
        return PidShedder.of("pid", PidShedderConfig.builder().ticker(ticker).scheduler(scheduler)
                .measurement(() -> measured[0]).kp(1).ki(10).kd(kd).random(() -> draws[0]).build());
    }

    private void step(double value) {
        measured[0] = value;
        scheduler.advance(Duration.ofMillis(100));
    }

    @Test
    void rejectionProbabilityIsExactOnScriptedErrors() {
        PidShedder p = pid(0.5);
        step(300);   // e=100: P=100, integral=10 -> I=100, D=0.5*100/0.1=500 -> 700/1000
        assertThat(p.rejectionProbability()).isCloseTo(0.7, within(1e-12));
        assertThat(p.integral()).isCloseTo(10.0, within(1e-12));
        step(250);   // e=50: P=50, integral=15 -> I=150, D=0.5*(50-100)/0.1=-250 -> -50 -> 0
        assertThat(p.rejectionProbability()).isEqualTo(0.0);
        step(1200);  // e=1000: P=1000, integral=min(100, 115) -> I=1000, D=4750 -> clamp 1
        assertThat(p.rejectionProbability()).isEqualTo(1.0);
        assertThat(p.integral()).isEqualTo(100.0);
        step(200);   // e=0: P=0, I=1000, D=0.5*(0-1000)/0.1=-5000 -> 0
        assertThat(p.rejectionProbability()).isEqualTo(0.0);
        step(260);   // e=60: P=60, integral=100, D=0.5*60/0.1=300 -> (60+1000+300)/1000 -> 1
        assertThat(p.rejectionProbability()).isEqualTo(1.0);
        p.close();
    }

    @Test
    void antiWindupClampsTheIntegralToZeroAndOneHundred() {
        PidShedder p = pid(0);
        for (int i = 0; i < 600; i++) {
            step(10_000); // a minute of huge overload
        }
        assertThat(p.integral()).isEqualTo(100.0);
        step(200);       // at the setpoint: only the integral remains, 10*100/1000
        assertThat(p.rejectionProbability()).isEqualTo(1.0);
        step(100);       // e=-100: integral 90, P -100 -> (900-100)/1000
        assertThat(p.integral()).isCloseTo(90.0, within(1e-9));
        assertThat(p.rejectionProbability()).isCloseTo(0.8, within(1e-9));
        for (int i = 0; i < 600; i++) {
            step(0);     // a minute of idle: the integral stays at 0, never negative
        }
        assertThat(p.integral()).isEqualTo(0.0);
        step(250);       // a new overload reacts at once: P 50 + I 10*5
        assertThat(p.rejectionProbability()).isCloseTo(0.1, within(1e-9));
    }

    @Test
    void dropsWhenTheDrawIsBelowTheProbability() {
        PidShedder p = pid(0);
        step(300); // e=100: 100 + 10*10 = 200 -> 0.2
        assertThat(p.rejectionProbability()).isCloseTo(0.2, within(1e-12));
        draws[0] = 0.19;
        assertThat(p.decide(5, ticker.read())).isEqualTo(ShedDecision.PID);
        draws[0] = 0.2000001;
        assertThat(p.decide(5, ticker.read())).isEqualTo(ShedDecision.ADMITTED);
        draws[0] = 0.1;
        assertThat(p.tryAcquire()).isFalse();
        ShedException e = (ShedException) p.rejection(ticker.read());
        assertThat(e.reason()).isEqualTo("pid");
        assertThat(e.retryAfterSeconds()).isEqualTo(5);
        assertThat(p.shedCount(ShedDecision.PID)).isEqualTo(1);
    }

    @Test
    void updatesRunOnTheSchedulerNotPerCallAndStopOnClose() {
        PidShedder p = pid(0);
        measured[0] = 300;
        for (int i = 0; i < 1000; i++) {
            p.decide(5, ticker.read());
        }
        assertThat(p.rejectionProbability()).isZero();
        scheduler.advance(Duration.ofMillis(100));
        assertThat(p.rejectionProbability()).isPositive();
        p.close();
        measured[0] = 0;
        scheduler.advance(Duration.ofSeconds(1));
        assertThat(p.rejectionProbability()).isPositive();
        assertThat(scheduler.pending()).isZero();
    }

    @Test
    void priorityAwareShedsFromTheLowestLevelUp() {
        PidShedder p = PidShedder.of("pid", PidShedderConfig.builder().ticker(ticker).scheduler(scheduler)
                .measurement(() -> measured[0]).kp(1).ki(0).kd(0).priorityAware(true).random(() -> draws[0]).build());
        draws[0] = 0.999;
        for (int i = 0; i < 10; i++) {
            p.decide(1, ticker.read());
            p.decide(5, ticker.read());
            p.decide(10, ticker.read());
        }
        step(700); // e=500 -> r=0.5: quota 15 of 30 arrivals
        assertThat(p.rejectionProbability()).isEqualTo(0.5);
        assertThat(p.rejectionProbability(1)).isEqualTo(1.0);
        assertThat(p.rejectionProbability(3)).isEqualTo(1.0);   // no arrivals, quota left: all
        assertThat(p.rejectionProbability(5)).isEqualTo(0.5);   // 5 of its 10
        assertThat(p.rejectionProbability(7)).isEqualTo(0.0);
        assertThat(p.rejectionProbability(10)).isEqualTo(0.0);
        try (ContextScope s = RequestPriority.attach(10)) {
            assertThat(p.tryAcquire()).isTrue();
        }
        try (ContextScope s = RequestPriority.attach(1)) {
            assertThat(p.tryAcquire()).isFalse();
        }
    }

    @Test
    void builtInEstimatedLatencyIsInFlightOverCompletionRate() {
        PidShedder p = PidShedder.of("pid", PidShedderConfig.builder().ticker(ticker).scheduler(scheduler).build());
        for (int i = 0; i < 30; i++) {
            assertThat(p.tryAcquire()).isTrue();
        }
        for (int i = 0; i < 10; i++) {
            p.onSuccess(5 * MS);
        }
        scheduler.advance(Duration.ofMillis(100)); // 10 done in 0.1 s: 100/s; 20 inside -> 200 ms
        assertThat(p.lastMeasurement()).isCloseTo(200.0, within(1e-9));
        assertThat(p.inFlight()).isEqualTo(20);
    }

    @Test
    void builtInQuantileIsTheP99OfTheInterval() {
        PidShedder p = PidShedder.of("pid", PidShedderConfig.builder().ticker(ticker).scheduler(scheduler)
                .builtInMeasurement(PidShedderConfig.BuiltInMeasurement.LATENCY_QUANTILE).build());
        for (int i = 0; i < 100; i++) {
            p.tryAcquire();
            p.onSuccess((i < 99 ? 10 : 900) * MS);
        }
        scheduler.advance(Duration.ofMillis(100));
        assertThat(p.lastMeasurement()).isBetween(8.0, 12.5);
    }

    @Test
    void eventsOnRateChange() {
        PidShedder p = pid(0);
        List<ShedderEvent> events = new ArrayList<>();
        p.onEvent(events::add);
        step(300);
        assertThat(events).singleElement().isInstanceOf(ShedderEvent.RejectionRateChanged.class);
    }

    @Test
    void configBounds() {
        assertThatThrownBy(() -> PidShedderConfig.builder().kp(-1).build()).isInstanceOf(InvalidConfigException.class).hasMessageContaining("kp");
        assertThatThrownBy(() -> PidShedderConfig.builder().ki(Double.NaN).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("ki");
        assertThatThrownBy(() -> PidShedderConfig.builder().kd(Double.POSITIVE_INFINITY).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("kd");
        assertThatThrownBy(() -> PidShedderConfig.builder().quantile(99).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("percent");
        assertThatThrownBy(() -> PidShedderConfig.builder().quantile(0).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("quantile");
        assertThatThrownBy(() -> PidShedderConfig.builder().maxIntegral(0).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("maxIntegral");
        assertThatThrownBy(() -> PidShedderConfig.builder().outputScale(0).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("outputScale");
        assertThatThrownBy(() -> PidShedderConfig.builder().setpoint(Double.NaN).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("setpoint");
        assertThatThrownBy(() -> PidShedderConfig.builder().updateInterval(Duration.ZERO).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("updateInterval");
        assertThatThrownBy(() -> PidShedderConfig.builder().updateInterval(Duration.ofMinutes(2)).build()).isInstanceOf(InvalidConfigException.class);
        assertThatThrownBy(() -> PidShedderConfig.builder().retryAfter(Duration.ofHours(2)).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("retryAfter");
        assertThatThrownBy(() -> PidShedderConfig.builder().random(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("random");
        assertThatThrownBy(() -> PidShedderConfig.builder().scheduler(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("scheduler");
        assertThatThrownBy(() -> PidShedderConfig.builder().builtInMeasurement(null).build()).isInstanceOf(InvalidConfigException.class);
        PidShedderConfig d = PidShedderConfig.defaults();
        assertThat(d.setpoint()).isEqualTo(200.0);
        assertThat(d.maxIntegral()).isEqualTo(100.0);
        assertThat(d.outputScale()).isEqualTo(1000.0);
        assertThat(d.toBuilder().kp(3).build().kp()).isEqualTo(3.0);
    }
}
