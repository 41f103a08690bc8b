package dev.levee.redis.idempotency;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.core.Subscription;
import dev.levee.core.Ticker;
import dev.levee.core.internal.EventListeners;
import dev.levee.core.internal.OutageSwitch;
import dev.levee.core.internal.Validate;
import dev.levee.idempotency.ClaimResult;
import dev.levee.idempotency.IdempotencyStore;
import dev.levee.idempotency.IdempotencyStoreException;
import dev.levee.idempotency.ResponseTooLargeException;
import dev.levee.idempotency.StoredResponse;
import dev.levee.redis.internal.RedisScript;
import dev.levee.redis.internal.ScriptRunner;
import dev.levee.redis.internal.StoreException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link IdempotencyStore} in Redis, for a service on many instances: every instance's guard sees
 * the same records, so a duplicate that reaches another instance is still recognised.
 *
 * <p><b>Model.</b> One Redis hash per record, at {@code keyPrefix + recordKey}. Each operation is one
 * Lua script, atomic on the server, and one round trip ({@code EVALSHA}; after a {@code NOSCRIPT} —
 * a {@code SCRIPT FLUSH}, a restart, a failover — {@code EVAL} with the source, which also reloads it):
 * <ul>
 *   <li>{@link #claim}: if there is no record, or an in-progress record whose lease has lapsed, writes
 *       an in-progress record (fingerprint, owner token, lease deadline) and answers
 *       {@link ClaimResult.Claimed}; otherwise answers the record found in the same round trip
 *       ({@link ClaimResult.InProgress} with the lease left, or {@link ClaimResult.Completed} with the
 *       stored response), so a replay costs one round trip;</li>
 *   <li>{@link #complete}: if the record is still in progress under the caller's owner token, replaces
 *       it by the completed record (fingerprint and response) with the time to live;</li>
 *   <li>{@link #release}: if the record is still in progress under the caller's owner token, deletes it.</li>
 * </ul>
 * The lease is decided against the Redis server's clock ({@code TIME}), so the instances' clocks play no
 * part. Every key has a TTL: an in-progress record's key expires at twice its lease (the second lease only
 * lets a claim tell a takeover from a free key: {@code Claimed(tookOverLapsedLease = true)}), a completed
 * one after its time to live. The response is kept in Levee's compact binary encoding (status, the kept
 * headers, the body bytes as given; see the user guide {@code docs/redis.md}), which is why the store
 * takes a connection with {@code byte[]} keys and values ({@code client.connect(ByteArrayCodec.INSTANCE)}).
 *
 * <p><b>Guarantees.</b> Those of {@link IdempotencyStore}, across any number of instances sharing one
 * Redis (or one Redis Cluster: a record is one key): of concurrent claims of a free key exactly one
 * wins; complete and release act only for the owner that holds the claim (an executor whose lease
 * lapsed and was taken over cannot overwrite or delete the new owner's record; one whose lease lapsed
 * with nobody taking over may still complete); no key lives without a TTL. Every call is bounded by
 * {@code callTimeout} (both round trips of a reload included). A timeout, a failed connection, an error
 * from the server or an answer the store cannot read throws {@link IdempotencyStoreException}, which the
 * guard turns into its outage policy (fail closed with 503 by default); failures are counted by a
 * {@link CircuitBreaker} around the store, and while it is open calls throw at once without a round
 * trip (it lets one probe through after its {@code waitDurationInOpen}). The switch to and from an
 * outage is logged at WARN once each way and published as a {@link RedisIdempotencyStoreEvent} — the
 * shared limits' rules. An interrupt while waiting for Redis throws {@link IdempotencyStoreException}
 * with the interrupt flag kept set; an {@link Error} is never swallowed.
 *
 * <p><b>Knobs</b>: {@link RedisIdempotencyStoreConfig} (key prefix, call timeout, largest response,
 * breaker). The lease and the time to live come with each call, from the guard's config.
 *
 * <p><b>Cost.</b> One round trip per operation (tens of microseconds on a local network; the scripts
 * a few microseconds of server time), so a first request costs two (claim, complete) and a replay one;
 * plus the client's allocations for the command and the response's copy. Thread-safe; the connection is
 * the user's, shared, and never closed by the store.
 */
public final class RedisIdempotencyStore implements IdempotencyStore {
    private static final Logger LOG = LoggerFactory.getLogger(RedisIdempotencyStore.class);
    private static final byte[] ZERO = {'0'};
    /** The longest lease or time to live sent to Redis, in ms (about 34 years): keeps {@code PEXPIRE} in range. */
    static final long MAX_MILLIS = 1L << 40;

    private final String name;
    private final RedisIdempotencyStoreConfig config;
    private final byte[] prefix;
    private final ScriptRunner<byte[], byte[]> runner;
    private final CircuitBreaker breaker;
    private final OutageSwitch outage = new OutageSwitch();
    private final EventListeners<RedisIdempotencyStoreEvent> events = new EventListeners<>();
    private final LongAdder roundTrips = new LongAdder();
    private final LongAdder storeErrors = new LongAdder();
    private final LongAdder claimed = new LongAdder();
    private final LongAdder takeovers = new LongAdder();
    private final LongAdder inProgress = new LongAdder();
    private final LongAdder completedFound = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder released = new LongAdder();
    private final LongAdder lostClaims = new LongAdder();
    /** Milliseconds added to the server's clock by the claim script: always "0" except in this module's tests. */
    private volatile byte[] clockShift = ZERO;

    private RedisIdempotencyStore(String name, RedisIdempotencyStoreConfig config, RedisScriptingAsyncCommands<byte[], byte[]> commands) {
        this.name = name;
        this.config = config;
        this.prefix = config.keyPrefix().getBytes(StandardCharsets.UTF_8);
        this.runner = new ScriptRunner<>(commands, config.callTimeoutNanos());
        this.breaker = CircuitBreaker.of(name + ".store", config.storeBreaker());
    }

    /**
     * Creates a store on a Redis connection with {@code byte[]} keys and values
     * ({@code client.connect(ByteArrayCodec.INSTANCE)}). The connection stays the caller's: the store
     * never closes it and creates no other.
     *
     * @param name the store's name (logs, events, metrics, the breaker); not blank
     * @param config the config
     * @param connection a connection with {@code byte[]} keys and values
     * @return a new store
     * @throws dev.levee.core.InvalidConfigException if the name is blank or an argument null
     */
    public static RedisIdempotencyStore of(String name, RedisIdempotencyStoreConfig config,
            StatefulRedisConnection<byte[], byte[]> connection) {
        Validate.notNull(RedisIdempotencyStoreConfig.POLICY, "connection", connection);
        return of(name, config, connection.async());
    }

    /**
     * Creates a store on a Redis Cluster connection with {@code byte[]} keys and values (a record is one
     * key, so it lives in one slot).
     *
     * @param name the store's name; not blank
     * @param config the config
     * @param connection a cluster connection with {@code byte[]} keys and values
     * @return a new store
     * @throws dev.levee.core.InvalidConfigException if the name is blank or an argument null
     */
    public static RedisIdempotencyStore of(String name, RedisIdempotencyStoreConfig config,
            StatefulRedisClusterConnection<byte[], byte[]> connection) {
        Validate.notNull(RedisIdempotencyStoreConfig.POLICY, "connection", connection);
        return of(name, config, connection.async());
    }

    /**
     * Creates a store on any Lettuce command interface that runs scripts, with {@code byte[]} keys and
     * values.
     *
     * @param name the store's name; not blank
     * @param config the config
     * @param commands the scripting commands of the caller's connection
     * @return a new store
     * @throws dev.levee.core.InvalidConfigException if the name is blank or an argument null
     */
    public static RedisIdempotencyStore of(String name, RedisIdempotencyStoreConfig config,
            RedisScriptingAsyncCommands<byte[], byte[]> commands) {
        String checked = Validate.name(RedisIdempotencyStoreConfig.POLICY, name);
        Validate.notNull(RedisIdempotencyStoreConfig.POLICY, "config", config);
        Validate.notNull(RedisIdempotencyStoreConfig.POLICY, "commands", commands);
        return new RedisIdempotencyStore(checked, config, commands);
    }

    /**
     * Creates a store with the default config.
     *
     * @param name the store's name; not blank
     * @param connection a connection with {@code byte[]} keys and values
     * @return a new store
     * @throws dev.levee.core.InvalidConfigException if the name is blank or an argument null
     */
    public static RedisIdempotencyStore ofDefaults(String name, StatefulRedisConnection<byte[], byte[]> connection) {
        return of(name, RedisIdempotencyStoreConfig.defaults(), connection);
    }

    /**
     * The store's name.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The config.
     *
     * @return the config
     */
    public RedisIdempotencyStoreConfig config() {
        return config;
    }

    /**
     * The Redis key of a record.
     *
     * @param recordKey the record key the guard uses
     * @return {@code keyPrefix + recordKey}
     */
    public String key(String recordKey) {
        return config.keyPrefix() + recordKey;
    }

    /**
     * The circuit breaker around Redis (to observe it, or to force it open for maintenance).
     *
     * @return the breaker
     */
    public CircuitBreaker storeBreaker() {
        return breaker;
    }

    /**
     * Whether Redis answers now (false during an outage).
     *
     * @return true when the last call to Redis succeeded
     */
    public boolean storeAvailable() {
        return outage.available();
    }

    @Override
    public ClaimResult claim(String recordKey, String fingerprint, String ownerToken, Duration lease) {
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(ownerToken, "ownerToken");
        byte[][] keys = {keyBytes(recordKey)};
        byte[][] args = {utf8(fingerprint), utf8(ownerToken), millis("lease", lease), clockShift};
        List<Object> r = ask("claim", RedisScript.idempotencyClaim(), ScriptOutputType.MULTI, keys, args);
        try {
            long kind = (Long) r.get(0);
            if (kind == 0) {
                claimed.increment();
                boolean tookOver = (Long) r.get(1) == 1L;
                if (tookOver) {
                    takeovers.increment();
                }
                return new ClaimResult.Claimed(tookOver);
            }
            String found = new String((byte[]) Objects.requireNonNull(r.get(1)), StandardCharsets.UTF_8);
            if (kind == 1) {
                inProgress.increment();
                return new ClaimResult.InProgress(found, Duration.ofMillis((Long) r.get(2)));
            }
            if (kind == 2) {
                StoredResponse response = ResponseCodec.decode((byte[]) Objects.requireNonNull(r.get(2)));
                completedFound.increment();
                return new ClaimResult.Completed(found, response);
            }
        } catch (RuntimeException e) {
            throw garbage("claim", r, e);
        }
        throw garbage("claim", r, null);
    }

    @Override
    public boolean complete(String recordKey, String ownerToken, StoredResponse response, Duration timeToLive) {
        Objects.requireNonNull(ownerToken, "ownerToken");
        Objects.requireNonNull(response, "response");
        byte[] key = keyBytes(recordKey);
        byte[] ttl = millis("timeToLive", timeToLive);
        byte[] encoded = ResponseCodec.encode(response);
        if (encoded.length > config.maxResponseBytes()) {
            throw new ResponseTooLargeException("RedisIdempotencyStore '" + name + "': the response to store takes "
                    + encoded.length + " bytes, over maxResponseBytes " + config.maxResponseBytes()
                    + "; nothing was stored", encoded.length, config.maxResponseBytes());
        }
        boolean done = answer(ask("complete", RedisScript.idempotencyComplete(), ScriptOutputType.INTEGER,
                new byte[][] {key}, new byte[][] {utf8(ownerToken), encoded, ttl}), "complete");
        (done ? completed : lostClaims).increment();
        return done;
    }

    @Override
    public boolean release(String recordKey, String ownerToken) {
        Objects.requireNonNull(ownerToken, "ownerToken");
        boolean done = answer(ask("release", RedisScript.idempotencyRelease(), ScriptOutputType.INTEGER,
                new byte[][] {keyBytes(recordKey)}, new byte[][] {utf8(ownerToken)}), "release");
        (done ? released : lostClaims).increment();
        return done;
    }

    private boolean answer(@Nullable Object r, String operation) {
        if (r instanceof Long n && (n == 0L || n == 1L)) {
            return n == 1L;
        }
        throw garbage(operation, r, null);
    }

    /**
     * One script through the breaker, bounded by the call timeout.
     *
     * @throws IdempotencyStoreException if the breaker is open, or the call failed, timed out or was interrupted
     */
    private <T> T ask(String operation, RedisScript script, ScriptOutputType type, byte[][] keys, byte[][] args) {
        Ticker ticker = breaker.ticker();
        long startPhase = outage.phase();
        long now = ticker.read();
        if (!breaker.tryAcquire(now)) {
            storeErrors.increment();
            outageBegan(startPhase, now, "the store's circuit breaker is open");
            throw new IdempotencyStoreException("RedisIdempotencyStore '" + name + "': " + operation
                    + " refused: the circuit breaker around Redis is open", new IllegalStateException("circuit breaker open"));
        }
        T answer;
        try {
            answer = runner.run(script, type, keys, args);
        } catch (StoreException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            long end = ticker.read();
            breaker.onFailure(end - now, cause);
            storeErrors.increment();
            outageBegan(startPhase, end, cause.toString());
            throw new IdempotencyStoreException("RedisIdempotencyStore '" + name + "': " + operation + " failed: " + cause, cause);
        } catch (InterruptedException e) {
            breaker.onIgnored();
            Thread.currentThread().interrupt();
            throw new IdempotencyStoreException("RedisIdempotencyStore '" + name + "': interrupted while waiting for Redis ("
                    + operation + ")", e);
        } catch (RuntimeException | Error e) {
            breaker.onIgnored();
            throw e;
        }
        long end = ticker.read();
        breaker.onSuccess(end - now);
        roundTrips.increment();
        long lasted = outage.storeAnswered(startPhase, end);
        if (lasted >= 0) {
            LOG.warn("RedisIdempotencyStore '{}': Redis answers again after {} ms", name, lasted / 1_000_000L);
            if (!events.isEmpty()) {
                events.publish(new RedisIdempotencyStoreEvent.OutageEnded(name, end, lasted));
            }
        }
        return answer;
    }

    private void outageBegan(long startPhase, long now, String cause) {
        if (outage.outageBegan(startPhase, now)) {
            LOG.warn("RedisIdempotencyStore '{}': Redis is unavailable ({}); store calls fail and the guard's outage "
                    + "policy applies until it answers again", name, cause);
            if (!events.isEmpty()) {
                events.publish(new RedisIdempotencyStoreEvent.OutageBegan(name, now, cause));
            }
        }
    }

    private IdempotencyStoreException garbage(String operation, @Nullable Object answer, @Nullable RuntimeException cause) {
        storeErrors.increment();
        String message = "RedisIdempotencyStore '" + name + "': unexpected answer to " + operation + ": " + answer;
        return new IdempotencyStoreException(message, cause != null ? cause : new IllegalStateException(message));
    }

    private byte[] keyBytes(String recordKey) {
        Objects.requireNonNull(recordKey, "recordKey");
        if (recordKey.isEmpty()) {
            throw new IllegalArgumentException("recordKey must not be empty");
        }
        byte[] k = utf8(recordKey);
        byte[] key = new byte[prefix.length + k.length];
        System.arraycopy(prefix, 0, key, 0, prefix.length);
        System.arraycopy(k, 0, key, prefix.length, k.length);
        return key;
    }

    /** A positive duration in whole milliseconds, rounded up, at most {@link #MAX_MILLIS}, as ASCII. */
    static byte[] millis(String what, Duration d) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive but was " + d);
        }
        long ms = d.compareTo(Duration.ofMillis(MAX_MILLIS)) >= 0 ? MAX_MILLIS
                : d.toMillis() + (d.minusMillis(d.toMillis()).isZero() ? 0 : 1);
        return Long.toString(Math.max(1L, ms)).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Registers a listener for the switches between Redis answering and an outage.
     *
     * @param listener the listener; runs on the calling thread and must be fast
     * @return closing it unregisters the listener
     */
    public Subscription onEvent(Consumer<? super RedisIdempotencyStoreEvent> listener) {
        return events.subscribe(listener);
    }

    /**
     * A snapshot of the store's counters. Allocates; for monitoring.
     *
     * @return the snapshot
     */
    public RedisIdempotencyStoreMetrics metrics() {
        return new RedisIdempotencyStoreMetrics(storeAvailable(), breaker.state(), roundTrips.sum(), storeErrors.sum(),
                runner.reloads(), claimed.sum(), takeovers.sum(), inProgress.sum(), completedFound.sum(), completed.sum(),
                released.sum(), lostClaims.sum());
    }

    /**
     * Test hook: shifts the clock the claim script reads by {@code millis} (the server's {@code TIME}
     * plus this), so a test can let a lease lapse on a real server without waiting. Package-private;
     * never used outside tests.
     *
     * @param millis the shift
     */
    void shiftServerClock(long millis) {
        clockShift = Long.toString(millis).getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public String toString() {
        return "RedisIdempotencyStore[" + name + ", keyPrefix=" + config.keyPrefix() + ", available=" + storeAvailable() + "]";
    }
}
