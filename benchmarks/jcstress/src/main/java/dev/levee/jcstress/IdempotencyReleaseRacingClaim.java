package dev.levee.jcstress;

import dev.levee.core.ManualTicker;
import dev.levee.idempotency.InMemoryIdempotencyStore;
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
 * The in-memory idempotency store, a key claimed by owner 1: owner 1 releases it (a transient failure:
 * the client may retry) while a duplicate claims it. The release always succeeds, and exactly one of
 * the duplicate and a later claim gets the key: the duplicate if it came after the release, otherwise
 * the later one. Never both (a double execution), never neither (a key wedged in progress).
 * Codes: r1 = 1 if released; r2 = the duplicate's claim, r3 = a claim after both (0 in progress,
 * 1 claimed).
 */
@JCStressTest
@Description("InMemoryIdempotencyStore: a release racing a duplicate's claim")
@Outcome(id = {"1, 0, 1", "1, 1, 0"}, expect = Expect.ACCEPTABLE, desc = "released; exactly one later claim wins")
@Outcome(expect = Expect.FORBIDDEN, desc = "two claims won, or the key stayed held")
@State
public class IdempotencyReleaseRacingClaim {
    private static final Duration LEASE = Duration.ofSeconds(60);
    private final InMemoryIdempotencyStore store = InMemoryIdempotencyStore.builder().ticker(new ManualTicker(0L)).build();

    public IdempotencyReleaseRacingClaim() {
        store.claim("t:k", "fp", "owner-1", LEASE);
    }

    @Actor
    public void release(III_Result r) {
        r.r1 = store.release("t:k", "owner-1") ? 1 : 0;
    }

    @Actor
    public void duplicate(III_Result r) {
        r.r2 = Idempotency.code(store.claim("t:k", "fp", "owner-2", LEASE));
    }

    @Arbiter
    public void after(III_Result r) {
        r.r3 = Idempotency.code(store.claim("t:k", "fp", "owner-3", LEASE));
    }
}
