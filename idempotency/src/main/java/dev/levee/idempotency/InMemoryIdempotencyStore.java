package dev.levee.idempotency;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.KeyedRegistry;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Nanos;
import dev.levee.core.internal.Validate;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * A bounded {@link IdempotencyStore} in this process's memory, for a service that runs on one instance
 * (or whose load balancer pins a client to one instance). For many instances use the Redis store of
 * {@code levee-redis}.
 *
 * <h2>Model</h2>
 * One slot per record key in a core {@link KeyedRegistry} (at most {@code maxEntries} slots, CLOCK
 * eviction, idle slots swept). Each slot holds one immutable record in an {@link AtomicReference}:
 * none, in progress (fingerprint, owner token, lease end) or completed (fingerprint, response, expiry).
 * {@link #claim}, {@link #complete} and {@link #release} are each one compare-and-set on that
 * reference; a record past its lease or its time to live reads as none.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>Exactly one of any number of concurrent claims of a free key wins (one CAS from the record it
 *       read). A slot evicted while a claim was in flight is detected and the claim retried on the new
 *       slot, so two claims never win on two slots of one key.</li>
 *   <li>Only the owner token completes or releases a claim.</li>
 *   <li>Never more than {@code maxEntries} records. The bound wins over exactly-once: when more keys
 *       are live than {@code maxEntries}, the least recently used record is evicted and a duplicate of
 *       its key executes again. Size {@code maxEntries} above the number of keyed requests per time to
 *       live (100 requests/s for 24 h is 8.64 million records), or shorten the guard's TTL.</li>
 * </ul>
 *
 * <h2>Knobs</h2>
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>setting</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code maxEntries}</td><td>{@value #DEFAULT_MAX_ENTRIES}</td><td>records kept at most</td></tr>
 *   <tr><td>{@code idleTimeout}</td><td>25 h ({@link #DEFAULT_IDLE_TIMEOUT})</td><td>a slot untouched this
 *       long is dropped first; keep it above the guard's time to live</td></tr>
 *   <tr><td>{@code ticker}</td><td>{@link Ticker#system()}</td><td>time for leases and expiry</td></tr>
 * </table>
 *
 * <h2>Cost</h2>
 * A claim of a present key: one map lookup, one clock read, one CAS and one small record. Memory per
 * record: the response (status, kept headers, body) plus about 150 bytes (slot, record, registry entry).
 */
public final class InMemoryIdempotencyStore implements IdempotencyStore {
    /** Default bound on records: {@value}. */
    public static final int DEFAULT_MAX_ENTRIES = 100_000;
    /** Default idle timeout of a slot: 25 hours, above the guard's default time to live of 24 h. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofHours(25);

    private static final String POLICY = "InMemoryIdempotencyStore";

    private final KeyedRegistry<String, Slot> slots;
    private final Ticker ticker;

    private InMemoryIdempotencyStore(int maxEntries, Duration idleTimeout, Ticker ticker) {
        this.ticker = ticker;
        this.slots = KeyedRegistry.builder(POLICY)
                .maxEntries(maxEntries)
                .idleTimeout(idleTimeout)
                .ticker(ticker)
                .build(key -> new Slot());
    }

    /**
     * A store with the defaults on the system ticker.
     *
     * @return the store
     */
    public static InMemoryIdempotencyStore create() {
        return builder().build();
    }

    /**
     * Starts a store.
     *
     * @return a builder with the defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    /* Records are immutable; a slot's reference moves between them by CAS only. */
    private sealed interface Rec permits Running, Done {
        long endsAtNanos();
    }

    private record Running(String fingerprint, String owner, long endsAtNanos) implements Rec {}

    private record Done(String fingerprint, StoredResponse response, long endsAtNanos) implements Rec {}

    /** One key's cell. Created empty by the registry; never removed except by eviction. */
    private static final class Slot {
        final AtomicReference<@Nullable Rec> record = new AtomicReference<>();
    }

    private static boolean live(@Nullable Rec rec, long now) {
        return rec != null && now - rec.endsAtNanos() < 0;
    }

    @Override
    public ClaimResult claim(String recordKey, String fingerprint, String ownerToken, Duration lease) {
        Objects.requireNonNull(recordKey, "recordKey");
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(ownerToken, "ownerToken");
        long leaseNanos = Nanos.of(lease);
        while (true) {
            long now = ticker.read();
            Slot slot = slots.get(recordKey, now);
            Rec current = slot.record.get();
            if (live(current, now)) {
                if (current instanceof Running running) {
                    return new ClaimResult.InProgress(running.fingerprint(), Duration.ofNanos(running.endsAtNanos() - now));
                }
                if (current instanceof Done done) {
                    return new ClaimResult.Completed(done.fingerprint(), done.response());
                }
            }
            Running mine = new Running(fingerprint, ownerToken, Nanos.add(now, leaseNanos));
            if (!slot.record.compareAndSet(current, mine)) {
                continue; // another claim, completion or release moved first: read again
            }
            if (slots.getIfPresent(recordKey).orElse(null) != slot) {
                // The slot was evicted while we claimed it: a claim on the new slot could also win.
                // Give this one back and claim on whatever slot the key has now.
                slot.record.compareAndSet(mine, null);
                continue;
            }
            return new ClaimResult.Claimed(current instanceof Running);
        }
    }

    @Override
    public boolean complete(String recordKey, String ownerToken, StoredResponse response, Duration timeToLive) {
        Objects.requireNonNull(response, "response");
        long ttlNanos = Nanos.of(timeToLive);
        Slot slot = slots.getIfPresent(recordKey).orElse(null);
        if (slot == null) {
            return false;
        }
        long now = ticker.read();
        Rec current = slot.record.get();
        if (!(current instanceof Running running) || !running.owner().equals(ownerToken) || !live(current, now)) {
            return false;
        }
        return slot.record.compareAndSet(current, new Done(running.fingerprint(), response, Nanos.add(now, ttlNanos)));
    }

    @Override
    public boolean release(String recordKey, String ownerToken) {
        Slot slot = slots.getIfPresent(recordKey).orElse(null);
        if (slot == null) {
            return false;
        }
        Rec current = slot.record.get();
        if (!(current instanceof Running running) || !running.owner().equals(ownerToken)) {
            return false;
        }
        // A lapsed lease may still be released by its owner: nobody took it over (that would have
        // replaced the record), and freeing it early only helps.
        return slot.record.compareAndSet(current, null);
    }

    /**
     * The number of slots held (live and lapsed records not yet swept).
     *
     * @return at most {@link #maxEntries()}
     */
    public int size() {
        return slots.size();
    }

    /**
     * The bound on records.
     *
     * @return {@code maxEntries}
     */
    public int maxEntries() {
        return slots.maxEntries();
    }

    /**
     * How many records were evicted for space or idleness.
     *
     * @return the count
     */
    public long evictionCount() {
        return slots.evictionCount();
    }

    @Override
    public String toString() {
        return "InMemoryIdempotencyStore[size=" + slots.size() + ", maxEntries=" + slots.maxEntries() + "]";
    }

    /** Settings of an {@link InMemoryIdempotencyStore}; validated in {@link #build()}. */
    public static final class Builder {
        private int maxEntries = DEFAULT_MAX_ENTRIES;
        private @Nullable Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
        private @Nullable Ticker ticker = Ticker.system();

        private Builder() {}

        /**
         * The bound on records (default {@value #DEFAULT_MAX_ENTRIES}).
         *
         * @param maxEntries at least 1
         * @return this builder
         */
        public Builder maxEntries(int maxEntries) {
            this.maxEntries = maxEntries;
            return this;
        }

        /**
         * How long a slot may stay untouched before it is dropped (default 25 h); keep it above the
         * guard's time to live, or completed records are dropped early.
         *
         * @param idleTimeout positive
         * @return this builder
         */
        public Builder idleTimeout(Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
            return this;
        }

        /**
         * The time source for leases and expiry (default {@link Ticker#system()}).
         *
         * @param ticker the ticker
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = ticker;
            return this;
        }

        /**
         * Validates the settings and builds the store.
         *
         * @return the store
         * @throws InvalidConfigException if a setting is out of bounds, naming the field and the value
         */
        public InMemoryIdempotencyStore build() {
            Validate.positive(POLICY, "maxEntries", maxEntries);
            Duration idle = Validate.positive(POLICY, "idleTimeout", idleTimeout);
            Ticker time = Validate.notNull(POLICY, "ticker", ticker);
            return new InMemoryIdempotencyStore(maxEntries, idle, time);
        }
    }
}
