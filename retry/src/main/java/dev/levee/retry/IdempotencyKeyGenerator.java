package dev.levee.retry;

import dev.levee.core.IdempotencyKey;
import dev.levee.core.RandomSource;
import dev.levee.core.internal.Validate;
import org.jspecify.annotations.Nullable;

/**
 * Makes the idempotency key of a logical call, once, before its first attempt, for a {@link Retry} or
 * {@link Hedge} declared {@link Idempotency#KEYED} when no key is current already.
 *
 * <table>
 *   <caption>The generators</caption>
 *   <tr><th>generator</th><th>key</th></tr>
 *   <tr><td>{@link #randomUuid()} (the default)</td><td>a version-4 UUID from thread-local randomness</td></tr>
 *   <tr><td>{@link #randomUuid(RandomSource)}</td><td>the same from an injected source:
 *       {@code RandomSource.seeded(42)} makes a test's keys reproducible</td></tr>
 *   <tr><td>{@link #callerSupplied()}</td><td>none: every call must carry the caller's own key
 *       ({@code IdempotencyKey.of(orderId).attach()}); one without is not repeated</td></tr>
 *   <tr><td>a lambda</td><td>the application's: {@code () -> IdempotencyKey.of(ids.next())}</td></tr>
 * </table>
 *
 * <p>A key must be unique per logical operation within the server's retention (Stripe's 24 h). A random
 * UUID has 122 random bits; from thread-local randomness, two keys collide only if two threads' streams
 * overlap — negligible for any real number of clients, but such keys are predictable to someone who
 * sees many of them. A server that treats keys as secrets (it should not: it scopes them per client)
 * wants {@code () -> IdempotencyKey.of(UUID.randomUUID().toString())}.
 *
 * <p>Called once per logical call, on the caller's thread; must be thread-safe. If it throws, the call
 * fails with that exception before any attempt.
 */
@FunctionalInterface
public interface IdempotencyKeyGenerator {

    /**
     * A new key for one logical call.
     *
     * @return the key, or null to make none (the call then needs a key the caller attached)
     */
    @Nullable IdempotencyKey newKey();

    /**
     * Random version-4 UUIDs from thread-local randomness: the default.
     *
     * @return the generator
     */
    static IdempotencyKeyGenerator randomUuid() {
        return RandomUuidGenerator.THREAD_LOCAL;
    }

    /**
     * Random version-4 UUIDs from {@code random}: 159 random bits drawn as three 53-bit values, 122 of
     * them kept in the UUID's random fields.
     *
     * @param random the source; {@code RandomSource.seeded(seed)} in tests
     * @return the generator
     */
    static IdempotencyKeyGenerator randomUuid(RandomSource random) {
        return new RandomUuidGenerator(Validate.notNull("IdempotencyKeyGenerator", "random", random));
    }

    /**
     * Makes no key: every call must carry one the caller attached, or it is not repeated.
     *
     * @return the generator
     */
    static IdempotencyKeyGenerator callerSupplied() {
        return CallerSuppliedKeys.INSTANCE;
    }
}
