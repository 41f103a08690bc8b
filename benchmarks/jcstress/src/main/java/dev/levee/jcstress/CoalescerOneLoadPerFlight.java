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
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A coalescer at its bound ({@code maxEntries} 1), empty: two first calls for one key at once, each
 * with an asynchronous load that stays pending until the arbiter completes it, so the two calls always
 * overlap. Exactly one load starts and both callers get its value; afterwards the map is empty. The
 * second caller can find the only slot reserved by the first, whose entry is not in the map yet: it must
 * not take that for "the map is full" and run a load of its own for the key in flight.
 */
@JCStressTest
@Description("Coalescer at its bound: two overlapping first calls for one key share one load")
@Outcome(id = "1, 1, 2, 0", expect = Expect.ACCEPTABLE, desc = "one load, both callers got its value, nothing left in the map")
@Outcome(id = "2, .*", expect = Expect.FORBIDDEN, desc = "two loads for one key in flight (one caller bypassed a slot reserved for that very key)")
@Outcome(expect = Expect.FORBIDDEN, desc = "a caller missed the value, or an entry was left behind")
@State
public class CoalescerOneLoadPerFlight {
    private final Coalescer<String, Integer> coalescer =
            Coalescer.of("jcstress", CoalescerConfig.builder().maxEntries(1).build());
    private final AtomicInteger loads = new AtomicInteger();
    private final CompletableFuture<Integer> firstLoad = new CompletableFuture<>();
    private final CompletableFuture<Integer> secondLoad = new CompletableFuture<>();
    private CompletionStage<Integer> first = CompletableFuture.completedFuture(-1);
    private CompletionStage<Integer> second = CompletableFuture.completedFuture(-1);

    /** Starts a load: the first returns a stage the arbiter completes with 1, a second one with 2. */
    private CompletableFuture<Integer> load() {
        return loads.incrementAndGet() == 1 ? firstLoad : secondLoad;
    }

    @Actor
    public void actor1() {
        first = coalescer.executeAsync("k", this::load);
    }

    @Actor
    public void actor2() {
        second = coalescer.executeAsync("k", this::load);
    }

    @Arbiter
    public void check(IIII_Result r) {
        r.r1 = loads.get();
        firstLoad.complete(1);
        secondLoad.complete(2);
        r.r2 = first.toCompletableFuture().getNow(-1);
        r.r3 = r.r2 + second.toCompletableFuture().getNow(-1);
        r.r4 = coalescer.size();
    }
}
