package dev.levee.config;

import dev.levee.bulkhead.BulkheadConfig;
import dev.levee.bulkhead.KeyedBulkheadConfig;
import dev.levee.bulkhead.ThreadPoolBulkheadConfig;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.degrade.CoalescerConfig;
import dev.levee.degrade.DegradationLevelConfig;
import dev.levee.degrade.FallbackConfig;
import dev.levee.degrade.LastKnownGoodConfig;
import dev.levee.health.HealthCheckConfig;
import dev.levee.health.HealthCheckerConfig;
import dev.levee.health.HealthEndpointConfig;
import dev.levee.health.WatchdogConfig;
import dev.levee.loadshed.AdaptiveLoadShedderConfig;
import dev.levee.loadshed.ClientThrottleConfig;
import dev.levee.loadshed.ConcurrencyLimiterConfig;
import dev.levee.loadshed.PidShedderConfig;
import dev.levee.loadshed.PriorityShedderConfig;
import dev.levee.loadshed.queue.CoDelQueueConfig;
import dev.levee.loadshed.queue.DeadlineAwareQueueConfig;
import dev.levee.ratelimiter.AdaptiveRateLimiterConfig;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.retry.HedgeConfig;
import dev.levee.retry.ReplicaSetConfig;
import dev.levee.retry.RetryBudgetConfig;
import dev.levee.retry.RetryConfig;
import dev.levee.timeout.AdaptiveTimeoutConfig;
import dev.levee.timeout.TimeoutBudgetConfig;
import dev.levee.timeout.TimeoutConfig;
import dev.levee.idempotency.IdempotencyGuardConfig;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Every config class of Levee's published modules, by pattern key. The Redis configs are known when the
 * optional {@code levee-redis} is on the classpath, and looked up by name, so that without it this class
 * loads and works (docs/architecture.md, decision 43).
 */
final class ConfigPatterns {
    /** The config classes of the optional levee-redis, by name: never referenced as class literals here. */
    static final List<String> OPTIONAL = List.of(
            "dev.levee.redis.ratelimiter.RedisRateLimiterConfig",
            "dev.levee.redis.idempotency.RedisIdempotencyStoreConfig");

    static final Map<String, Class<?>> KNOWN;

    static {
        Map<String, Class<?>> known = new TreeMap<>();
        for (Class<?> type : List.<Class<?>>of(
                TimeoutConfig.class, AdaptiveTimeoutConfig.class, TimeoutBudgetConfig.class,
                RetryConfig.class, RetryBudgetConfig.class, HedgeConfig.class, ReplicaSetConfig.class,
                CircuitBreakerConfig.class,
                BulkheadConfig.class, ThreadPoolBulkheadConfig.class, KeyedBulkheadConfig.class,
                RateLimiterConfig.class, AdaptiveRateLimiterConfig.class,
                ConcurrencyLimiterConfig.class, ClientThrottleConfig.class, AdaptiveLoadShedderConfig.class,
                PidShedderConfig.class, PriorityShedderConfig.class, CoDelQueueConfig.class, DeadlineAwareQueueConfig.class,
                HealthCheckConfig.class, HealthCheckerConfig.class, HealthEndpointConfig.class, WatchdogConfig.class,
                FallbackConfig.class, CoalescerConfig.class, LastKnownGoodConfig.class, DegradationLevelConfig.class,
                IdempotencyGuardConfig.class)) {
            known.put(patternOf(type), type);
        }
        for (String optional : OPTIONAL) {
            Class<?> type = loadIfPresent(optional);
            if (type != null) {
                known.put(patternOf(type), type);
            }
        }
        KNOWN = Collections.unmodifiableMap(known);
    }

    private ConfigPatterns() {}

    /** The class if its module is on the classpath (not initialised), else null. */
    static @Nullable Class<?> loadIfPresent(String className) {
        try {
            return Class.forName(className, false, ConfigPatterns.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError absent) {
            return null;
        }
    }

    static String patternOf(Class<?> configType) {
        String simple = configType.getSimpleName();
        String base = simple.endsWith("Config") ? simple.substring(0, simple.length() - "Config".length()) : simple;
        return base.toLowerCase(Locale.ROOT);
    }
}
