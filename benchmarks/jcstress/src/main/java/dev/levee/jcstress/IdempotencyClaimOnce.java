package dev.levee.jcstress;

import dev.levee.core.ManualTicker;
import dev.levee.idempotency.InMemoryIdempotencyStore;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The in-memory idempotency store, a fresh key: two requests with the same key claim it at once (two
 * instances of a client's retry arriving together). Exactly one claims it and executes; the other is
 * told the key is in progress. Two claims would execute a write twice; none would wedge the key.
 * Codes: 1 = claimed, 0 = in progress.
 */
@JCStressTest
@Description("InMemoryIdempotencyStore: two claims of one fresh key, exactly one wins")
@Outcome(id = {"1, 0", "0, 1"}, expect = Expect.ACCEPTABLE, desc = "one claim, one in progress")
@Outcome(expect = Expect.FORBIDDEN, desc = "both claimed (a double execution) or neither")
@State
public class IdempotencyClaimOnce {
    private static final Duration LEASE = Duration.ofSeconds(60);
    private final InMemoryIdempotencyStore store = InMemoryIdempotencyStore.builder().ticker(new ManualTicker(0L)).build();

    @Actor
    public void first(II_Result r) {
        r.r1 = Idempotency.code(store.claim("t:k", "fp", "owner-1", LEASE));
    }

    @Actor
    public void second(II_Result r) {
        r.r2 = Idempotency.code(store.claim("t:k", "fp", "owner-2", LEASE));
    }
}
