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

/** Two actors get the same absent key at once: both receive the one instance, created once. */
@JCStressTest
@Description("KeyedRegistry: one instance per key under a racing creation")
@Outcome(id = "true, 1", expect = Expect.ACCEPTABLE, desc = "one instance, one entry")
@Outcome(expect = Expect.FORBIDDEN, desc = "two instances for one key, or a wrong size")
@State
public class KeyedRegistryOneInstancePerKey {
    private final KeyedRegistry<String, Object> registry = KeyedRegistry.builder("jcstress").maxEntries(4).build(k -> new Object());
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
