package dev.levee.jcstress;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.ManualTicker;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Thread 1 opens an outer deadline scope (at 100) and an inner one (at 50) and publishes the inner
 * scope; thread 2 closes it from its own thread (a bug in the caller: it throws, and the scope is
 * closed). Thread 1 reads its current deadline while that happens, then closes its scopes in order.
 * The invariants: thread 1 sees the inner deadline or, once it is closed, the outer one (never none,
 * never a wrong one); thread 2 never sees thread 1's deadlines; after closing the inner scope thread 1
 * sees the outer one, and after closing the outer one nothing.
 * Codes: 2 = the inner deadline, 1 = the outer one, 0 = none, -1 = something else.
 */
@JCStressTest
@Description("Deadline: a scope closed on another thread never applies to the wrong thread")
@Outcome(id = {"2, 0, 1, 0", "1, 0, 1, 0"}, expect = Expect.ACCEPTABLE, desc = "each thread sees only its own open scopes")
@Outcome(expect = Expect.FORBIDDEN, desc = "a deadline applied to the wrong thread, or a closed scope still applies")
@State
public class DeadlineScopeClosedOnAnotherThread {
    private final ManualTicker ticker = new ManualTicker(0L);
    private final Deadline outer = Deadline.at(100L, ticker);
    private final Deadline inner = Deadline.at(50L, ticker);
    private volatile ContextScope published;

    private int code(Deadline d) {
        if (d == null) {
            return 0;
        }
        return d.equals(inner) ? 2 : d.equals(outer) ? 1 : -1;
    }

    @Actor
    public void owner(IIII_Result r) {
        try (ContextScope o = outer.attach()) {
            ContextScope i = inner.attach();
            published = i;
            r.r1 = code(Deadline.currentOrNull());
            i.close(); // a no-op if thread 2 closed it already
            r.r3 = code(Deadline.currentOrNull());
        }
        r.r4 = code(Deadline.currentOrNull());
    }

    @Actor
    public void stranger(IIII_Result r) {
        ContextScope s = published;
        if (s != null) {
            try {
                s.close();
            } catch (IllegalStateException expected) {
                // closed on the wrong thread: reported, and the scope is closed
            }
        }
        r.r2 = code(Deadline.currentOrNull());
    }
}
