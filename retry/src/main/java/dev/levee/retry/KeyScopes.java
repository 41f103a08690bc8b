package dev.levee.retry;

import dev.levee.core.ContextScope;
import dev.levee.core.IdempotencyKey;
import org.jspecify.annotations.Nullable;

/** Makes a {@link Idempotency#KEYED} call's key current, once per logical call (shared by Retry and Hedge). */
final class KeyScopes {
    private KeyScopes() {
    }

    /**
     * Nothing when a key is current already (the caller's, or an outer keyed layer's: the repeats of the
     * outer call must carry the same key); else the generator's key, attached; or nothing when the
     * generator makes none (the call then has no key and is not repeated).
     *
     * @return the scope to close after the call, or null if nothing was attached
     */
    static @Nullable ContextScope attach(IdempotencyKeyGenerator generator) {
        if (IdempotencyKey.currentOrNull() != null) {
            return null;
        }
        IdempotencyKey key = generator.newKey();
        return key == null ? null : key.attach();
    }
}
