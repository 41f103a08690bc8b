package dev.levee.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Hostile keys, scopes, methods, paths and bodies from a seeded generator: the guard never throws, a
 * key is refused exactly when it is malformed, and a request never gets a response made for another.
 */
class IdempotencyGuardFuzzTest {
    private static final int CASES = 5_000;

    private static String hostile(SplittableRandom r) {
        int shape = r.nextInt(6);
        int length = switch (shape) {
            case 0 -> 0;
            case 1 -> 1 + r.nextInt(8);
            case 2 -> 250 + r.nextInt(10);
            case 3 -> 1_000 + r.nextInt(10_000);
            default -> 1 + r.nextInt(40);
        };
        StringBuilder b = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            int kind = r.nextInt(10);
            char c = switch (kind) {
                case 0 -> (char) r.nextInt(0x20);                 // control
                case 1 -> (char) (0x7f + r.nextInt(0x81));         // DEL and Latin-1
                case 2 -> (char) (0xd800 + r.nextInt(0x800));      // lone surrogates
                case 3 -> "\"\\,;=:{}%\r\n".charAt(r.nextInt(11));
                default -> (char) (0x20 + r.nextInt(0x5f));        // printable ASCII
            };
            b.append(c);
        }
        return b.toString();
    }

    @Test
    void hostileInputNeverThrowsAndBadKeysAreExactlyTheMalformedOnes() throws Exception {
        ManualTicker ticker = new ManualTicker();
        IdempotencyGuard guard = IdempotencyGuard.of("fuzz", IdempotencyGuardConfig.builder()
                .store(InMemoryIdempotencyStore.builder().ticker(ticker).maxEntries(1_000).build())
                .ticker(ticker).random(RandomSource.seeded(3)).build());
        SplittableRandom r = new SplittableRandom(20261124L);
        int bad = 0;
        for (int i = 0; i < CASES; i++) {
            String key = r.nextInt(20) == 0 ? null : r.nextBoolean() ? hostile(r) : "k" + r.nextInt(50);
            String scope = r.nextBoolean() ? hostile(r) : "t" + r.nextInt(3);
            byte[] body = new byte[r.nextInt(64)];
            r.nextBytes(body);
            if (r.nextBoolean()) {
                body = new byte[] {1};
            }
            IdempotencyRequest request = new IdempotencyRequest(hostile(r), r.nextBoolean() ? "/p" : hostile(r), body);
            String token = "response for " + i;
            IdempotencyResult result = guard.handle(scope, key, request,
                    () -> StoredResponse.of(200 + r.nextInt(400), Map.of("content-type", List.of(hostile(r))), token.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            boolean malformed = IdempotencyGuard.keyProblem(key) != null;
            assertThat(result.kind() == IdempotencyResult.Kind.BAD_KEY).as("case %d", i).isEqualTo(malformed);
            if (malformed) {
                bad++;
                assertThat(result.response().status()).isEqualTo(400);
            }
            if (result.kind() == IdempotencyResult.Kind.EXECUTED) {
                assertThat(new String(result.response().body(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(token);
            }
            if (i % 1000 == 0) {
                ticker.advance(Duration.ofHours(1));
            }
        }
        assertThat(bad).isGreaterThan(CASES / 10);
        assertThat(guard.metrics().badKeys()).isEqualTo(bad);
    }
}
