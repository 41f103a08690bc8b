package dev.levee.jcstress;

import dev.levee.idempotency.ClaimResult;

/** Result codes shared by the idempotency store tests. */
final class Idempotency {
    private Idempotency() {
    }

    /**
     * A claim's answer as a code.
     *
     * @param result the store's answer
     * @return 1 claimed (the caller executes), 0 in progress, 2 completed (the caller replays)
     */
    static int code(ClaimResult result) {
        if (result instanceof ClaimResult.Claimed) {
            return 1;
        }
        return result instanceof ClaimResult.Completed ? 2 : 0;
    }
}
