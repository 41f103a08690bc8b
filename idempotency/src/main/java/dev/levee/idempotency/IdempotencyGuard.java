package dev.levee.idempotency;

import dev.levee.core.Deadline;
import dev.levee.core.RandomSource;
import dev.levee.core.Subscription;
import dev.levee.core.Ticker;
import dev.levee.core.internal.EventListeners;
import dev.levee.core.internal.Nanos;
import dev.levee.core.internal.OutageSwitch;
import dev.levee.core.internal.Validate;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executes a request that carries an idempotency key once, and answers its duplicates without running
 * it again: the server side of a safe retry of a write.
 *
 * <pre>{@code
 * IdempotencyGuard guard = IdempotencyGuard.ofDefaults("charges");
 * IdempotencyResult result = guard.handle(tenantId, idempotencyKey,
 *         new IdempotencyRequest("POST", "/charges", body),
 *         () -> charge(body));                       // runs at most once per (tenant, key)
 * send(result.response());
 * }</pre>
 * For the JDK {@code HttpServer}, wrap the handler in an {@link IdempotencyHttpHandler}.
 *
 * <h2>Model</h2>
 * One record per (scope, key) in an {@link IdempotencyStore}. The first request claims it (with a lease)
 * and runs; the response is stored if final (the store rule) or the key is released if not (and always
 * when the handler throws). A later request with the key gets, without running anything:
 * <table>
 *   <caption>Answers</caption>
 *   <tr><th>the record</th><th>answer</th></tr>
 *   <tr><td>completed, same fingerprint</td><td>the stored response, plus {@code Idempotent-Replayed: true}</td></tr>
 *   <tr><td>in progress, same fingerprint</td><td>409 with {@code Retry-After} = the holder's lease left;
 *       or, with {@code maxWait > 0}, the first request's outcome once it has one</td></tr>
 *   <tr><td>any, different fingerprint</td><td>422</td></tr>
 *   <tr><td>(no or malformed key)</td><td>400</td></tr>
 *   <tr><td>(store down)</td><td>503 ({@link OutagePolicy#FAIL_CLOSED}) or run unguarded ({@link OutagePolicy#FAIL_OPEN})</td></tr>
 * </table>
 * The scope (a tenant, an account, a route) is part of the record key, length-prefixed, so two scopes'
 * keys never collide whatever characters they hold.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>While a record lives, at most one request per (scope, key) runs at a time, and after a final
 *       response none runs again: the store's claim is atomic.</li>
 *   <li>No key is wedged: a claim lapses after its lease (the request's {@link Deadline} if one is
 *       current, else {@code lease}); a completed record after {@code timeToLive}.</li>
 *   <li>A request is never served another request's response: the fingerprint is kept with the record.</li>
 *   <li>Hostile input never throws: a missing, empty, over-long (over {@value #MAX_KEY_LENGTH}) or
 *       non-printable key is a 400 result.</li>
 *   <li>What the handler throws comes out unchanged, after the key is released; an {@link Error} is
 *       never swallowed; an interrupt while waiting ends the wait with 409 and keeps the flag set.</li>
 * </ul>
 *
 * <h2>Waiting for the first outcome</h2>
 * With {@code maxWait > 0}, a duplicate looks at the store again until the record completes, is released
 * (then the duplicate claims and runs itself), its lease lapses (likewise), or the wait ends (the earlier
 * of {@code maxWait} and the current deadline: then 409). Between looks it sleeps on the injected
 * {@link dev.levee.core.Sleeper} for 10 ms doubling to 1 s, never past the holder's lease or its own
 * deadline, so it works with any store. When the first request runs in this guard (always so with an
 * in-memory store) the duplicate is woken the moment it finishes instead.
 *
 * <h2>Knobs</h2>
 * See {@link IdempotencyGuardConfig}.
 *
 * <h2>Cost</h2>
 * A first request: one SHA-256 of the selected parts, one claim and one complete (or release) on the
 * store, a latch and a map entry for local waiters. A replay: one hash and one claim. The store's cost
 * dominates (a Redis round trip each).
 */
public final class IdempotencyGuard {
    private static final Logger LOG = LoggerFactory.getLogger(IdempotencyGuard.class);

    /** The longest key accepted, in characters (Stripe's limit; the IETF draft sets none). */
    public static final int MAX_KEY_LENGTH = 255;
    /** The header a replayed response carries. */
    public static final String REPLAYED_HEADER = "Idempotent-Replayed";
    /** The first pause of a waiting duplicate. */
    static final long MIN_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** The longest pause of a waiting duplicate. */
    static final long MAX_POLL_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** {@code Retry-After} of a 503 while the store is down. */
    static final long STORE_RETRY_AFTER_SECONDS = 1;

    private final String name;
    private final IdempotencyGuardConfig config;
    private final IdempotencyStore store;
    private final Ticker ticker;
    private final RandomSource random;
    private final long leaseNanos;
    private final long maxWaitNanos;
    private final String tokenPrefix;
    private final AtomicLong tokenSequence = new AtomicLong();
    private final EventListeners<IdempotencyGuardEvent> listeners = new EventListeners<>();
    /** Requests running in this guard, by record key: a local duplicate waits on the latch. */
    private final ConcurrentHashMap<String, CountDownLatch> running = new ConcurrentHashMap<>();

    private final OutageSwitch outage = new OutageSwitch();

    private final LongAdder claims = new LongAdder();
    private final LongAdder takeovers = new LongAdder();
    private final LongAdder stored = new LongAdder();
    private final LongAdder released = new LongAdder();
    private final LongAdder replays = new LongAdder();
    private final LongAdder inProgress = new LongAdder();
    private final LongAdder mismatches = new LongAdder();
    private final LongAdder badKeys = new LongAdder();
    private final LongAdder storeUnavailable = new LongAdder();
    private final LongAdder failedOpen = new LongAdder();
    private final LongAdder storeErrors = new LongAdder();

    private IdempotencyGuard(String name, IdempotencyGuardConfig config) {
        this.name = name;
        this.config = config;
        this.ticker = config.ticker();
        this.random = config.random();
        IdempotencyStore configured = config.store();
        this.store = configured != null ? configured : InMemoryIdempotencyStore.builder().ticker(ticker).build();
        this.leaseNanos = Nanos.of(config.lease());
        this.maxWaitNanos = Nanos.of(config.maxWait());
        // 126 random bits per guard, then a sequence: unique across guards and instances sharing a store
        // (unless two are given the same seeded source, which only tests do, for reproducible tokens).
        this.tokenPrefix = String.format("%016x%016x-", random.nextLong(Long.MAX_VALUE), random.nextLong(Long.MAX_VALUE));
    }

    /**
     * A guard with {@code config}.
     *
     * @param name the guard's name, for metrics, events and logs
     * @param config the settings
     * @return the guard
     * @throws dev.levee.core.InvalidConfigException if the name or the config is null or the name blank
     */
    public static IdempotencyGuard of(String name, IdempotencyGuardConfig config) {
        Validate.name("IdempotencyGuard", name);
        Validate.notNull(Validate.describe("IdempotencyGuard", name), "config", config);
        return new IdempotencyGuard(name, config);
    }

    /**
     * A guard with the defaults: its own in-memory store, 24 h replay, 60 s lease, 409 to duplicates of a
     * running request, fail closed.
     *
     * @param name the guard's name
     * @return the guard
     */
    public static IdempotencyGuard ofDefaults(String name) {
        return of(name, IdempotencyGuardConfig.defaults());
    }

    /**
     * Handles one request under the guard: runs {@code handler} if this request claims the key, else
     * answers from the record. Never throws for what the client sent; what {@code handler} throws comes
     * out unchanged (after the key is released).
     *
     * @param scope whose key this is (tenant, account, route); keys of different scopes never collide
     * @param key the client's idempotency key, or null if the request carried none (then 400)
     * @param request what is fingerprinted
     * @param handler the work, run at most once per record
     * @return what the guard did and the response to send
     * @throws Exception whatever {@code handler} throws
     */
    public IdempotencyResult handle(String scope, @Nullable String key, IdempotencyRequest request, GuardedHandler handler)
            throws Exception {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(handler, "handler");
        String problem = keyProblem(key);
        if (problem != null || key == null) {
            return badKey(problem == null ? "missing" : problem);
        }
        String recordKey = recordKey(scope, key);
        String fingerprint = config.checkFingerprint() ? fingerprint(request) : "";
        String owner = tokenPrefix + Long.toHexString(tokenSequence.incrementAndGet());
        Deadline deadline = Deadline.currentOrNull();
        long now = ticker.read();
        long waitUntil = Nanos.add(now, maxWaitNanos);
        if (deadline != null) {
            waitUntil = Math.min(waitUntil, Nanos.add(now, deadline.remainingNanos()));
        }
        long pause = MIN_POLL_NANOS;
        while (true) {
            ClaimResult claim;
            long phase = outage.phase();
            try {
                claim = store.claim(recordKey, fingerprint, owner, lease(deadline));
            } catch (IdempotencyStoreException e) {
                return outage(e, phase, handler);
            }
            storeAnswered(phase);
            if (claim instanceof ClaimResult.Claimed claimed) {
                return execute(recordKey, owner, claimed.tookOverLapsedLease(), handler);
            }
            if (claim instanceof ClaimResult.Completed completed) {
                if (!sameFingerprint(completed.fingerprint(), fingerprint)) {
                    return mismatch();
                }
                return replay(completed.response());
            }
            ClaimResult.InProgress held = (ClaimResult.InProgress) claim;
            if (!sameFingerprint(held.fingerprint(), fingerprint)) {
                return mismatch();
            }
            long leftNanos = Nanos.subtract(waitUntil, ticker.read());
            if (maxWaitNanos == 0 || leftNanos <= 0) {
                return conflict(held.leaseRemaining());
            }
            long sleep = Math.min(pause, leftNanos);
            long leaseLeft = Nanos.of(held.leaseRemaining());
            sleep = Math.max(1_000_000L, Math.min(sleep, leaseLeft)); // look again as the lease lapses
            if (!pauseBeforeLookingAgain(recordKey, sleep)) {
                return conflict(held.leaseRemaining()); // interrupted: the flag is set again
            }
            pause = Math.min(pause * 2, MAX_POLL_NANOS);
        }
    }

    /** Sleeps, or waits for a local executor's finish; false if interrupted (flag restored). */
    private boolean pauseBeforeLookingAgain(String recordKey, long nanos) {
        CountDownLatch local = running.get(recordKey);
        if (local == null) {
            return config.sleeper().sleepRestoringInterrupt(nanos);
        }
        try {
            local.await(nanos, TimeUnit.NANOSECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private Duration lease(@Nullable Deadline deadline) {
        if (deadline == null || !config.leaseFromDeadline()) {
            return config.lease();
        }
        // The request cannot outlive its deadline, so neither need its claim; at least 1 ms so an
        // already-expired deadline still claims (and the handler sees the expired deadline itself).
        return Duration.ofNanos(Math.max(1_000_000L, deadline.remainingNanos()));
    }

    private IdempotencyResult execute(String recordKey, String owner, boolean tookOver, GuardedHandler handler)
            throws Exception {
        claims.increment();
        if (tookOver) {
            takeovers.increment();
        }
        if (!listeners.isEmpty()) {
            listeners.publish(new IdempotencyGuardEvent.Claimed(name, ticker.read(), tookOver));
        }
        CountDownLatch done = new CountDownLatch(1);
        running.put(recordKey, done);
        try {
            StoredResponse response;
            try {
                response = handler.handle();
            } catch (Throwable t) {
                releaseQuietly(recordKey, owner, "exception");
                throw t;
            }
            if (response == null) {
                releaseQuietly(recordKey, owner, "null response");
                throw new NullPointerException("IdempotencyGuard '" + name + "': the handler returned null");
            }
            boolean kept = finish(recordKey, owner, response);
            return new IdempotencyResult(IdempotencyResult.Kind.EXECUTED, response, kept);
        } finally {
            running.remove(recordKey, done);
            done.countDown();
        }
    }

    /** Stores a final response or releases the key; true if stored. Store failures are logged, not thrown. */
    private boolean finish(String recordKey, String owner, StoredResponse response) {
        boolean isFinal;
        try {
            isFinal = config.storeRule().test(response);
        } catch (RuntimeException e) {
            LOG.warn("IdempotencyGuard '{}': the store rule threw; the key is released", name, e);
            isFinal = false;
        }
        if (!isFinal) {
            releaseQuietly(recordKey, owner, "status " + response.status());
            return false;
        }
        long phase = outage.phase();
        try {
            boolean ok = store.complete(recordKey, owner, keptPart(response), config.timeToLive());
            storeAnswered(phase);
            if (ok) {
                stored.increment();
                if (!listeners.isEmpty()) {
                    listeners.publish(new IdempotencyGuardEvent.Stored(name, ticker.read(), response.status()));
                }
            } else {
                LOG.debug("IdempotencyGuard '{}': the lease lapsed before the response was stored", name);
            }
            return ok;
        } catch (ResponseTooLargeException e) {
            // The store answered (it is up): not an outage. The caller still gets the response.
            storeErrors.increment();
            LOG.warn("IdempotencyGuard '{}': the store keeps responses of at most {} bytes and this one takes {}; "
                    + "not stored, the claim lapses with its lease", name, e.max(), e.size());
            return false;
        } catch (IdempotencyStoreException e) {
            storeFailed(e, phase);
            return false; // the claim lapses with its lease; a retry then runs again
        }
    }

    private void releaseQuietly(String recordKey, String owner, String reason) {
        released.increment();
        if (!listeners.isEmpty()) {
            listeners.publish(new IdempotencyGuardEvent.Released(name, ticker.read(), reason));
        }
        long phase = outage.phase();
        try {
            store.release(recordKey, owner);
            storeAnswered(phase);
        } catch (IdempotencyStoreException e) {
            storeFailed(e, phase);
        } catch (RuntimeException e) {
            LOG.warn("IdempotencyGuard '{}': the store failed to release a key; it frees itself with its lease", name, e);
        }
    }

    private StoredResponse keptPart(StoredResponse response) {
        Map<String, List<String>> kept = new LinkedHashMap<>();
        response.headers().forEach((header, values) -> {
            if (config.storedHeaders().contains(header)) {
                kept.put(header, values);
            }
        });
        return kept.size() == response.headers().size() ? response : StoredResponse.of(response.status(), kept, response.body());
    }

    private IdempotencyResult replay(StoredResponse response) {
        replays.increment();
        if (!listeners.isEmpty()) {
            listeners.publish(new IdempotencyGuardEvent.Replayed(name, ticker.read(), response.status()));
        }
        Map<String, List<String>> headers = new LinkedHashMap<>(response.headers());
        headers.put(REPLAYED_HEADER, List.of("true"));
        return new IdempotencyResult(IdempotencyResult.Kind.REPLAYED,
                StoredResponse.of(response.status(), headers, response.body()), false);
    }

    private IdempotencyResult conflict(Duration leaseRemaining) {
        inProgress.increment();
        long seconds = Math.max(1, (Nanos.of(leaseRemaining) + 999_999_999L) / 1_000_000_000L);
        return refusal(IdempotencyResult.Kind.IN_PROGRESS, "in_progress", 409, seconds,
                "A request with this Idempotency-Key is still being processed; retry after " + seconds + " s.");
    }

    private IdempotencyResult mismatch() {
        mismatches.increment();
        return refusal(IdempotencyResult.Kind.MISMATCH, "mismatch", 422, -1,
                "This Idempotency-Key was already used with a different request.");
    }

    /**
     * The 400 answer for a missing or malformed key (also used by the HTTP adapter for repeated headers).
     *
     * @param problem what is wrong with the key
     * @return the result
     */
    IdempotencyResult badKey(String problem) {
        badKeys.increment();
        return refusal(IdempotencyResult.Kind.BAD_KEY, "bad_key", 400, -1, "Idempotency-Key " + problem + ".");
    }

    private IdempotencyResult refusal(IdempotencyResult.Kind kind, String tag, int status, long retryAfterSeconds,
            String message) {
        if (!listeners.isEmpty()) {
            listeners.publish(new IdempotencyGuardEvent.Rejected(name, ticker.read(), tag, status));
        }
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("content-type", List.of("text/plain; charset=utf-8"));
        if (retryAfterSeconds > 0) {
            headers.put("retry-after", List.of(Long.toString(retryAfterSeconds)));
        }
        return new IdempotencyResult(kind, StoredResponse.of(status, headers, message.getBytes(StandardCharsets.UTF_8)), false);
    }

    private IdempotencyResult outage(IdempotencyStoreException e, long phase, GuardedHandler handler) throws Exception {
        storeFailed(e, phase);
        if (config.outagePolicy() == OutagePolicy.FAIL_CLOSED) {
            storeUnavailable.increment();
            return refusal(IdempotencyResult.Kind.STORE_UNAVAILABLE, "store_unavailable", 503, STORE_RETRY_AFTER_SECONDS,
                    "The idempotency store is unavailable; retry with the same Idempotency-Key.");
        }
        failedOpen.increment();
        StoredResponse response = handler.handle();
        if (response == null) {
            throw new NullPointerException("IdempotencyGuard '" + name + "': the handler returned null");
        }
        return new IdempotencyResult(IdempotencyResult.Kind.FAILED_OPEN, response, false);
    }

    /** A store call that started in {@code phase} failed; switches to the outage once (see {@link OutageSwitch}). */
    private void storeFailed(IdempotencyStoreException e, long phase) {
        storeErrors.increment();
        long now = ticker.read();
        if (outage.outageBegan(phase, now)) {
            LOG.warn("IdempotencyGuard '{}': the idempotency store is unavailable ({}); {} until it answers again",
                    name, e.getMessage(), config.outagePolicy() == OutagePolicy.FAIL_CLOSED
                            ? "keyed requests are refused with 503" : "keyed requests run without a record");
            if (!listeners.isEmpty()) {
                listeners.publish(new IdempotencyGuardEvent.OutageBegan(name, now, config.outagePolicy(), String.valueOf(e.getMessage())));
            }
        }
    }

    /** A store call that started in {@code phase} got an answer; ends the outage once, if one was on. */
    private void storeAnswered(long phase) {
        if (!OutageSwitch.inOutage(phase)) {
            return; // started while the store answered: nothing to switch, no clock to read
        }
        long now = ticker.read();
        long lasted = outage.storeAnswered(phase, now);
        if (lasted >= 0) {
            LOG.warn("IdempotencyGuard '{}': the idempotency store answers again after {} ms", name,
                    TimeUnit.NANOSECONDS.toMillis(lasted));
            if (!listeners.isEmpty()) {
                listeners.publish(new IdempotencyGuardEvent.OutageEnded(name, now, lasted));
            }
        }
    }

    private boolean sameFingerprint(String recorded, String mine) {
        return !config.checkFingerprint() || recorded.equals(mine);
    }

    /**
     * What is wrong with a client's key, or null if it is acceptable: 1 to {@value #MAX_KEY_LENGTH}
     * characters, each printable ASCII ({@code 0x20} to {@code 0x7e}; the IETF draft's key is a
     * structured-field string, which allows exactly those).
     *
     * @param key the key as received, or null
     * @return the problem, or null
     */
    static @Nullable String keyProblem(@Nullable String key) {
        if (key == null) {
            return "missing";
        }
        if (key.isEmpty()) {
            return "is empty";
        }
        if (key.length() > MAX_KEY_LENGTH) {
            return "is longer than " + MAX_KEY_LENGTH + " characters";
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return "contains a character outside printable ASCII at position " + i;
            }
        }
        return null;
    }

    /** The store's key: the scope, length-prefixed so that no scope's key can pose as another's. */
    static String recordKey(String scope, String key) {
        return scope.length() + ":" + scope + ":" + key;
    }

    /**
     * The request's fingerprint: SHA-256 over the selected parts, each length-prefixed, as hex.
     *
     * @param request the request
     * @return 64 hex digits
     */
    String fingerprint(IdempotencyRequest request) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
        for (FingerprintPart part : FingerprintPart.values()) {
            if (!config.fingerprintParts().contains(part)) {
                continue;
            }
            byte[] bytes = switch (part) {
                case METHOD -> request.method().getBytes(StandardCharsets.UTF_8);
                case PATH -> request.path().getBytes(StandardCharsets.UTF_8);
                case BODY -> request.body();
            };
            sha.update((byte) part.ordinal());
            sha.update(lengthPrefix(bytes.length));
            sha.update(bytes);
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static byte[] lengthPrefix(int length) {
        return new byte[] {(byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8), (byte) length};
    }

    /**
     * Registers a listener for this guard's events.
     *
     * @param listener receives every event published after this call
     * @return a subscription that removes the listener
     */
    public Subscription onEvent(Consumer<? super IdempotencyGuardEvent> listener) {
        return listeners.subscribe(listener);
    }

    /**
     * A snapshot of the counters.
     *
     * @return the metrics
     */
    public IdempotencyGuardMetrics metrics() {
        return new IdempotencyGuardMetrics(claims.sum(), takeovers.sum(), stored.sum(), released.sum(), replays.sum(),
                inProgress.sum(), mismatches.sum(), badKeys.sum(), storeUnavailable.sum(), failedOpen.sum(),
                storeErrors.sum(), outage.available());
    }

    /**
     * The guard's name.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The guard's settings.
     *
     * @return the config
     */
    public IdempotencyGuardConfig config() {
        return config;
    }

    /**
     * The store the records live in (the configured one, or this guard's own in-memory store).
     *
     * @return the store
     */
    public IdempotencyStore store() {
        return store;
    }

    @Override
    public String toString() {
        return "IdempotencyGuard[" + name + ", " + config + "]";
    }
}
