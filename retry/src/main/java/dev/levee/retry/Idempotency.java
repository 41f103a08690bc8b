package dev.levee.retry;

/**
 * Whether an operation may be repeated, as a {@link Retry} (or a {@link Hedge}) is told in its config
 * ({@link RetryConfig.Builder#idempotency}). Seeds 000, 001 and 003 give the rule: retry only
 * idempotent operations, or carry an idempotency key so that a repeated write is recognised by the
 * server instead of executed twice ("a retried charge without an idempotency key is a double charge").
 *
 * <table>
 *   <caption>The three declarations</caption>
 *   <tr><th>value</th><th>for</th><th>what the retry does</th></tr>
 *   <tr><td>{@link #IDEMPOTENT} (the default)</td><td>reads, {@code PUT} of a whole resource,
 *       {@code DELETE} by id</td><td>repeats the call freely; makes no key</td></tr>
 *   <tr><td>{@link #KEYED}</td><td>a write the server deduplicates by key ({@code POST /charges} with
 *       {@code Idempotency-Key})</td><td>makes one key per logical call before the first attempt (or
 *       takes the one already current: the caller's own, or an outer keyed layer's) and keeps it
 *       current for every attempt and hedge; refuses to repeat a call that has no key</td></tr>
 *   <tr><td>{@link #NOT_IDEMPOTENT}</td><td>a write nothing deduplicates</td><td>never repeats it:
 *       {@code build()} refuses more than one attempt</td></tr>
 * </table>
 *
 * <p>Levee cannot see whether a call is idempotent; the default keeps the behaviour every retry library
 * has (and Levee had): the call is assumed repeatable. Declare writes.
 */
public enum Idempotency {
    /** Repeating the call is harmless: it is retried (and hedged) freely, without a key. */
    IDEMPOTENT,
    /**
     * The call is made repeatable by an idempotency key: every attempt of one logical call carries the
     * same key ({@link dev.levee.core.IdempotencyKey#current()}), made by the retry's
     * {@link IdempotencyKeyGenerator} unless one is already current. A call with no key (the generator
     * made none, e.g. {@link IdempotencyKeyGenerator#callerSupplied()}, and the caller attached none) is
     * not repeated: its first failure is returned, refused with {@link GiveUpReason#NO_IDEMPOTENCY_KEY}.
     */
    KEYED,
    /** The call must not be repeated and carries no key: a config with more than one attempt is refused. */
    NOT_IDEMPOTENT
}
