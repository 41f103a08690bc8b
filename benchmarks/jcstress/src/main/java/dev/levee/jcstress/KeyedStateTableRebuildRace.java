package dev.levee.jcstress;

import dev.levee.core.ManualTicker;
import dev.levee.ratelimiter.KeyedRateLimiter;
import dev.levee.ratelimiter.RateLimiterConfig;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A keyed GCRA limiter, burst 2, with key {@code a} present and one permit left, and the state table at
 * half its 16 slots, so the next new key rebuilds it into 32. One actor decides on {@code a}; the other
 * inserts a new key (the rebuild, which moves {@code a}'s state into the new array) and then decides on
 * {@code a}. Whether the first decision lands in the old array before the move, finds the slot retired
 * and follows the rebuild into the new array while it is still being built, or waits for the lock,
 * exactly one of the two decisions on {@code a} is granted and none is lost: the arbiter then finds
 * {@code a} empty.
 */
@JCStressTest
@Description("KeyedStateTable: a decision racing the rebuild that moves its key is counted exactly once")
@Outcome(id = {"1, 0, 0", "0, 1, 0"}, expect = Expect.ACCEPTABLE, desc = "one grant, carried across the rebuild")
@Outcome(expect = Expect.FORBIDDEN, desc = "a grant lost or duplicated across the rebuild")
@State
public class KeyedStateTableRebuildRace {
    private final KeyedRateLimiter<String> keyed = KeyedRateLimiter.<String>builder("jcstress")
            .defaultConfig(RateLimiterConfig.builder().rate(2, Duration.ofHours(1)).burst(2)
                    .ticker(new ManualTicker(0L)).build())
            .maxEntries(100)
            .build();

    public KeyedStateTableRebuildRace() {
        keyed.tryAcquire("a"); // one permit of two left
        for (int k = 0; k < 7; k++) {
            keyed.tryAcquire("k" + k); // 8 keys in 16 slots: the next new key rebuilds
        }
    }

    @Actor
    public void decideOnA(III_Result r) {
        r.r1 = keyed.tryAcquire("a") ? 1 : 0;
    }

    @Actor
    public void rebuildThenDecideOnA(III_Result r) {
        keyed.tryAcquire("new");
        r.r2 = keyed.tryAcquire("a") ? 1 : 0;
    }

    @Arbiter
    public void check(III_Result r) {
        r.r3 = keyed.tryAcquire("a") ? 1 : 0;
    }
}
