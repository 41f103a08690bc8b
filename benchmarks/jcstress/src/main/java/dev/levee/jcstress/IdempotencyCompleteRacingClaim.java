package dev.levee.jcstress;

import dev.levee.core.ManualTicker;
import dev.levee.idempotency.InMemoryIdempotencyStore;
import dev.levee.idempotency.StoredResponse;
import java.time.Duration;
import java.util.Map;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The in-memory idempotency store, a key claimed by owner 1 (lease live): owner 1 completes it while a
 * duplicate claims it. The completion always succeeds; the duplicate sees the key in progress (before)
 * or completed (after), never claimed, so the write never runs twice; and afterwards the key answers
 * "completed" to everyone (the response was not lost to the race).
 * Codes: r1 = 1 if the completion was stored; r2 = the duplicate's claim (0 in progress, 1 claimed,
 * 2 completed); r3 = a claim after both.
 */
@JCStressTest
@Description("InMemoryIdempotencyStore: a completion racing a duplicate's claim")
@Outcome(id = {"1, 0, 2", "1, 2, 2"}, expect = Expect.ACCEPTABLE, desc = "stored; the duplicate saw it running or done")
@Outcome(expect = Expect.FORBIDDEN, desc = "the duplicate claimed a held key, or the completion was lost")
@State
public class IdempotencyCompleteRacingClaim {
    private static final Duration LEASE = Duration.ofSeconds(60);
    private static final StoredResponse CREATED = StoredResponse.of(201, Map.of(), new byte[] {1});
    private final InMemoryIdempotencyStore store = InMemoryIdempotencyStore.builder().ticker(new ManualTicker(0L)).build();

    public IdempotencyCompleteRacingClaim() {
        store.claim("t:k", "fp", "owner-1", LEASE);
    }

    @Actor
    public void complete(III_Result r) {
        r.r1 = store.complete("t:k", "owner-1", CREATED, Duration.ofHours(24)) ? 1 : 0;
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
