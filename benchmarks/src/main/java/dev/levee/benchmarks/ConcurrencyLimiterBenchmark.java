package dev.levee.benchmarks;

import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.AIMDLimit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.Ticker;
import dev.levee.loadshed.ConcurrencyLimiter;
import dev.levee.loadshed.ConcurrencyLimiterConfig;
import dev.levee.loadshed.limit.DropAimdLimit;
import dev.levee.loadshed.limit.LatencyAimdLimit;
import dev.levee.loadshed.limit.VegasLimit;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * An adaptive concurrency limiter's acquire and release with a latency sample, the operation every
 * request through it pays (issue 14), beside Netflix concurrency-limits 0.5.4 {@code SimpleLimiter}.
 *
 * <p><b>Fairness.</b> Every limiter starts at a limit the suite's 1 and 2 threads never reach, so every
 * operation is an admit, a release and one sample fed to the algorithm; nobody is rejected. Every
 * limiter reads the system clock twice per operation, as it must to measure the round trip:
 * <ul>
 *   <li>{@code levee*TryAcquireRelease} — Levee's permit protocol reading the gate's own ticker:
 *       {@code start = ticker.read(); tryAcquire(start); end = ticker.read(); onResultAt(end, end − start, r)};</li>
 *   <li>{@code leveeDropAimdExecute} — the same through {@code limiter.execute(call)};</li>
 *   <li>{@code netflix*AcquireRelease} — {@code SimpleLimiter.acquire(null)} (reads {@code System.nanoTime()}
 *       and allocates the listener) then {@code listener.onSuccess()} (reads it again and updates the
 *       limit under the limit's {@code synchronized onSample}).</li>
 * </ul>
 * Pairs compared like for like: drop-driven AIMD (Levee {@link DropAimdLimit}, Netflix
 * {@code AIMDLimit}) and Vegas (Levee {@link VegasLimit}, Netflix {@code VegasLimit}); Levee's
 * seed-002 {@link LatencyAimdLimit} is measured too.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ConcurrencyLimiterBenchmark {
    private static final Object RESULT = new Object();

    private final ConcurrencyLimiter leveeDropAimd = ConcurrencyLimiter.of("bench", ConcurrencyLimiterConfig.builder()
            .algorithm(DropAimdLimit::defaults).build());
    private final ConcurrencyLimiter leveeVegas = ConcurrencyLimiter.of("bench", ConcurrencyLimiterConfig.builder()
            .algorithm(VegasLimit::defaults).build());
    private final ConcurrencyLimiter leveeSeedAimd = ConcurrencyLimiter.of("bench", ConcurrencyLimiterConfig.builder()
            .algorithm(LatencyAimdLimit::defaults).build());
    private final CheckedSupplier<Object, RuntimeException> call = () -> RESULT;

    private final SimpleLimiter<Void> netflixAimd = SimpleLimiter.newBuilder().limit(AIMDLimit.newBuilder().build())
            .build();
    private final SimpleLimiter<Void> netflixVegas = SimpleLimiter.newBuilder()
            .limit(com.netflix.concurrency.limits.limit.VegasLimit.newBuilder().build()).build();

    private static boolean permit(ConcurrencyLimiter limiter) {
        Ticker ticker = limiter.ticker();
        long start = ticker.read();
        if (limiter.tryAcquire(start)) {
            long end = ticker.read();
            limiter.onResultAt(end, end - start, RESULT);
            return true;
        }
        return false;
    }

    private static boolean permit(SimpleLimiter<Void> limiter) {
        Optional<Limiter.Listener> listener = limiter.acquire(null);
        if (listener.isPresent()) {
            listener.get().onSuccess();
            return true;
        }
        return false;
    }

    /**
     * Levee, drop-driven AIMD: permit protocol on the gate's own clock.
     *
     * @return whether the permit was granted
     */
    @Benchmark
    public boolean leveeDropAimdTryAcquireRelease() {
        return permit(leveeDropAimd);
    }

    /**
     * Levee, Vegas: permit protocol on the gate's own clock.
     *
     * @return whether the permit was granted
     */
    @Benchmark
    public boolean leveeVegasTryAcquireRelease() {
        return permit(leveeVegas);
    }

    /**
     * Levee, seed-002 latency AIMD: permit protocol on the gate's own clock.
     *
     * @return whether the permit was granted
     */
    @Benchmark
    public boolean leveeSeedAimdTryAcquireRelease() {
        return permit(leveeSeedAimd);
    }

    /**
     * Levee, drop-driven AIMD around a trivial call.
     *
     * @return the call's result
     */
    @Benchmark
    public Object leveeDropAimdExecute() {
        return leveeDropAimd.execute(call);
    }

    /**
     * Netflix concurrency-limits, AIMDLimit.
     *
     * @return whether the permit was granted
     */
    @Benchmark
    public boolean netflixAimdAcquireRelease() {
        return permit(netflixAimd);
    }

    /**
     * Netflix concurrency-limits, VegasLimit.
     *
     * @return whether the permit was granted
     */
    @Benchmark
    public boolean netflixVegasAcquireRelease() {
        return permit(netflixVegas);
    }
}
