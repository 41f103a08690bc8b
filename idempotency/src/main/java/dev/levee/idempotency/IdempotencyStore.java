package dev.levee.idempotency;

import java.time.Duration;

/**
 * Where an idempotency guard keeps its records: one record per scoped idempotency key, created by the
 * first request that carries the key and read by every duplicate.
 *
 * <h2>Model</h2>
 * A record is either <em>in progress</em> (a request claimed the key and is executing; the claim is
 * held by an owner token and lapses after a lease) or <em>completed</em> (the executor stored its
 * response; the record lives for a time to live). No record, or an in-progress record whose lease has
 * lapsed, means the key is free: the next {@link #claim} takes it.
 *
 * <pre>
 *            claim (free)                 complete (owner)
 *   [none] ───────────────▶ IN_PROGRESS ───────────────────▶ COMPLETED ──(ttl)──▶ [none]
 *      ▲                      │     │
 *      └── release (owner) ───┘     └──(lease lapses)──▶ free: the next claim takes it over
 * </pre>
 *
 * <h2>Guarantees every implementation gives</h2>
 * <ul>
 *   <li>{@link #claim} is atomic: of any number of concurrent claims of a free key, exactly one
 *       returns {@link ClaimResult.Claimed}; the others see the winner's record.</li>
 *   <li>{@link #complete} and {@link #release} act only when the given owner token still holds the
 *       claim (an executor whose lease lapsed and was taken over cannot overwrite or delete the new
 *       owner's record); they return whether they acted.</li>
 *   <li>Every record expires: an in-progress record when its lease lapses, a completed one after its
 *       time to live. A key can never be wedged forever by a crashed executor.</li>
 *   <li>The fingerprint given to the winning claim is kept with the record and returned to every
 *       later claim, so the guard can refuse a reused key with a different request.</li>
 * </ul>
 * A store that cannot reach its backing service throws {@link IdempotencyStoreException}; the guard
 * then applies its outage policy. Implementations: the bounded in-memory store of this module and the
 * Redis store of {@code levee-redis}.
 */
public interface IdempotencyStore {

    /**
     * Claims {@code recordKey} for {@code ownerToken} if the key is free (no record, or an in-progress
     * record whose lease has lapsed); otherwise returns the existing record.
     *
     * @param recordKey the scoped key (the guard's scope and the client's key), never empty
     * @param fingerprint the request's fingerprint, kept with the record (empty when the guard does not
     *     check fingerprints)
     * @param ownerToken a token unique to this execution; {@link #complete} and {@link #release} must
     *     present it
     * @param lease how long the claim holds without completing; positive
     * @return {@link ClaimResult.Claimed} if this call took the key, else the record found
     * @throws IdempotencyStoreException if the backing service cannot be reached or answers garbage
     */
    ClaimResult claim(String recordKey, String fingerprint, String ownerToken, Duration lease);

    /**
     * Stores {@code response} as the completed record of {@code recordKey}, for {@code timeToLive}, if
     * {@code ownerToken} still holds the claim.
     *
     * @param recordKey the key claimed
     * @param ownerToken the token the claim was made with
     * @param response the response to replay to duplicates
     * @param timeToLive how long the completed record lives; positive
     * @return {@code true} if stored; {@code false} if the claim was no longer this owner's (its lease
     *     lapsed and another request took the key over, or the record expired)
     * @throws ResponseTooLargeException if the response is larger than the store keeps (nothing stored;
     *     the store is up)
     * @throws IdempotencyStoreException if the backing service cannot be reached
     */
    boolean complete(String recordKey, String ownerToken, StoredResponse response, Duration timeToLive);

    /**
     * Deletes the in-progress record of {@code recordKey} if {@code ownerToken} still holds the claim,
     * so that a retry of a transiently failed request can execute.
     *
     * @param recordKey the key claimed
     * @param ownerToken the token the claim was made with
     * @return {@code true} if the record was deleted; {@code false} if it was no longer this owner's
     * @throws IdempotencyStoreException if the backing service cannot be reached
     */
    boolean release(String recordKey, String ownerToken);
}
