package dev.levee.idempotency;

import java.time.Duration;
import java.util.Objects;

/**
 * What {@link IdempotencyStore#claim} found: the key was free and is now claimed, another request is
 * executing it, or it completed and its response is stored.
 */
public sealed interface ClaimResult {

    /**
     * The key was free and this request now holds it.
     *
     * @param tookOverLapsedLease {@code true} when the key was held by an in-progress record whose lease
     *     had lapsed (its executor crashed or ran past its lease), {@code false} when there was no record
     */
    record Claimed(boolean tookOverLapsedLease) implements ClaimResult {}

    /**
     * Another request holds the key and has not completed.
     *
     * @param fingerprint the fingerprint the holder claimed with
     * @param leaseRemaining how long until the holder's lease lapses (never negative); a fair
     *     {@code Retry-After} for a duplicate
     */
    record InProgress(String fingerprint, Duration leaseRemaining) implements ClaimResult {
        /**
         * Checks the components.
         *
         * @param fingerprint the holder's fingerprint
         * @param leaseRemaining the time left on the holder's lease
         */
        public InProgress {
            Objects.requireNonNull(fingerprint, "fingerprint");
            Objects.requireNonNull(leaseRemaining, "leaseRemaining");
            if (leaseRemaining.isNegative()) {
                leaseRemaining = Duration.ZERO;
            }
        }
    }

    /**
     * A request with this key completed and its response is stored.
     *
     * @param fingerprint the fingerprint the completed request claimed with
     * @param response the stored response
     */
    record Completed(String fingerprint, StoredResponse response) implements ClaimResult {
        /**
         * Checks the components.
         *
         * @param fingerprint the completed request's fingerprint
         * @param response its stored response
         */
        public Completed {
            Objects.requireNonNull(fingerprint, "fingerprint");
            Objects.requireNonNull(response, "response");
        }
    }
}
