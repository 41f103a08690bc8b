package dev.levee.chaos;

import dev.levee.core.Chain;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.Policy;
import dev.levee.core.PolicyRegistry;
import dev.levee.core.RandomSource;
import dev.levee.core.Subscription;
import dev.levee.core.internal.EventListeners;
import dev.levee.core.internal.Exceptions;
import dev.levee.core.internal.Validate;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A fault-injection policy for chaos tests: it injects latency, an exception or a substitute result into
 * a configured share of the calls it wraps, so a test (or a game day) can check that the rest of the
 * pipeline copes the way it should.
 *
 * <pre>{@code
 * Chaos outage = Chaos.of("inventory-outage", ChaosConfig.builder()
 *         .fault(() -> new ConnectException("chaos: inventory down"))
 *         .injectionRate(0.3)
 *         .randomSource(RandomSource.seeded(42))
 *         .build());
 * Pipeline pipeline = Pipeline.of(retry, breaker, outage);   // innermost: it plays the dependency
 * }</pre>
 *
 * <p><b>Model.</b> For each call, in order: if the policy is switched off, the call runs untouched; if the
 * per-call selector ({@link ChaosConfig.Builder#injectWhen}) says no, the call runs untouched; otherwise
 * a uniform draw {@code u} from the {@link RandomSource} injects iff {@code u < injectionRate}. An
 * injection of {@link ChaosKind#LATENCY} waits (the {@link dev.levee.core.Sleeper} synchronously, the
 * {@link dev.levee.core.Scheduler} asynchronously) and then runs the call; {@link ChaosKind#FAULT} throws
 * (or completes the stage exceptionally with) the configured exception instead of running the call;
 * {@link ChaosKind#RESULT} returns the substitute instead of running the call.
 *
 * <p><b>Guarantees.</b> With a {@linkplain RandomSource#seeded seeded} source and one calling thread, the
 * same calls get the same faults on every run. Over {@code n} selected calls the share injected is
 * {@code injectionRate} within the binomial spread {@code sqrt(rate · (1 - rate) / n)} (within one
 * percentage point over 100,000 calls; tested). What the call throws when no fault is injected comes out
 * unchanged. An interrupt during an injected latency ends the wait, keeps the thread's interrupt flag set,
 * and runs the call. The switch ({@link #setEnabled}) takes effect for calls that start after it.
 *
 * <p><b>Knobs:</b> see {@link ChaosConfig} (defaults: rate 0.001, enabled, 30 s latency).
 *
 * <p><b>Cost.</b> Switched off: one volatile read, no allocation (benchmarked in
 * {@code ChaosBenchmark}). Switched on: one random draw per selected call, plus the selector; an injection
 * adds a counter increment and what it injects (the fault factory's exception, the async stage).
 */
public final class Chaos implements Policy {
    private static final String POLICY = "Chaos";

    private final String name;
    private final ChaosConfig config;
    private final ChaosKind kind;
    private final double rate;
    private final boolean everyCall;
    private final BooleanSupplier injectWhen;
    private final RandomSource random;
    private final LongAdder injections = new LongAdder();
    private final EventListeners<ChaosEvent> listeners = new EventListeners<>();
    private volatile boolean enabled;

    private Chaos(String name, ChaosConfig config) {
        this.name = name;
        this.config = config;
        this.kind = config.kind();
        this.rate = config.injectionRate();
        this.everyCall = config.everyCall();
        this.injectWhen = config.injectWhen();
        this.random = config.randomSource();
        this.enabled = config.enabled();
    }

    /**
     * A chaos policy.
     *
     * @param name the policy's name (metrics, events, messages)
     * @param config what to inject, and how often
     * @return the policy
     * @throws dev.levee.core.InvalidConfigException if the name or config is null or the name is blank
     */
    public static Chaos of(String name, ChaosConfig config) {
        return new Chaos(Validate.name(POLICY, name), Validate.notNull(Validate.describe(POLICY, name), "config", config));
    }

    /**
     * A chaos policy with {@link ChaosConfig#defaults()}: 30 s of latency into one call in a thousand.
     *
     * @param name the policy's name
     * @return the policy
     */
    public static Chaos ofDefaults(String name) {
        return of(name, ChaosConfig.defaults());
    }

    /**
     * A registry of chaos policies by name, created on first use from {@code defaultConfig}.
     *
     * @param defaultConfig the configuration of policies created without one
     * @return the registry
     */
    public static PolicyRegistry<ChaosConfig, Chaos> registry(ChaosConfig defaultConfig) {
        return PolicyRegistry.create(defaultConfig, Chaos::of);
    }

    @Override
    public String name() {
        return name;
    }

    /** @return the configuration */
    public ChaosConfig config() {
        return config;
    }

    /** @return whether the policy injects now */
    public boolean isEnabled() {
        return enabled;
    }

    /**
     * Switches injection on or off at run time (for calls that start afterwards).
     *
     * @param enabled true to inject, false to let every call through untouched
     */
    public void setEnabled(boolean enabled) {
        boolean was = this.enabled;
        this.enabled = enabled;
        if (was != enabled && !listeners.isEmpty()) {
            listeners.publish(new ChaosEvent.Switched(name, config.ticker().read(), enabled));
        }
    }

    /** Switches injection on; same as {@code setEnabled(true)}. */
    public void enable() {
        setEnabled(true);
    }

    /** Switches injection off; same as {@code setEnabled(false)}. */
    public void disable() {
        setEnabled(false);
    }

    /** @return faults injected since the policy was built */
    public long injections() {
        return injections.sum();
    }

    /** @return a snapshot for monitoring; allocates */
    public ChaosMetrics metrics() {
        return new ChaosMetrics(enabled, kind, rate, injections.sum());
    }

    /**
     * Registers a listener for this policy's events (injections, switch changes).
     *
     * @param listener the listener; runs on the calling thread and must be fast
     * @return closing it unregisters the listener
     */
    public Subscription onEvent(Consumer<? super ChaosEvent> listener) {
        return listeners.subscribe(Objects.requireNonNull(listener, "listener"));
    }

    /** Whether this call gets the fault: switched on, selected, and the draw falls under the rate. */
    private boolean inject() {
        if (!enabled) {
            return false;
        }
        if (!everyCall && !injectWhen.getAsBoolean()) {
            return false;
        }
        if (random.nextDouble() >= rate) {
            return false;
        }
        injections.increment();
        if (!listeners.isEmpty()) {
            listeners.publish(new ChaosEvent.Injected(name, config.ticker().read(), kind));
        }
        return true;
    }

    @Override
    public <T, E extends Throwable> T execute(Chain next, CheckedSupplier<T, E> call) throws E {
        if (!inject()) {
            return next.proceed(call);
        }
        switch (kind) {
            case LATENCY:
                config.sleeper().sleepRestoringInterrupt(config.latencyNanos());
                return next.proceed(call);
            case FAULT:
                throw Exceptions.sneakyThrow(newFault());
            case RESULT:
            default:
                return substitute();
        }
    }

    @Override
    public <T> CompletionStage<T> executeAsync(Chain next, Supplier<? extends CompletionStage<T>> call) {
        if (!inject()) {
            return next.proceedAsync(call);
        }
        switch (kind) {
            case LATENCY:
                return delayed(next, call);
            case FAULT:
                return CompletableFuture.failedFuture(newFault());
            case RESULT:
            default:
                return CompletableFuture.completedFuture(substitute());
        }
    }

    private <T> CompletionStage<T> delayed(Chain next, Supplier<? extends CompletionStage<T>> call) {
        CompletableFuture<T> out = new CompletableFuture<>();
        config.scheduler().schedule(() -> {
            try {
                next.proceedAsync(call).whenComplete((value, error) -> {
                    if (error != null) {
                        out.completeExceptionally(error);
                    } else {
                        out.complete(value);
                    }
                });
            } catch (Throwable t) {
                out.completeExceptionally(t); // the call threw before returning a stage: that is its outcome
            }
        }, config.latencyNanos());
        return out;
    }

    private Throwable newFault() {
        Supplier<? extends Throwable> factory = Objects.requireNonNull(config.fault());
        Throwable fault = factory.get();
        if (fault == null) {
            return new IllegalStateException("Chaos '" + name + "': the fault factory returned null");
        }
        return fault;
    }

    @SuppressWarnings({"unchecked", "NullAway"}) // the user promises the substitute fits the wrapped calls
    private <T> T substitute() {
        Supplier<?> factory = Objects.requireNonNull(config.result());
        return (T) factory.get();
    }

    @Override
    public String toString() {
        return "Chaos{" + name + ", " + config + ", enabled=" + enabled + "}";
    }
}
