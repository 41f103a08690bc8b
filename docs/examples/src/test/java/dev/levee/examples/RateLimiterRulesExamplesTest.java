package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.ratelimiter.AdaptiveRateLimiter;
import dev.levee.ratelimiter.KeyedRateLimiter;
import dev.levee.ratelimiter.RateLimiter;
import org.junit.jupiter.api.Test;

class RateLimiterRulesExamplesTest {

    @Test
    void theMinuteBucketQuotaGrantsItsLimitAndNoMore() {
        RateLimiter quota = RateLimiterRulesExamples.hourlyQuotaInMinuteBuckets();
        long now = quota.ticker().read();
        int granted = 0;
        for (int i = 0; i < 1_100; i++) {
            if (quota.tryAcquire(1, now)) {
                granted++;
            }
        }
        assertThat(granted).isEqualTo(1_000);
    }

    @Test
    void theSeedRuleRaisesTheRateOnSteadyRoundTrips() {
        AdaptiveRateLimiter limiter = RateLimiterRulesExamples.seedRttRule();
        for (int i = 0; i < 10; i++) {
            limiter.onSuccess(5_000_000L);
        }
        assertThat(limiter.currentRate()).isEqualTo(100 * 1.1);
    }

    @Test
    void eachTenantOnTheCoarseTickerStartsWithItsOwnFullBurst() {
        KeyedRateLimiter<String> perTenant = RateLimiterRulesExamples.perTenantOnTheCoarseTicker();
        for (String tenant : new String[] {"tenant-a", "tenant-b"}) {
            int granted = 0;
            for (int i = 0; i < 20; i++) {
                granted += perTenant.tryAcquire(tenant) ? 1 : 0;
            }
            assertThat(granted).as(tenant).isEqualTo(20); // a fresh key's burst, whatever the clock did meanwhile
        }
        assertThat(perTenant.size()).isEqualTo(2);
    }
}
