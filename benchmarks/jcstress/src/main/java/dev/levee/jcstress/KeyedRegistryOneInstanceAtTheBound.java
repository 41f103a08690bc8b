package dev.levee.jcstress;

import dev.levee.core.KeyedRegistry;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZI_Result;

/**
 * A keyed registry at its bound (one entry), empty: two callers ask for the same new key at once. The
 * second finds the only slot reserved by the first, whose entry may be published while the second
 * looks for a victim; the clock hand must not evict that entry (the very key it wants) and create a
 * second instance. Both get one instance; one entry.
 */
@JCStressTest
@Description("KeyedRegistry at its bound: a racing first call never evicts the key it asks for")
@Outcome(id = "true, 1", expect = Expect.ACCEPTABLE, desc = "one instance, one entry")
@Outcome(expect = Expect.FORBIDDEN, desc = "two instances for one key (the second evicted the first), or a wrong size")
@State
public class KeyedRegistryOneInstanceAtTheBound {
    private final KeyedRegistry<String, Object> registry = KeyedRegistry.builder("jcstress").maxEntries(1).build(k -> new Object());
    private Object first = new Object();
    private Object second = new Object();

    @Actor
    public void actor1() {
        first = registry.get("a");
    }

    @Actor
    public void actor2() {
        second = registry.get("a");
    }

    @Arbiter
    public void check(ZI_Result r) {
        r.r1 = first == second;
        r.r2 = registry.size();
    }
}
