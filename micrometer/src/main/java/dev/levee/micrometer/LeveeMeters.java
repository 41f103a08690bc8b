package dev.levee.micrometer;

import dev.levee.bulkhead.Bulkhead;
import dev.levee.bulkhead.BulkheadMetricsBinder;
import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerMetricsBinder;
import dev.levee.core.Chain;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.Policy;
import dev.levee.core.PolicyRegistry;
import dev.levee.core.RejectedException;
import dev.levee.core.Subscription;
import dev.levee.core.Ticker;
import dev.levee.core.internal.MetricNames;
import dev.levee.core.internal.Validate;
import dev.levee.degrade.Coalescer;
import dev.levee.degrade.CoalescerMetricsBinder;
import dev.levee.degrade.DegradationLevel;
import dev.levee.degrade.DegradationLevelMetricsBinder;
import dev.levee.degrade.FallbackMetricsBinder;
import dev.levee.degrade.GracefulDegrader;
import dev.levee.health.HealthChecker;
import dev.levee.health.HealthEndpoint;
import dev.levee.health.HealthEndpointMetricsBinder;
import dev.levee.health.HealthMetricsBinder;
import dev.levee.health.Watchdog;
import dev.levee.health.WatchdogMetricsBinder;
import dev.levee.idempotency.IdempotencyGuard;
import dev.levee.idempotency.IdempotencyGuardMetricsBinder;
import dev.levee.loadshed.ClientThrottle;
import dev.levee.loadshed.ClientThrottleMetricsBinder;
import dev.levee.loadshed.ConcurrencyLimiter;
import dev.levee.loadshed.ConcurrencyLimiterMetricsBinder;
import dev.levee.loadshed.Goodput;
import dev.levee.loadshed.GoodputMetricsBinder;
import dev.levee.loadshed.Shedder;
import dev.levee.loadshed.SheddingMetricsBinder;
import dev.levee.loadshed.queue.MeasuredQueue;
import dev.levee.loadshed.queue.QueueMetricsBinder;
import dev.levee.ratelimiter.KeyedRateLimiter;
import dev.levee.ratelimiter.RateLimiter;
import dev.levee.ratelimiter.RateLimiterMetricsBinder;
import dev.levee.retry.Hedge;
import dev.levee.retry.HedgeMetricsBinder;
import dev.levee.retry.ReplicaSet;
import dev.levee.retry.ReplicaSetMetricsBinder;
import dev.levee.retry.Retry;
import dev.levee.retry.RetryMetricsBinder;
import dev.levee.timeout.Timeout;
import dev.levee.timeout.TimeoutMetricsBinder;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Binds every Levee policy to a Micrometer {@link MeterRegistry} in one call, and times the calls a
 * policy lets through.
 *
 * <pre>{@code
 * LeveeMeters metrics = LeveeMeters.of(meterRegistry);
 * metrics.bindAll(breakers, retries, bulkheadRegistry, searchLimiter);   // registries: now and later
 * Pipeline pipeline = Pipeline.of(retry, metrics.timed(breaker), limiter, metrics.timed(bulkhead), timeout);
 * }</pre>
 *
 * <p><b>Model.</b> {@link #bind(Object)} finds the pattern's own {@code XMetricsBinder} for the
 * object's type (circuit breaker, retry, hedge, replica set, bulkhead, rate limiter and keyed rate limiter, timeout,
 * concurrency limiter, client throttle, shedders, measured queues, goodput, fallbacks, coalescers,
 * degradation levels, health checkers, watchdogs and health endpoints; and, when {@code levee-redis}
 * is on the classpath, Redis rate limiters, keyed Redis rate limiters and Redis idempotency stores) and
 * binds it, so the meters are exactly the ones each pattern documents. {@link #bindAll(Object...)} takes any mix of policies,
 * {@link Iterable}s of them and core {@link PolicyRegistry}s; a registry's current policies are bound
 * now and every policy it creates later is bound when created. {@code docs/metrics.md} lists every
 * meter.
 *
 * <p><b>Latency.</b> {@link #timed(Policy)} wraps a policy so each call through it records its latency
 * in the timer {@code levee.<pattern>.latency}, tagged {@code name} and {@code outcome}
 * ({@code success} or {@code failure}; a call the policy refused never ran and is counted by
 * {@code levee.<pattern>.rejected} instead; a {@code DeadlineExceededException} is a failure). Put
 * the wrapped policy where the latency means what you want: inside a retry, a timed breaker records
 * every attempt. Percentile histograms are opt-in ({@link Builder#percentileHistogram(boolean)}, for
 * Prometheus' {@code histogram_quantile}), as are
 * client-side percentiles ({@link Builder#percentiles(double...)}).
 *
 * <p><b>Tags.</b> Every Levee meter carries {@code name} (the policy's name) and only tags from one
 * vocabulary: {@code name}, {@code outcome}, {@code state}, {@code kind}, {@code reason} (a test
 * checks every meter of every pattern).
 *
 * <p><b>Cost.</b> Binding runs once per policy. A timed call reads the ticker twice and records into a
 * timer chosen in advance (no allocation by Levee; the meter registry's own recording cost applies).
 * A timed gate is no longer fused with its neighbouring gates in a {@code Pipeline} (one more clock
 * read pair per timed gate). Thread-safe.
 */
public final class LeveeMeters {
    private static final String POLICY = "LeveeMeters";

    /** One row of the binder table: the policy type, its pattern's metric prefix, its binder. */
    record Binding<T>(Class<T> type, String pattern, Function<T, MeterBinder> binder) {
        MeterBinder binderFor(Object policy) {
            return binder.apply(type.cast(policy));
        }
    }

    /** Loaded to tell whether the optional {@code levee-redis} (and the Lettuce it needs) is on the classpath. */
    private static final List<String> REDIS_PROBES = List.of("dev.levee.redis.ratelimiter.RedisRateLimiter",
            "dev.levee.redis.idempotency.RedisIdempotencyStore", "io.lettuce.core.api.StatefulRedisConnection");

    private static List<Binding<?>> bindings() {
        List<Binding<?>> rows = new ArrayList<>();
        if (redisPresent()) {
            rows.addAll(RedisBindings.rows());
        }
        rows.addAll(CORE_BINDINGS);
        return List.copyOf(rows);
    }

    /**
     * Whether {@code levee-redis} is on the classpath (an optional dependency of this module). Without it,
     * {@link RedisBindings} is never loaded, so no Redis type is ever resolved.
     */
    static boolean redisPresent() {
        ClassLoader loader = LeveeMeters.class.getClassLoader();
        for (String probe : REDIS_PROBES) {
            try {
                Class.forName(probe, false, loader);
            } catch (ClassNotFoundException | LinkageError absent) {
                return false;
            }
        }
        return true;
    }

    /** The rows of the modules this one always depends on; first match wins, specific types first. */
    private static final List<Binding<?>> CORE_BINDINGS = List.of(
            new Binding<>(CircuitBreaker.class, "circuitbreaker", CircuitBreakerMetricsBinder::new),
            new Binding<>(Retry.class, "retry", RetryMetricsBinder::new),
            new Binding<>(Hedge.class, "hedge", HedgeMetricsBinder::new),
            new Binding<>(ReplicaSet.class, "replicas", r -> new ReplicaSetMetricsBinder((ReplicaSet<?>) r)),
            new Binding<>(Bulkhead.class, "bulkhead", BulkheadMetricsBinder::new),
            new Binding<>(RateLimiter.class, "ratelimiter", RateLimiterMetricsBinder::new),
            new Binding<>(KeyedRateLimiter.class, "ratelimiter", k -> new RateLimiterMetricsBinder((KeyedRateLimiter<?>) k)),
            new Binding<>(Timeout.class, "timeout", TimeoutMetricsBinder::new),
            new Binding<>(ConcurrencyLimiter.class, "loadshed", ConcurrencyLimiterMetricsBinder::new),
            new Binding<>(ClientThrottle.class, "loadshed", ClientThrottleMetricsBinder::new),
            new Binding<>(Shedder.class, "loadshed", SheddingMetricsBinder::new),
            new Binding<>(MeasuredQueue.class, "loadshed", QueueMetricsBinder::new),
            new Binding<>(Goodput.class, "loadshed", GoodputMetricsBinder::new),
            new Binding<>(GracefulDegrader.class, "degrade", FallbackMetricsBinder::new),
            new Binding<>(Coalescer.class, "degrade", c -> new CoalescerMetricsBinder((Coalescer<?, ?>) c)),
            new Binding<>(DegradationLevel.class, "degrade", DegradationLevelMetricsBinder::new),
            new Binding<>(HealthChecker.class, "health", HealthMetricsBinder::new),
            new Binding<>(Watchdog.class, "health", WatchdogMetricsBinder::new),
            new Binding<>(HealthEndpoint.class, "health", HealthEndpointMetricsBinder::new),
            new Binding<>(IdempotencyGuard.class, "idempotency", IdempotencyGuardMetricsBinder::new));

    // First match wins: specific types before the interfaces they also implement (the Redis rows, when
    // levee-redis is present, come first: RedisRateLimiter is a RateLimiter with its own binder).
    private static final List<Binding<?>> BINDINGS = bindings();

    private final MeterRegistry registry;
    private final boolean percentileHistogram;
    private final double[] percentiles;
    private final Ticker ticker;

    private LeveeMeters(Builder b) {
        this.registry = b.registry;
        this.percentileHistogram = b.percentileHistogram;
        this.percentiles = b.percentiles.clone();
        this.ticker = b.ticker;
    }

    /**
     * Metrics on {@code registry}, percentile histograms off.
     *
     * @param registry the meter registry
     * @return the entry point
     * @throws dev.levee.core.InvalidConfigException if {@code registry} is null
     */
    public static LeveeMeters of(MeterRegistry registry) {
        return builder(registry).build();
    }

    /**
     * Starts an entry point on {@code registry}.
     *
     * @param registry the meter registry
     * @return a builder
     * @throws dev.levee.core.InvalidConfigException if {@code registry} is null
     */
    public static Builder builder(MeterRegistry registry) {
        return new Builder(registry);
    }

    /**
     * Whether {@link #bind(Object)} knows the object's type.
     *
     * @param policy any object
     * @return true if a Levee binder exists for it
     */
    public static boolean isBindable(@Nullable Object policy) {
        return policy != null && bindingFor(policy) != null;
    }

    /**
     * Binds one policy's meters with its pattern's binder.
     *
     * @param policy a Levee policy (or shedder, queue, degrader, checker, … — see the class documentation)
     * @return this
     * @throws dev.levee.core.InvalidConfigException if the type has no Levee binder
     */
    public LeveeMeters bind(Object policy) {
        Validate.notNull(POLICY, "policy", policy);
        Binding<?> binding = bindingFor(policy);
        if (binding == null) {
            throw new dev.levee.core.InvalidConfigException(POLICY, "policy", "a Levee policy with a metrics binder",
                    policy.getClass().getName());
        }
        binding.binderFor(policy).bindTo(registry);
        return this;
    }

    /**
     * Binds everything given: policies, iterables of policies, and registries (their current policies
     * now, every later one when the registry creates it).
     *
     * @param policiesOrRegistries policies, {@link Iterable}s, {@link PolicyRegistry}s
     * @return the subscriptions to the registries' creations (close them to stop binding new policies)
     * @throws dev.levee.core.InvalidConfigException if an element has no Levee binder
     */
    public List<Subscription> bindAll(Object... policiesOrRegistries) {
        Validate.notNull(POLICY, "policiesOrRegistries", policiesOrRegistries);
        List<Subscription> subscriptions = new ArrayList<>();
        for (Object o : policiesOrRegistries) {
            Validate.notNull(POLICY, "policiesOrRegistries[i]", o);
            if (o instanceof PolicyRegistry<?, ?> policies) {
                subscriptions.add(bindRegistry(policies));
            } else if (o instanceof Map<?, ?> map) {
                for (Object value : map.values()) {
                    bind(value);
                }
            } else if (o instanceof Iterable<?> iterable && bindingFor(o) == null) {
                for (Object element : iterable) {
                    subscriptions.addAll(bindAll(element));
                }
            } else {
                bind(o);
            }
        }
        return subscriptions;
    }

    /**
     * Binds a registry's policies, now and as it creates them.
     *
     * @param policies the registry
     * @param <P> the policy type
     * @return the subscription to the registry's creations
     */
    public <P> Subscription bindRegistry(PolicyRegistry<?, P> policies) {
        Validate.notNull(POLICY, "policies", policies);
        // Subscribe first, so a policy created between the two steps is not missed; binding one twice
        // is harmless (Micrometer returns the meter already registered under the same name and tags).
        Subscription subscription = policies.onCreated(this::bind);
        for (P policy : policies.all()) {
            bind(policy);
        }
        return subscription;
    }

    /**
     * Wraps {@code policy} so each call through it records its latency in
     * {@code levee.<pattern>.latency{name, outcome}}.
     *
     * @param policy the policy to time
     * @return a policy with the same name that runs {@code policy} and records the latency
     * @throws dev.levee.core.InvalidConfigException if {@code policy} is null
     */
    public Policy timed(Policy policy) {
        Validate.notNull(POLICY, "policy", policy);
        Binding<?> binding = bindingFor(policy);
        String pattern = binding != null ? binding.pattern() : patternOfPackage(policy);
        return new TimedPolicy(policy, ticker, timer(pattern, policy.name(), "success"), timer(pattern, policy.name(), "failure"));
    }

    private Timer timer(String pattern, String name, String outcome) {
        Timer.Builder timer = Timer.builder(MetricNames.name(pattern, "latency"))
                .description("Latency of the calls this policy let through, by outcome")
                .tag(MetricNames.TAG_NAME, name)
                .tag(MetricNames.TAG_OUTCOME, outcome)
                .publishPercentileHistogram(percentileHistogram);
        if (percentiles.length > 0) {
            timer.publishPercentiles(percentiles);
        }
        return timer.register(registry);
    }

    private static @Nullable Binding<?> bindingFor(Object policy) {
        for (Binding<?> binding : BINDINGS) {
            if (binding.type().isInstance(policy)) {
                return binding;
            }
        }
        return null;
    }

    private static String patternOfPackage(Object policy) {
        String pkg = policy.getClass().getPackageName();
        String[] parts = pkg.split("\\.");
        return parts.length > 2 && parts[0].equals("dev") && parts[1].equals("levee") ? parts[2] : "policy";
    }

    /** A policy that times the calls it passes to its delegate. */
    private static final class TimedPolicy implements Policy {
        private final Policy delegate;
        private final Ticker ticker;
        private final Timer success;
        private final Timer failure;

        TimedPolicy(Policy delegate, Ticker ticker, Timer success, Timer failure) {
            this.delegate = delegate;
            this.ticker = ticker;
            this.success = success;
            this.failure = failure;
        }

        @Override
        public String name() {
            return delegate.name();
        }

        @Override
        public <T, E extends Throwable> T execute(Chain next, CheckedSupplier<T, E> call) throws E {
            long start = ticker.read();
            boolean ok = false;
            boolean ran = true;
            try {
                T result = delegate.execute(next, call);
                ok = true;
                return result;
            } catch (RejectedException refused) {
                // A refusal is counted by levee.<pattern>.rejected: nothing ran. A deadline exceeded is
                // the call being cut short (or not started for lack of time): a failure, timed.
                ran = refused instanceof DeadlineExceededException;
                throw refused;
            } finally {
                if (ran) {
                    (ok ? success : failure).record(ticker.read() - start, TimeUnit.NANOSECONDS);
                }
            }
        }

        @Override
        public <T> CompletionStage<T> executeAsync(Chain next, Supplier<? extends CompletionStage<T>> call) {
            long start = ticker.read();
            return delegate.executeAsync(next, call).whenComplete((result, error) -> {
                Throwable cause = unwrap(error);
                if (!(cause instanceof RejectedException) || cause instanceof DeadlineExceededException) {
                    (error == null ? success : failure).record(ticker.read() - start, TimeUnit.NANOSECONDS);
                }
            });
        }

        private static @Nullable Throwable unwrap(@Nullable Throwable error) {
            return error instanceof java.util.concurrent.CompletionException && error.getCause() != null ? error.getCause() : error;
        }

        @Override
        public String toString() {
            return "Timed[" + delegate + "]";
        }
    }

    /** Options of the entry point. */
    public static final class Builder {
        private final MeterRegistry registry;
        private boolean percentileHistogram;
        private double[] percentiles = new double[0];
        private Ticker ticker = Ticker.system();

        private Builder(MeterRegistry registry) {
            this.registry = Validate.notNull(POLICY, "registry", registry);
        }

        /**
         * Publish each latency timer's histogram buckets (for server-side percentiles such as
         * Prometheus' {@code histogram_quantile}). Default false: about 70 extra time series per timer.
         *
         * @param enabled whether to publish
         * @return this builder
         */
        public Builder percentileHistogram(boolean enabled) {
            this.percentileHistogram = enabled;
            return this;
        }

        /**
         * Client-side percentiles to publish for each latency timer, each a fraction in [0, 1]
         * ({@code 0.99} is p99). Default none.
         *
         * @param percentiles the percentiles
         * @return this builder
         * @throws dev.levee.core.InvalidConfigException if one is outside [0, 1]
         */
        public Builder percentiles(double... percentiles) {
            Validate.notNull(POLICY, "percentiles", percentiles);
            for (double p : percentiles) {
                Validate.inRange(POLICY, "percentiles", p, 0.0, 1.0);
            }
            this.percentiles = percentiles.clone();
            return this;
        }

        /**
         * The clock timed calls are measured on. Default {@link Ticker#system()}.
         *
         * @param ticker the ticker
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = Validate.notNull(POLICY, "ticker", ticker);
            return this;
        }

        /**
         * Builds the entry point.
         *
         * @return the entry point
         */
        public LeveeMeters build() {
            return new LeveeMeters(this);
        }
    }
}
