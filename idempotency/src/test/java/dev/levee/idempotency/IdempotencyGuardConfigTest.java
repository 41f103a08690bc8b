package dev.levee.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

class IdempotencyGuardConfigTest {

    private static void refused(IdempotencyGuardConfig.Builder b, String field, String value) {
        assertThatThrownBy(b::build).isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("IdempotencyGuard config")
                .hasMessageContaining(field)
                .hasMessageContaining("but was " + value);
    }

    @Test
    void defaultsAreTheDocumentedConstants() {
        IdempotencyGuardConfig c = IdempotencyGuardConfig.defaults();
        assertThat(c.timeToLive()).isEqualTo(Duration.ofHours(24)).isEqualTo(IdempotencyGuardConfig.DEFAULT_TIME_TO_LIVE);
        assertThat(c.lease()).isEqualTo(Duration.ofSeconds(60)).isEqualTo(IdempotencyGuardConfig.DEFAULT_LEASE);
        assertThat(c.maxWait()).isZero();
        assertThat(c.checkFingerprint()).isTrue();
        assertThat(c.fingerprintParts()).containsExactlyInAnyOrder(FingerprintPart.values());
        assertThat(c.storedHeaders()).containsExactlyInAnyOrder("content-type", "location");
        assertThat(c.outagePolicy()).isEqualTo(OutagePolicy.FAIL_CLOSED);
        assertThat(c.store()).isNull();
    }

    @Test
    void theDefaultStoreRuleStoresDeterministicOutcomesOnly() {
        for (int status : new int[] {200, 201, 204, 301, 400, 401, 403, 404, 410, 422}) {
            assertThat(IdempotencyGuardConfig.DEFAULT_STORE_RULE.test(StoredResponse.of(status, java.util.Map.of(), new byte[0])))
                    .as("%d is final", status).isTrue();
        }
        for (int status : new int[] {408, 409, 429, 500, 502, 503, 504}) {
            assertThat(IdempotencyGuardConfig.DEFAULT_STORE_RULE.test(StoredResponse.of(status, java.util.Map.of(), new byte[0])))
                    .as("%d is transient", status).isFalse();
        }
    }

    @Test
    void everyBoundIsRefusedWithFieldAndValue() {
        refused(IdempotencyGuardConfig.builder().timeToLive(Duration.ZERO), "timeToLive", "PT0S");
        refused(IdempotencyGuardConfig.builder().timeToLive(Duration.ofSeconds(-1)), "timeToLive", "PT-1S");
        refused(IdempotencyGuardConfig.builder().timeToLive(null), "timeToLive", "null");
        refused(IdempotencyGuardConfig.builder().lease(Duration.ZERO), "lease", "PT0S");
        refused(IdempotencyGuardConfig.builder().lease(Duration.ofMillis(-5)), "lease", "PT-0.005S");
        refused(IdempotencyGuardConfig.builder().maxWait(Duration.ofMillis(-1)), "maxWait", "PT-0.001S");
        refused(IdempotencyGuardConfig.builder().fingerprintParts(Set.of()), "fingerprintParts", "[]");
        refused(IdempotencyGuardConfig.builder().fingerprintParts(null), "fingerprintParts", "null");
        refused(IdempotencyGuardConfig.builder().storedHeaders(Set.of(" ")), "storedHeaders", "[ ]");
        refused(IdempotencyGuardConfig.builder().storedHeaders(null), "storedHeaders", "null");
        refused(IdempotencyGuardConfig.builder().storeRule(null), "storeRule", "null");
        refused(IdempotencyGuardConfig.builder().outagePolicy(null), "outagePolicy", "null");
        refused(IdempotencyGuardConfig.builder().ticker(null), "ticker", "null");
        refused(IdempotencyGuardConfig.builder().sleeper(null), "sleeper", "null");
        refused(IdempotencyGuardConfig.builder().random(null), "random", "null");
    }

    @Test
    void noFingerprintPartsIsFineWhenFingerprintsAreNotChecked() {
        IdempotencyGuardConfig c = IdempotencyGuardConfig.builder().checkFingerprint(false).fingerprintParts(Set.of()).build();
        assertThat(c.fingerprintParts()).isEmpty();
    }

    @Test
    void toBuilderKeepsEverySetting() {
        IdempotencyStore store = InMemoryIdempotencyStore.create();
        IdempotencyGuardConfig c = IdempotencyGuardConfig.builder().timeToLive(Duration.ofHours(1)).lease(Duration.ofSeconds(5))
                .maxWait(Duration.ofSeconds(2)).fingerprintParts(Set.of(FingerprintPart.BODY)).storedHeaders(Set.of("X-Id"))
                .outagePolicy(OutagePolicy.FAIL_OPEN).store(store).build();
        IdempotencyGuardConfig copy = c.toBuilder().build();
        assertThat(copy.timeToLive()).isEqualTo(Duration.ofHours(1));
        assertThat(copy.lease()).isEqualTo(Duration.ofSeconds(5));
        assertThat(copy.maxWait()).isEqualTo(Duration.ofSeconds(2));
        assertThat(copy.fingerprintParts()).containsExactly(FingerprintPart.BODY);
        assertThat(copy.storedHeaders()).containsExactly("x-id");
        assertThat(copy.outagePolicy()).isEqualTo(OutagePolicy.FAIL_OPEN);
        assertThat(copy.store()).isSameAs(store);
        assertThat(copy.storeRule()).isSameAs(c.storeRule());
    }

    @Test
    void theGuardRefusesABlankNameOrANullConfig() {
        assertThatThrownBy(() -> IdempotencyGuard.of(" ", IdempotencyGuardConfig.defaults())).isInstanceOf(InvalidConfigException.class);
        assertThatThrownBy(() -> IdempotencyGuard.of("g", null)).isInstanceOf(InvalidConfigException.class).hasMessageContaining("config");
    }

    @Test
    void theInMemoryStoreRefusesItsBounds() {
        assertThatThrownBy(() -> InMemoryIdempotencyStore.builder().maxEntries(0).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("maxEntries").hasMessageContaining("but was 0");
        assertThatThrownBy(() -> InMemoryIdempotencyStore.builder().idleTimeout(Duration.ZERO).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("idleTimeout");
        assertThatThrownBy(() -> InMemoryIdempotencyStore.builder().ticker(null).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("ticker");
    }
}
