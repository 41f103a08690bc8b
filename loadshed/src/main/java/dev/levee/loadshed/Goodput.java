package dev.levee.loadshed;

import dev.levee.core.Deadline;
import dev.levee.core.Gate;
import dev.levee.core.RejectedException;
import dev.levee.core.ShedException;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

/**
 * Goodput as a first-class metric (seed 000, "Pattern 4: Goodput Optimization"): completions that
 * finished <em>within their deadline or SLO</em>, beside raw throughput. A server that finishes 1000
 * requests a second, 100 of them after their clients gave up, has a throughput of 1000 and a goodput
 * of 900; shedding exists to raise the second number, even when it lowers the first.
 *
 * <pre>{@code
 * Goodput goodput = Goodput.of("api", Duration.ofMillis(500));
 * Pipeline.of(goodput, shedder, bulkhead).execute(() -> handle(request));   // outermost
 * double share = goodput.goodputRatio();
 * }</pre>
 *
 * <p><b>Model.</b> A {@link Gate} that always admits and only counts how calls end. A completion is
 * <em>good</em> when it succeeded and, if a {@link Deadline} is current on the completing thread, that
 * deadline has not passed; without a deadline, when its latency is at most the {@code slo}. Failures
 * count as throughput, never as goodput; a call that a later gate refused (or that did not run) comes
 * back as {@code onIgnored} and counts as shed.
 *
 * <p><b>Cost.</b> Two {@link LongAdder} increments per call and one deadline read; no allocation.
 */
public final class Goodput implements Gate {
    /** Default SLO when no deadline is current: 5 s, seed 002's default deadline. */
    public static final Duration DEFAULT_SLO = Duration.ofSeconds(5);

    private final String name;
    private final long sloNanos;
    private final Ticker ticker;
    private final LongAdder offered = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder good = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder ignored = new LongAdder();

    private Goodput(String name, long sloNanos, Ticker ticker) {
        this.name = name;
        this.sloNanos = sloNanos;
        this.ticker = ticker;
    }

    /**
     * @param name the name, the {@code name} metric tag
     * @param slo the latency within which a completion without a deadline is good
     * @param ticker the time source of the calls' latencies
     * @return the meter
     */
    public static Goodput of(String name, Duration slo, Ticker ticker) {
        Validate.name("Goodput", name);
        Validate.positive(Validate.describe("Goodput", name), "slo", slo);
        Validate.notNull(Validate.describe("Goodput", name), "ticker", ticker);
        return new Goodput(name, Deadline.saturatedNanos(slo), ticker);
    }

    /**
     * @param name the name
     * @param slo the latency within which a completion without a deadline is good
     * @return the meter on the system ticker
     */
    public static Goodput of(String name, Duration slo) {
        return of(name, slo, Ticker.system());
    }

    /**
     * @param name the name
     * @return the meter with the default SLO of 5 s
     */
    public static Goodput ofDefaults(String name) {
        return of(name, DEFAULT_SLO);
    }

    /** @return the name */
    @Override
    public String name() {
        return name;
    }

    @Override
    public Ticker ticker() {
        return ticker;
    }

    @Override
    public boolean tryAcquire(long nowNanos) {
        offered.increment();
        return true;
    }

    @Override
    public RejectedException rejection(long nowNanos) {
        return new ShedException(name, "Goodput never refuses", 0L); // unreachable: tryAcquire always grants
    }

    /**
     * Records a completion directly (for code that does not use the Gate form).
     *
     * @param latencyNanos how long it took
     * @param success whether it succeeded
     */
    public void record(long latencyNanos, boolean success) {
        completed.increment();
        if (!success) {
            failed.increment();
            return;
        }
        Deadline d = Deadline.currentOrNull();
        if (d != null ? d.remainingNanos() > 0 : latencyNanos <= sloNanos) {
            good.increment();
        }
    }

    @Override
    public void onSuccess(long latencyNanos) {
        record(latencyNanos, true);
    }

    @Override
    public void onFailure(long latencyNanos, Throwable error) {
        record(latencyNanos, false);
    }

    @Override
    public void onIgnored() {
        ignored.increment();
    }

    /** @return calls that reached this meter */
    public long offeredCount() {
        return offered.sum();
    }

    /** @return completions, successful or not: the throughput counter */
    public long throughputCount() {
        return completed.sum();
    }

    /** @return successful completions within their deadline or SLO: the goodput counter */
    public long goodputCount() {
        return good.sum();
    }

    /** @return failed completions */
    public long failedCount() {
        return failed.sum();
    }

    /** @return calls refused by a later gate or not run */
    public long shedCount() {
        return ignored.sum();
    }

    /** @return goodput over throughput, a fraction in [0, 1] (1 before any completion) */
    public double goodputRatio() {
        long c = completed.sum();
        return c == 0 ? 1.0 : Math.min(1.0, good.sum() / (double) c);
    }

    @Override
    public String toString() {
        return "Goodput[" + name + ", good=" + goodputCount() + "/" + throughputCount() + "]";
    }
}
