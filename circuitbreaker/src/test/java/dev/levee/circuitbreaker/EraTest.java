package dev.levee.circuitbreaker;

import static dev.levee.circuitbreaker.Fixture.MS;
import static dev.levee.circuitbreaker.Fixture.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, bug 9: a permit admitted while CLOSED must never count as a half-open probe, even when it
 * started after the tripping call's end reading (the state change landed later) or at the same reading
 * (a coarse or frozen clock). The race is reproduced by ordering the steps.
 */
class EraTest {

    /** Trips with an end reading older than the start of a call admitted just before the trip lands. */
    private static long tripBehindALateClosedPermit(Fixture f) {
        f.fail(4);
        long tripReading = f.ticker.read(); // the tripping thread reads its end time...
        f.advance(MS);
        long lateStart = f.ticker.read();
        assertThat(f.breaker.tryAcquire(lateStart)).isTrue(); // ...another thread is admitted while CLOSED...
        f.breaker.onFailureAt(tripReading, MS, new IOException("trip")); // ...then the trip lands
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
        return lateStart;
    }

    @Test
    void aClosedEraPermitGivenBackInHalfOpenFreesNoProbe() {
        Fixture f = new Fixture(Fixture.small());
        long lateStart = tripBehindALateClosedPermit(f);
        f.advance(10 * SECOND);
        assertThat(f.acquire()).isTrue();
        assertThat(f.acquire()).isTrue();
        assertThat(f.acquire()).isTrue();
        f.breaker.onIgnoredAt(lateStart); // the CLOSED-era call is refused by a later gate
        assertThat(f.acquire()).as("a fourth probe with three permitted").isFalse();
    }

    @Test
    void aClosedEraSuccessCannotCloseTheBreaker() {
        Fixture f = new Fixture(Fixture.small().permittedCallsInHalfOpen(1));
        long lateStart = tripBehindALateClosedPermit(f);
        f.advance(10 * SECOND);
        assertThat(f.acquire()).isTrue(); // the one real probe
        f.advance(MS);
        f.breaker.onResultAt(f.ticker.read(), f.ticker.read() - lateStart, "ok"); // the CLOSED-era call succeeds
        assertThat(f.breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
        f.breaker.onFailure(MS, new IOException("probe")); // the probe fails
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void onAFrozenClockAPermitAtTheTripReadingIsOfTheEarlierEra() {
        Fixture f = new Fixture(Fixture.small().permittedCallsInHalfOpen(1));
        f.fail(4);
        long frozen = f.ticker.read();
        assertThat(f.breaker.tryAcquire(frozen)).isTrue(); // admitted while CLOSED at the same reading
        f.breaker.onFailureAt(frozen, MS, new IOException("trip"));
        f.advance(10 * SECOND);
        assertThat(f.acquire()).isTrue();
        f.breaker.onIgnoredAt(frozen);
        assertThat(f.acquire()).isFalse();
    }
}
