package dev.levee.examples;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.config.LeveeProperties;
import dev.levee.core.PolicyRegistry;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.retry.Retry;
import dev.levee.retry.RetryConfig;
import java.io.IOException;
import java.io.StringReader;
import java.util.Properties;

/** The example of {@code docs/configuration.md}, compiled by the build and run by {@code ConfigExamplesTest}. */
public final class ConfigExamples {
    private ConfigExamples() {}

    /** The properties of the page, as a file would hold them. */
    static final String FILE = """
            levee.circuitbreaker.default.failureRateThreshold = 0.5
            levee.circuitbreaker.default.waitDurationInOpen   = 30s
            levee.circuitbreaker.payments.waitDurationInOpen  = 5s
            levee.retry.payments.maxAttempts                  = 4
            levee.ratelimiter.search.limit                    = 100
            levee.ratelimiter.search.period                   = 1s
            """;

    /** What the example builds. */
    record Built(CircuitBreaker payments, PolicyRegistry<RetryConfig, Retry> retries, RateLimiterConfig search, int validated) {}

    /**
     * Loads the file and builds a breaker, a registry and a config from it.
     *
     * @return what was built
     * @throws IOException never (the file is a string)
     */
    static Built fromProperties() throws IOException {
        Properties properties = new Properties();
        properties.load(new StringReader(FILE));

        LeveeProperties levee = LeveeProperties.of(properties);          // a typo in a key fails here
        CircuitBreaker payments = levee.policy(CircuitBreakerConfig.class, "payments", CircuitBreaker::of);
        PolicyRegistry<RetryConfig, Retry> retries = levee.registry(RetryConfig.class, Retry::of);
        RateLimiterConfig search = levee.config(RateLimiterConfig.class, "search");
        int validated = levee.validate();                                 // build every configured name now
        return new Built(payments, retries, search, validated);
    }
}
