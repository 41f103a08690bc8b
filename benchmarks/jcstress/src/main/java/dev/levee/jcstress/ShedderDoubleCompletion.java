package dev.levee.jcstress;

import dev.levee.core.ManualTicker;
import dev.levee.loadshed.PriorityShedder;
import dev.levee.loadshed.PriorityShedderConfig;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZI_Result;

/**
 * A priority shedder (load 0: admits everything) with one request in flight. Two completions of that
 * request race (a caller's bug): exactly one is accepted and the other is refused with an
 * IllegalStateException; the in-flight count goes to 0, never below. (The count is the shedders'
 * shared base, so this holds for PidShedder and CoDelGate too.)
 * Codes: r1, r2 = whether each completion was accepted; r3 = in flight at the end.
 *
 * <p>Correctness only, no timing: clock readings are handed in on a manual ticker so the race is the
 * only variable (see the package documentation).
 */
@JCStressTest
@Description("Shedders: racing completions never take the in-flight count below zero")
@Outcome(id = {"true, false, 0", "false, true, 0"}, expect = Expect.ACCEPTABLE, desc = "one accepted, the duplicate refused")
@Outcome(expect = Expect.FORBIDDEN, desc = "both or neither accepted, or the count went below zero")
@State
public class ShedderDoubleCompletion {
    private final PriorityShedder shedder = PriorityShedder.of("jcstress", PriorityShedderConfig.builder()
            .load(() -> 0.0)
            .ticker(new ManualTicker(0L))
            .build());

    public ShedderDoubleCompletion() {
        shedder.tryAcquire(0L);
    }

    private boolean complete() {
        try {
            shedder.onSuccess(1_000L);
            return true;
        } catch (IllegalStateException duplicate) {
            return false;
        }
    }

    @Actor
    public void first(ZZI_Result r) {
        r.r1 = complete();
    }

    @Actor
    public void second(ZZI_Result r) {
        r.r2 = complete();
    }

    @Arbiter
    public void inFlight(ZZI_Result r) {
        r.r3 = shedder.inFlight();
    }
}
