package dev.levee.loadshed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import dev.levee.core.ShedException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ClientThrottleTest {
    private final ManualTicker ticker = new ManualTicker(7_000_000_000L);
    private static final ShedException REMOTE_SHED = new ShedException("backend", "concurrency_limit", "503", 0L, null);

    private ClientThrottle throttle(RandomSource random) {
        return ClientThrottle.of("inventory", ClientThrottleConfig.builder().random(random).ticker(ticker).build());
    }

    /** A coin that never says "refuse", so scripted counts are exact. */
    private static final RandomSource NEVER = () -> 0.999_999_999;

    private static void send(ClientThrottle t, long now, int requests, int accepts) {
        for (int i = 0; i < requests; i++) {
            assertThat(t.tryAcquire(now)).isTrue();
            if (i < accepts) {
                t.onSuccess(1);
            } else {
                t.onFailure(1, REMOTE_SHED);
            }
        }
    }

    @Test
    void probabilityIsTheSreFormulaOnScriptedCounts() {
        ClientThrottle t = throttle(NEVER);
        long now = ticker.read();
        assertThat(t.rejectionProbability(now)).isZero();
        send(t, now, 100, 100);
        assertThat(t.rejectionProbability(now)).as("all accepted").isZero();

        ClientThrottle u = throttle(NEVER);
        send(u, now, 100, 40);
        // (100 − 2 × 40) / (100 + 1)
        assertThat(u.rejectionProbability(now)).isCloseTo(20.0 / 101, within(1e-12));
        assertThat(u.requestCount()).isEqualTo(100);
        assertThat(u.acceptCount()).isEqualTo(40);
        assertThat(u.backendRejectionCount()).isEqualTo(60);

        ClientThrottle v = throttle(NEVER);
        send(v, now, 1000, 0);
        assertThat(v.rejectionProbability(now)).isCloseTo(1000.0 / 1001, within(1e-12));

        ClientThrottle w = throttle(NEVER);
        send(w, now, 100, 50);
        assertThat(w.rejectionProbability(now)).as("exactly K × accepts").isZero();
    }

    @Test
    void otherFailuresAreAcceptsAndIgnoredCallsAreTakenBack() {
        ClientThrottle t = throttle(NEVER);
        assertThat(t.tryAcquire(ticker.read())).isTrue();
        t.onFailure(1, new IllegalArgumentException("404"));
        assertThat(t.tryAcquire(ticker.read())).isTrue();
        t.onIgnored();
        assertThat(t.requestCount()).isEqualTo(1);
        assertThat(t.acceptCount()).isEqualTo(1);
    }

    @Test
    void resultsCanBeBackendRejections() {
        ClientThrottle t = ClientThrottle.of("http", ClientThrottleConfig.builder().random(NEVER).ticker(ticker)
                .rejectedOnResult((Integer status) -> status == 503 || status == 429).build());
        assertThat(t.tryAcquire(ticker.read())).isTrue();
        t.onResult(1, 503);
        assertThat(t.tryAcquire(ticker.read())).isTrue();
        t.onResult(1, 200);
        assertThat(t.acceptCount()).isEqualTo(1);
        assertThat(t.backendRejectionCount()).isEqualTo(1);
    }

    /** Three minutes of demand at 4× what the backend accepts (25 of 100 requests a second). */
    private static int[] overload(ClientThrottle t, ManualTicker ticker) {
        int refusedLastMinute = 0;
        int attemptedLastMinute = 0;
        for (int s = 0; s < 180; s++) {
            int acceptedThisSecond = 0;
            for (int i = 0; i < 100; i++) {
                boolean lastMinute = s >= 120;
                attemptedLastMinute += lastMinute ? 1 : 0;
                if (!t.tryAcquire(ticker.read())) {
                    refusedLastMinute += lastMinute ? 1 : 0;
                    continue;
                }
                if (acceptedThisSecond++ < 25) {
                    t.onSuccess(1);
                } else {
                    t.onFailure(1, REMOTE_SHED);
                }
            }
            ticker.advance(Duration.ofSeconds(1));
        }
        return new int[] {refusedLastMinute, attemptedLastMinute};
    }

    @Test
    void underSustainedOverloadTheClientSendsAboutTheSquareRootOfKTimesAcceptsTimesDemand() {
        ClientThrottle t = throttle(RandomSource.seeded(42));
        int[] counts = overload(t, ticker);
        long now = ticker.read();
        // The live probability is the formula on the live counts.
        long r = t.requestCount();
        long a = t.acceptCount();
        assertThat(t.rejectionProbability(now)).isCloseTo(Math.max(0, (r - 2.0 * a) / (r + 1)), within(1e-12));
        // Sent ≈ √(2 × 25 × 100) ≈ 71 of 100 a second.
        double refusedFraction = counts[0] / (double) counts[1];
        assertThat(refusedFraction).isBetween(0.22, 0.36);
        assertThat(t.throttledCount()).isGreaterThanOrEqualTo(counts[0]);
        // The same seed, the same decisions.
        ManualTicker other = new ManualTicker(7_000_000_000L);
        ClientThrottle again = ClientThrottle.of("inventory", ClientThrottleConfig.builder()
                .random(RandomSource.seeded(42)).ticker(other).build());
        assertThat(overload(again, other)).containsExactly(counts);
    }

    @Test
    void localRejectionsStopWithinTheWindowAfterTheBackendRecovers() {
        ClientThrottle t = throttle(RandomSource.seeded(1));
        // Two minutes of a backend refusing everything, 10 requests a second.
        for (int s = 0; s < 120; s++) {
            for (int i = 0; i < 10; i++) {
                if (t.tryAcquire(ticker.read())) {
                    t.onFailure(1, REMOTE_SHED);
                }
            }
            ticker.advance(Duration.ofSeconds(1));
        }
        assertThat(t.rejectionProbability(ticker.read())).isGreaterThan(0.9);
        // The backend recovers: from now on it accepts everything that reaches it.
        long recoveredAt = ticker.read();
        long lastLocalRejection = recoveredAt;
        for (int s = 0; s < 240; s++) {
            for (int i = 0; i < 10; i++) {
                if (t.tryAcquire(ticker.read())) {
                    t.onSuccess(1);
                } else {
                    lastLocalRejection = ticker.read();
                }
            }
            ticker.advance(Duration.ofSeconds(1));
        }
        assertThat(lastLocalRejection - recoveredAt).as("no local rejection later than one window after recovery")
                .isLessThanOrEqualTo(Duration.ofMinutes(2).toNanos());
        assertThat(t.rejectionProbability(ticker.read())).isZero();
    }

    @Test
    void localRefusalIsAShedExceptionWithTheReason() {
        double[] coin = {0.999_999};
        ClientThrottle t = throttle(() -> coin[0]);
        send(t, ticker.read(), 10, 0);
        coin[0] = 0.0;
        assertThat(t.tryAcquire(ticker.read())).isFalse();
        ShedException e = (ShedException) t.rejection(ticker.read());
        assertThat(e.reason()).isEqualTo("client_throttle");
        assertThat(e.policyName()).isEqualTo("inventory");
        assertThatThrownBy(() -> t.execute(() -> "never")).isInstanceOf(ShedException.class);
    }

    @Test
    void configBounds() {
        assertThatThrownBy(() -> ClientThrottleConfig.builder().window(Duration.ofMillis(999)).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("ClientThrottle: window must be in [PT1S, PT1H] but was PT0.999S");
        assertThatThrownBy(() -> ClientThrottleConfig.builder().window(Duration.ofHours(2)).build())
                .hasMessage("ClientThrottle: window must be in [PT1S, PT1H] but was PT2H");
        assertThatThrownBy(() -> ClientThrottleConfig.builder().window(null).build())
                .hasMessage("ClientThrottle: window must be set (not null) but was null");
        assertThatThrownBy(() -> ClientThrottleConfig.builder().buckets(0).build())
                .hasMessage("ClientThrottle: buckets must be in [1, 3600] but was 0");
        assertThatThrownBy(() -> ClientThrottleConfig.builder().k(0.5).build())
                .hasMessage("ClientThrottle: k must be in [1, 100] but was 0.5");
        assertThatThrownBy(() -> ClientThrottleConfig.builder().k(101).build())
                .hasMessage("ClientThrottle: k must be in [1, 100] but was 101.0");
        assertThatThrownBy(() -> ClientThrottleConfig.builder().rejectedWhen(null).build())
                .hasMessage("ClientThrottle: rejectedWhen must be set (not null) but was null");
        assertThatThrownBy(() -> ClientThrottleConfig.builder().rejectedOnResult(null).build())
                .hasMessage("ClientThrottle: rejectedOnResult must be set (not null) but was null");
        assertThatThrownBy(() -> ClientThrottleConfig.builder().random(null).build())
                .hasMessage("ClientThrottle: random must be set (not null) but was null");
        assertThatThrownBy(() -> ClientThrottleConfig.builder().ticker(null).build())
                .hasMessage("ClientThrottle: ticker must be set (not null) but was null");
        ClientThrottleConfig d = ClientThrottleConfig.defaults();
        assertThat(d.window()).isEqualTo(Duration.ofMinutes(2));
        assertThat(d.k()).isEqualTo(2.0);
        assertThat(d.toBuilder().build().buckets()).isEqualTo(12);
    }
}
