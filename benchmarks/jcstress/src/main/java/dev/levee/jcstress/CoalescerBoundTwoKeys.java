package dev.levee.jcstress;

import dev.levee.degrade.Coalescer;
import dev.levee.degrade.CoalescerConfig;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIII_Result;

/**
 * A coalescer at its bound ({@code maxEntries} 1), empty: first calls for two different keys at once,
 * each with an asynchronous load that stays pending until the arbiter completes it. The slot is
 * reserved and the entry inserted in one step under the key's bin lock, so exactly one call leads (its
 * entry takes the only slot) and the other bypasses with a load of its own: two loads, one bypass, one
 * entry while the loads run, none after, and each caller gets its own key's value. Never both leading
 * (over the bound), never both bypassing (a slot lost).
 */
@JCStressTest
@Description("Coalescer at its bound: first calls of two keys at once: one leads, one bypasses")
@Outcome(id = "2, 1, 1, 1, 2, 0", expect = Expect.ACCEPTABLE,
        desc = "one leads, one bypasses; one entry during the loads, none after; each caller its own value")
@Outcome(expect = Expect.FORBIDDEN, desc = "both led (over the bound), both bypassed, a wrong value or an entry left behind")
@State
public class CoalescerBoundTwoKeys {
    private final Coalescer<String, Integer> coalescer =
            Coalescer.of("jcstress", CoalescerConfig.builder().maxEntries(1).build());
    private final AtomicInteger loads = new AtomicInteger();
    private final CompletableFuture<Integer> loadA = new CompletableFuture<>();
    private final CompletableFuture<Integer> loadB = new CompletableFuture<>();
    private CompletionStage<Integer> a = CompletableFuture.completedFuture(-1);
    private CompletionStage<Integer> b = CompletableFuture.completedFuture(-1);

    @Actor
    public void actor1() {
        a = coalescer.executeAsync("a", () -> {
            loads.incrementAndGet();
            return loadA;
        });
    }

    @Actor
    public void actor2() {
        b = coalescer.executeAsync("b", () -> {
            loads.incrementAndGet();
            return loadB;
        });
    }

    @Arbiter
    public void check(IIIIII_Result r) {
        r.r1 = loads.get();
        r.r2 = (int) coalescer.metrics().bypassed();
        r.r3 = coalescer.size();
        loadA.complete(1);
        loadB.complete(2);
        r.r4 = a.toCompletableFuture().getNow(-1);
        r.r5 = b.toCompletableFuture().getNow(-1);
        r.r6 = coalescer.size();
    }
}
