package dev.levee.jcstress;

import dev.levee.core.ManualTicker;
import dev.levee.ratelimiter.KeyedRateLimiter;
import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimiterConfig;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A keyed GCRA limiter bounded to one key, burst 2, key {@code a} present with one permit left; {@code a} and
 * {@code b} share one probe chain of the state table. One actor decides on {@code a} while the other's
 * first decision on {@code b} evicts {@code a} (retiring its slot) and inserts {@code b} beside it. The
 * decision on {@code a} must land on {@code a}'s state (then evicted with it) or, if it finds the slot
 * retired, re-insert {@code a} fresh (evicting {@code b}); it must never charge {@code b}'s slot.
 * The arbiter then takes one permit of {@code b} and reads what is left: 0 if {@code b} kept its own
 * state (charged once by its actor), 1 if {@code b} came back fresh (after {@code a} evicted it).
 */
@JCStressTest
@Description("KeyedStateTable: a decision racing the eviction of its key never charges the key inserted beside it")
@Outcome(id = "1, 1, 0, 1", expect = Expect.ACCEPTABLE, desc = "a decided first; b evicted a and kept its own state")
@Outcome(id = "1, 1, 1, 3", expect = Expect.ACCEPTABLE, desc = "a found its slot retired, came back fresh and evicted b")
@Outcome(expect = Expect.FORBIDDEN, desc = "a state lost, duplicated, or charged to the wrong key")
@State
public class KeyedStateTableEvictionRace {
    private final KeyedRateLimiter<SameHashKey> keyed = KeyedRateLimiter.<SameHashKey>builder("jcstress")
            .defaultConfig(RateLimiterConfig.builder().rate(2, Duration.ofHours(1)).burst(2)
                    .ticker(new ManualTicker(0L)).build())
            .maxEntries(1)
            .build();
    private final SameHashKey a = new SameHashKey("a");
    private final SameHashKey b = new SameHashKey("b");

    public KeyedStateTableEvictionRace() {
        keyed.tryAcquire(a); // present in its slot before the race, with one permit of two left
    }

    @Actor
    public void decideOnA(IIII_Result r) {
        r.r1 = keyed.tryAcquire(a) ? 1 : 0;
    }

    @Actor
    public void insertB(IIII_Result r) {
        r.r2 = keyed.tryAcquire(b) ? 1 : 0;
    }

    @Arbiter
    public void check(IIII_Result r) {
        RateLimitDecision decision = new RateLimitDecision();
        r.r3 = keyed.tryAcquire(b, 1, decision) ? (int) decision.remaining() : -1;
        r.r4 = (int) keyed.evictionCount();
    }
}
