package dev.levee.retry;

import dev.levee.core.IdempotencyKey;
import org.jspecify.annotations.Nullable;

/** {@link IdempotencyKeyGenerator#callerSupplied()}: makes no key; the caller attaches its own. */
enum CallerSuppliedKeys implements IdempotencyKeyGenerator {
    INSTANCE;

    @Override
    public @Nullable IdempotencyKey newKey() {
        return null;
    }

    @Override
    public String toString() {
        return "IdempotencyKeyGenerator.callerSupplied()";
    }
}
