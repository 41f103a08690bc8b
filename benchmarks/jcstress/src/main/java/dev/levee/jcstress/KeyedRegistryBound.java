package dev.levee.jcstress;

import dev.levee.core.KeyedRegistry;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZI_Result;

/**
 * maxEntries 1, key "a" present. One actor hits "a" while the other creates "b" (evicting "a"): the
 * bound holds, and each actor gets the policy of the key it asked for.
 */
@JCStressTest
@Description("KeyedRegistry: the bound is never exceeded when an eviction races a hit")
@Outcome(id = "true, true, 1", expect = Expect.ACCEPTABLE, desc = "each got its key's policy; one entry")
@Outcome(expect = Expect.FORBIDDEN, desc = "over maxEntries, or a policy of the wrong key")
@State
public class KeyedRegistryBound {
    private final KeyedRegistry<String, String> registry = KeyedRegistry.builder("jcstress").maxEntries(1).build(k -> k + "-policy");

    public KeyedRegistryBound() {
        registry.get("a");
    }

    @Actor
    public void hit(ZZI_Result r) {
        r.r1 = "a-policy".equals(registry.get("a"));
    }

    @Actor
    public void create(ZZI_Result r) {
        r.r2 = "b-policy".equals(registry.get("b"));
    }

    @Arbiter
    public void size(ZZI_Result r) {
        r.r3 = registry.size();
    }
}
