package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.Classifier;
import dev.levee.core.InvalidConfigException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

class RetryConfigTest {

    private static RetryConfig.Builder b() {
        return RetryConfig.builder();
    }

    @Test
    void defaultsFollowPublishedPractice() {
        RetryConfig c = RetryConfig.defaults();
        assertThat(c.maxAttempts()).isEqualTo(3);
        assertThat(c.maxDurationNanos()).isZero();
        assertThat(c.backoff().delayNanos(1)).isEqualTo(100_000_000L);
        assertThat(c.backoff().delayNanos(2)).isEqualTo(200_000_000L);
        assertThat(c.backoff().maxNanos()).isEqualTo(10_000_000_000L);
        assertThat(c.jitter()).isSameAs(Jitter.full());
        assertThat(c.classifier()).isSameAs(Classifier.defaults());
        assertThat(c.maxRetryAfter()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.budgeted()).as("a budget by default (issue 13)").isTrue().isEqualTo(RetryConfig.DEFAULT_BUDGETED);
        assertThat(c.logLevel()).isEqualTo(Level.DEBUG);
        assertThat(Retry.of("payments", c).budget()).isNotNull();
        assertThat(Retry.of("payments", c).budget().name()).isEqualTo("payments");
        assertThat(Retry.of("payments", b().withoutBudget().build()).budget()).isNull();
        RetryConfig withDefaultBudget = b().defaultBudget().build();
        Retry retry = Retry.of("payments", withDefaultBudget);
        assertThat(retry.budget().config().retryRatio()).isEqualTo(0.2);
        assertThat(retry.budget()).as("a private budget per retry").isNotSameAs(Retry.of("payments", withDefaultBudget).budget());
        assertThat(Retry.of("payments", b().defaultBudget().withoutBudget().build()).budget()).isNull();
        assertThatThrownBy(() -> b().budget(null)).isInstanceOf(InvalidConfigException.class)
                .hasMessage("Retry: budget must be set (not null) but was null");
        RetryBudget shared = RetryBudget.ofDefaults("shared");
        assertThat(Retry.of("payments", b().budget(shared).build()).budget()).isSameAs(shared);
        assertThat(Retry.of("payments", b().budget(shared).build()).budget()).isSameAs(Retry.of("payments", b().budget(shared).build()).budget());
    }

    @Test
    void everyBoundIsCheckedWithAClearMessage() {
        assertThatThrownBy(() -> Retry.of("", RetryConfig.defaults())).isInstanceOf(InvalidConfigException.class)
                .hasMessage("Retry: name must be a non-blank string but was ''");
        assertThatThrownBy(() -> Retry.of(null, RetryConfig.defaults())).isInstanceOf(InvalidConfigException.class)
                .hasMessage("Retry: name must be a non-blank string but was null");
        assertThatThrownBy(() -> Retry.of("payments", null)).isInstanceOf(InvalidConfigException.class)
                .hasMessage("Retry 'payments': config must be set (not null) but was null");
        assertThatThrownBy(() -> b().maxAttempts(0).build())
                .hasMessage("Retry: maxAttempts must be in [1, 1000] but was 0");
        assertThatThrownBy(() -> b().maxAttempts(1001).build()).hasMessageContaining("but was 1001");
        assertThatThrownBy(() -> b().maxDuration(Duration.ZERO).build())
                .hasMessage("Retry: maxDuration must be > 0 but was PT0S");
        assertThatThrownBy(() -> b().maxDuration(Duration.ofDays(2)).build())
                .hasMessage("Retry: maxDuration must be <= PT24H but was PT48H");
        assertThatThrownBy(() -> b().backoff(null).build()).hasMessageContaining("backoff must be set");
        assertThatThrownBy(() -> b().jitter(null).build()).hasMessageContaining("jitter must be set");
        assertThatThrownBy(() -> b().classifier(null).build()).hasMessageContaining("classifier must be set");
        assertThatThrownBy(() -> b().maxRetryAfter(Duration.ofSeconds(-1)).build())
                .hasMessage("Retry: maxRetryAfter must be >= 0 but was PT-1S");
        assertThatThrownBy(() -> b().maxRetryAfter(Duration.ofDays(2)).build()).hasMessageContaining("maxRetryAfter must be <= PT24H");
        assertThatThrownBy(() -> b().logLevel(null).build()).hasMessageContaining("logLevel must be set");
        assertThatThrownBy(() -> b().ticker(null).build()).hasMessageContaining("ticker must be set");
        assertThatThrownBy(() -> b().sleeper(null).build()).hasMessageContaining("sleeper must be set");
        assertThatThrownBy(() -> b().scheduler(null).build()).hasMessageContaining("scheduler must be set");
        assertThatThrownBy(() -> b().random(null).build()).hasMessageContaining("random must be set");
        // The bounds themselves are accepted.
        b().maxAttempts(1).maxDuration(Duration.ofNanos(1)).maxRetryAfter(Duration.ZERO).build();
        b().maxAttempts(1000).maxDuration(Duration.ofDays(1)).maxRetryAfter(Duration.ofDays(1)).build();
    }

    @Test
    void retryOnResultKeepsTheExceptionRules() {
        RetryConfig c = b().classifier(Classifier.builder().ignore(IllegalStateException.class).build())
                .retryOnResult("busy"::equals).build();
        assertThat(c.classifier().classify(new IllegalStateException())).isEqualTo(dev.levee.core.Outcome.IGNORED);
        assertThat(c.classifier().classifyResult("busy")).isEqualTo(dev.levee.core.Outcome.FAILURE);
        assertThat(c.classifier().classifyResult("fine")).isEqualTo(dev.levee.core.Outcome.SUCCESS);
    }

    @Test
    void aMaxRetryAfterOfZeroGivesUpOnAnyHint() {
        dev.levee.core.ManualTicker ticker = new dev.levee.core.ManualTicker();
        Retry retry = Retry.of("payments", b().ticker(ticker).sleeper(ticker).maxRetryAfter(Duration.ZERO).build());
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        assertThatThrownBy(() -> retry.execute(() -> {
            calls.incrementAndGet();
            throw new dev.levee.core.BulkheadFullException("bh", "full", 1);
        })).isInstanceOf(dev.levee.core.BulkheadFullException.class);
        assertThat(calls).hasValue(1);
        // A rejection without a hint is not transient by default: not retried either ...
        assertThatThrownBy(() -> retry.execute(() -> {
            calls.incrementAndGet();
            throw new dev.levee.core.BulkheadFullException("bh", "full", 0);
        })).isInstanceOf(dev.levee.core.BulkheadFullException.class);
        assertThat(calls).hasValue(2);
        // ... but with retryAll() it is, with no hint to exceed.
        Retry all = Retry.of("payments", b().ticker(ticker).sleeper(ticker).maxRetryAfter(Duration.ZERO).retryAll().build());
        assertThatThrownBy(() -> all.execute(() -> {
            calls.incrementAndGet();
            throw new dev.levee.core.BulkheadFullException("bh", "full", 0);
        })).isInstanceOf(dev.levee.core.BulkheadFullException.class);
        assertThat(calls).hasValue(5);
    }

    /** Issue 11: nulls given to builder methods are config errors naming the policy, never a bare NPE. */
    @Test
    void nullsAreConfigErrorsNamingThePolicy() {
        assertThatThrownBy(() -> b().retryIf(null)).isInstanceOf(InvalidConfigException.class).hasMessageStartingWith("Retry: retryIf");
        assertThatThrownBy(() -> b().retryOn((Class<? extends Throwable>) null)).isInstanceOf(InvalidConfigException.class)
                .hasMessageStartingWith("Retry: retryOn type");
        assertThatThrownBy(() -> b().abortOn((Class<? extends Throwable>) null)).isInstanceOf(InvalidConfigException.class);
        assertThatThrownBy(() -> b().abortIf(null)).isInstanceOf(InvalidConfigException.class);
        assertThatThrownBy(() -> b().abortOnResult(null)).isInstanceOf(InvalidConfigException.class);
        assertThatThrownBy(() -> b().retryOnStatus(null, x -> 0)).isInstanceOf(InvalidConfigException.class);
        assertThatThrownBy(() -> b().backoffFor(null, Backoff.none())).isInstanceOf(InvalidConfigException.class);
        assertThatThrownBy(() -> b().backoffFor(RuntimeException.class, null)).isInstanceOf(InvalidConfigException.class);
        assertThatThrownBy(() -> Backoff.constant(null)).isInstanceOf(InvalidConfigException.class);
    }

    /** Issue 11: configs are nameless and shareable; toBuilder() derives a variant; registries create by name. */
    @Test
    void configsAreNamelessSharedAndDerivable() {
        RetryConfig base = b().maxAttempts(5).backoffFor(RuntimeException.class, Backoff.none()).retryAll()
                .maxDuration(Duration.ofSeconds(3)).build();
        RetryConfig derived = base.toBuilder().maxAttempts(2).build();
        assertThat(derived.maxAttempts()).isEqualTo(2);
        assertThat(derived.maxDurationNanos()).isEqualTo(base.maxDurationNanos());
        assertThat(derived.typedBackoffs()).isEqualTo(base.typedBackoffs());
        assertThat(derived.retryPredicate()).isNull();
        assertThat(derived.backoff()).isSameAs(base.backoff());
        assertThat(base.maxAttempts()).as("the original is unchanged").isEqualTo(5);
        assertThat(RetryConfig.defaults().toBuilder().build().maxAttempts()).isEqualTo(RetryConfig.DEFAULT_MAX_ATTEMPTS);
        Retry one = Retry.of("one", base);
        Retry two = Retry.of("two", base);
        assertThat(one.config()).isSameAs(two.config());
        assertThat(one.name()).isEqualTo("one");
        dev.levee.core.PolicyRegistry<RetryConfig, Retry> registry = Retry.registry(base);
        assertThat(registry.get("inventory")).isSameAs(registry.get("inventory"));
        assertThat(registry.get("inventory").config()).isSameAs(base);
        HedgeConfig hedge = HedgeConfig.builder().maxHedges(3).build();
        assertThat(hedge.toBuilder().build().maxHedges()).isEqualTo(3);
        assertThat(Hedge.registry(hedge).get("h").config()).isSameAs(hedge);
        RetryBudgetConfig budget = RetryBudgetConfig.builder().retryRatio(0.5).build();
        assertThat(budget.toBuilder().ttl(Duration.ofSeconds(1)).build().retryRatio()).isEqualTo(0.5);
        assertThat(RetryBudget.of("x", budget).name()).isEqualTo("x");
        dev.levee.core.PolicyRegistry<RetryBudgetConfig, RetryBudget> budgets = RetryBudget.registry(budget);
        assertThat(budgets.get("inventory")).isSameAs(budgets.get("inventory"));
        assertThat(budgets.get("inventory").config()).isSameAs(budget);
    }
}
