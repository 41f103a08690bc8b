package dev.levee.idempotency;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.RandomSource;
import dev.levee.core.Sleeper;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The settings of an {@link IdempotencyGuard}: nameless, immutable, shareable.
 *
 * <table>
 *   <caption>Settings and defaults</caption>
 *   <tr><th>setting</th><th>default</th><th>why</th></tr>
 *   <tr><td>{@code timeToLive}</td><td>24 h ({@link #DEFAULT_TIME_TO_LIVE})</td><td>how long a completed
 *       response is replayed; Stripe keeps keys 24 h, the seeds' payment example follows it</td></tr>
 *   <tr><td>{@code lease}</td><td>60 s ({@link #DEFAULT_LEASE})</td><td>how long a claim holds when the
 *       request has no current {@link dev.levee.core.Deadline} (with one, the lease is its remaining
 *       time): a crashed executor's key frees itself after this</td></tr>
 *   <tr><td>{@code maxWait}</td><td>0 ({@link #DEFAULT_MAX_WAIT})</td><td>0: a duplicate of a running
 *       request gets 409 at once (the IETF draft); positive: it waits up to this long (and within its
 *       deadline) for the first outcome and gets the same response</td></tr>
 *   <tr><td>{@code checkFingerprint}</td><td>true</td><td>a reused key with a different request gets 422</td></tr>
 *   <tr><td>{@code fingerprintParts}</td><td>method, path, body</td><td>what "the same request" means</td></tr>
 *   <tr><td>{@code storedHeaders}</td><td>{@code content-type}, {@code location}</td><td>the response
 *       headers kept for replay (never {@code set-cookie} unless you say so)</td></tr>
 *   <tr><td>{@code storeRule}</td><td>{@link #DEFAULT_STORE_RULE}: status below 500 except 408, 409, 429</td>
 *       <td>which responses are final (stored and replayed); the others release the key for a retry</td></tr>
 *   <tr><td>{@code outagePolicy}</td><td>{@link OutagePolicy#FAIL_CLOSED}</td><td>503 while the store is down</td></tr>
 *   <tr><td>{@code store}</td><td>none: each guard makes its own {@link InMemoryIdempotencyStore}</td>
 *       <td>set a shared (Redis) store for many instances</td></tr>
 *   <tr><td>{@code ticker}, {@code sleeper}, {@code random}</td><td>system, system, thread-local</td>
 *       <td>time for leases and waits; randomness for owner tokens</td></tr>
 * </table>
 */
public final class IdempotencyGuardConfig {
    private static final String POLICY = "IdempotencyGuard config";

    /** Default time to live of a completed record: 24 hours (Stripe's key retention). */
    public static final Duration DEFAULT_TIME_TO_LIVE = Duration.ofHours(24);
    /** Default lease of a claim when the request has no deadline: 60 seconds. */
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(60);
    /** Default wait of a duplicate for a running request: zero, answer 409 at once (IETF draft). */
    public static final Duration DEFAULT_MAX_WAIT = Duration.ZERO;
    /** Default: the lease of a request with a current deadline is the deadline's remaining time. */
    public static final boolean DEFAULT_LEASE_FROM_DEADLINE = true;
    /** Default: fingerprints are checked. */
    public static final boolean DEFAULT_CHECK_FINGERPRINT = true;
    /** Default fingerprint parts: method, path and body. */
    public static final Set<FingerprintPart> DEFAULT_FINGERPRINT_PARTS =
            Set.of(FingerprintPart.METHOD, FingerprintPart.PATH, FingerprintPart.BODY);
    /** Default response headers kept for replay. */
    public static final Set<String> DEFAULT_STORED_HEADERS = Set.of("content-type", "location");
    /** Default outage policy: fail closed (503). */
    public static final OutagePolicy DEFAULT_OUTAGE_POLICY = OutagePolicy.FAIL_CLOSED;
    /**
     * Default store rule: a response is final (stored) when its status is below 500 and is not 408
     * (Request Timeout), 409 (Conflict) or 429 (Too Many Requests); 5xx and those three release the key
     * so the client's retry executes.
     */
    public static final Predicate<StoredResponse> DEFAULT_STORE_RULE = IdempotencyGuardConfig::isFinal;

    private static final IdempotencyGuardConfig DEFAULTS = builder().build();

    private final Duration timeToLive;
    private final Duration lease;
    private final Duration maxWait;
    private final boolean leaseFromDeadline;
    private final boolean checkFingerprint;
    private final Set<FingerprintPart> fingerprintParts;
    private final Set<String> storedHeaders;
    private final Predicate<StoredResponse> storeRule;
    private final OutagePolicy outagePolicy;
    private final @Nullable IdempotencyStore store;
    private final Ticker ticker;
    private final Sleeper sleeper;
    private final RandomSource random;

    private IdempotencyGuardConfig(Builder b, Set<FingerprintPart> parts, Set<String> headers) {
        this.timeToLive = b.timeToLive;
        this.lease = b.lease;
        this.maxWait = b.maxWait;
        this.leaseFromDeadline = b.leaseFromDeadline;
        this.checkFingerprint = b.checkFingerprint;
        this.fingerprintParts = parts;
        this.storedHeaders = headers;
        this.storeRule = b.storeRule;
        this.outagePolicy = b.outagePolicy;
        this.store = b.store;
        this.ticker = b.ticker;
        this.sleeper = b.sleeper;
        this.random = b.random;
    }

    private static boolean isFinal(StoredResponse response) {
        int status = response.status();
        return status < 500 && status != 408 && status != 409 && status != 429;
    }

    /**
     * The defaults.
     *
     * @return the default config
     */
    public static IdempotencyGuardConfig defaults() {
        return DEFAULTS;
    }

    /**
     * A builder with the defaults.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder holding this config's settings.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.timeToLive = timeToLive;
        b.lease = lease;
        b.maxWait = maxWait;
        b.leaseFromDeadline = leaseFromDeadline;
        b.checkFingerprint = checkFingerprint;
        b.fingerprintParts = fingerprintParts;
        b.storedHeaders = storedHeaders;
        b.storeRule = storeRule;
        b.outagePolicy = outagePolicy;
        b.store = store;
        b.ticker = ticker;
        b.sleeper = sleeper;
        b.random = random;
        return b;
    }

    /**
     * How long a completed record is replayed.
     *
     * @return the time to live
     */
    public Duration timeToLive() {
        return timeToLive;
    }

    /**
     * The lease of a claim when the request has no current deadline.
     *
     * @return the lease
     */
    public Duration lease() {
        return lease;
    }

    /**
     * How long a duplicate waits for a running request (zero: 409 at once).
     *
     * @return the maximum wait
     */
    public Duration maxWait() {
        return maxWait;
    }

    /**
     * Whether a request with a current deadline leases its claim for the deadline's remaining time
     * (else always for {@link #lease()}).
     *
     * @return true if the lease follows the deadline
     */
    public boolean leaseFromDeadline() {
        return leaseFromDeadline;
    }

    /**
     * Whether a reused key with a different request is refused.
     *
     * @return true if fingerprints are checked
     */
    public boolean checkFingerprint() {
        return checkFingerprint;
    }

    /**
     * The parts hashed into the fingerprint.
     *
     * @return an unmodifiable set
     */
    public Set<FingerprintPart> fingerprintParts() {
        return fingerprintParts;
    }

    /**
     * The response headers kept for replay, lower case.
     *
     * @return an unmodifiable set
     */
    public Set<String> storedHeaders() {
        return storedHeaders;
    }

    /**
     * Which responses are final (stored); the others release the key.
     *
     * @return the rule
     */
    public Predicate<StoredResponse> storeRule() {
        return storeRule;
    }

    /**
     * What happens while the store is down.
     *
     * @return the outage policy
     */
    public OutagePolicy outagePolicy() {
        return outagePolicy;
    }

    /**
     * The store, or null for a fresh in-memory store per guard.
     *
     * @return the store or null
     */
    public @Nullable IdempotencyStore store() {
        return store;
    }

    /**
     * The time source.
     *
     * @return the ticker
     */
    public Ticker ticker() {
        return ticker;
    }

    /**
     * How a waiting duplicate sleeps between looks at the store.
     *
     * @return the sleeper
     */
    public Sleeper sleeper() {
        return sleeper;
    }

    /**
     * The randomness for owner tokens.
     *
     * @return the random source
     */
    public RandomSource random() {
        return random;
    }

    @Override
    public String toString() {
        return "IdempotencyGuardConfig[timeToLive=" + timeToLive + ", lease=" + lease + ", maxWait=" + maxWait
                + ", leaseFromDeadline=" + leaseFromDeadline
                + ", checkFingerprint=" + checkFingerprint + ", fingerprintParts=" + fingerprintParts
                + ", storedHeaders=" + storedHeaders + ", outagePolicy=" + outagePolicy + "]";
    }

    /** Builds an {@link IdempotencyGuardConfig}; every setting is validated in {@link #build()}. */
    public static final class Builder {
        private Duration timeToLive = DEFAULT_TIME_TO_LIVE;
        private Duration lease = DEFAULT_LEASE;
        private Duration maxWait = DEFAULT_MAX_WAIT;
        private boolean leaseFromDeadline = DEFAULT_LEASE_FROM_DEADLINE;
        private boolean checkFingerprint = DEFAULT_CHECK_FINGERPRINT;
        private Set<FingerprintPart> fingerprintParts = DEFAULT_FINGERPRINT_PARTS;
        private Set<String> storedHeaders = DEFAULT_STORED_HEADERS;
        private Predicate<StoredResponse> storeRule = DEFAULT_STORE_RULE;
        private OutagePolicy outagePolicy = DEFAULT_OUTAGE_POLICY;
        private @Nullable IdempotencyStore store;
        private Ticker ticker = Ticker.system();
        private Sleeper sleeper = Sleeper.system();
        private RandomSource random = RandomSource.threadLocal();

        private Builder() {}

        /**
         * How long a completed response is replayed (default 24 h).
         *
         * @param timeToLive positive
         * @return this builder
         */
        public Builder timeToLive(Duration timeToLive) {
            this.timeToLive = timeToLive;
            return this;
        }

        /**
         * The lease of a claim when the request has no current deadline (default 60 s). Longer than the
         * handler ever runs, or a slow first request's key is taken over by a retry and runs twice.
         *
         * @param lease positive
         * @return this builder
         */
        public Builder lease(Duration lease) {
            this.lease = lease;
            return this;
        }

        /**
         * How long a duplicate of a running request waits for its outcome (default 0: answer 409 at once).
         *
         * @param maxWait zero or positive
         * @return this builder
         */
        public Builder maxWait(Duration maxWait) {
            this.maxWait = maxWait;
            return this;
        }

        /**
         * Whether a request with a current {@link dev.levee.core.Deadline} leases its claim for the
         * deadline's remaining time (default true: the request cannot usefully run longer, so a crash
         * frees the key soonest). Set false when a handler may keep running past its caller's deadline
         * (a side effect that completes after the client gave up): then every claim holds for
         * {@code lease}, and a retry in the meantime gets 409 instead of running a second time.
         *
         * @param leaseFromDeadline true to follow the deadline
         * @return this builder
         */
        public Builder leaseFromDeadline(boolean leaseFromDeadline) {
            this.leaseFromDeadline = leaseFromDeadline;
            return this;
        }

        /**
         * Whether a reused key with a different request is refused with 422 (default true).
         *
         * @param checkFingerprint true to check
         * @return this builder
         */
        public Builder checkFingerprint(boolean checkFingerprint) {
            this.checkFingerprint = checkFingerprint;
            return this;
        }

        /**
         * The parts hashed into the fingerprint (default method, path and body); not empty while
         * fingerprints are checked.
         *
         * @param parts the parts
         * @return this builder
         */
        public Builder fingerprintParts(Set<FingerprintPart> parts) {
            this.fingerprintParts = parts;
            return this;
        }

        /**
         * The response headers kept for replay (default {@code content-type}, {@code location}); names are
         * case-insensitive.
         *
         * @param headers the header names
         * @return this builder
         */
        public Builder storedHeaders(Set<String> headers) {
            this.storedHeaders = headers;
            return this;
        }

        /**
         * Which responses are final, stored and replayed (default {@link #DEFAULT_STORE_RULE}); a response
         * it refuses releases the key so the client's retry executes. A handler's exception always
         * releases.
         *
         * @param storeRule the rule
         * @return this builder
         */
        public Builder storeRule(Predicate<StoredResponse> storeRule) {
            this.storeRule = storeRule;
            return this;
        }

        /**
         * What happens while the store is down (default {@link OutagePolicy#FAIL_CLOSED}).
         *
         * @param outagePolicy the policy
         * @return this builder
         */
        public Builder outagePolicy(OutagePolicy outagePolicy) {
            this.outagePolicy = outagePolicy;
            return this;
        }

        /**
         * The store (default none: each guard makes its own bounded {@link InMemoryIdempotencyStore} on
         * this config's ticker).
         *
         * @param store the store, or null for the default
         * @return this builder
         */
        public Builder store(@Nullable IdempotencyStore store) {
            this.store = store;
            return this;
        }

        /**
         * The time source (default {@link Ticker#system()}).
         *
         * @param ticker the ticker
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = ticker;
            return this;
        }

        /**
         * How a waiting duplicate sleeps between looks at the store (default {@link Sleeper#system()}).
         *
         * @param sleeper the sleeper
         * @return this builder
         */
        public Builder sleeper(Sleeper sleeper) {
            this.sleeper = sleeper;
            return this;
        }

        /**
         * The randomness for owner tokens (default {@link RandomSource#threadLocal()}; seeded in tests).
         *
         * @param random the random source
         * @return this builder
         */
        public Builder random(RandomSource random) {
            this.random = random;
            return this;
        }

        /**
         * Validates every setting and builds the config.
         *
         * @return the config
         * @throws InvalidConfigException naming the field, the bound and the value, if a setting is out of bounds
         */
        public IdempotencyGuardConfig build() {
            Validate.positive(POLICY, "timeToLive", timeToLive);
            Validate.positive(POLICY, "lease", lease);
            Validate.nonNegative(POLICY, "maxWait", maxWait);
            Set<FingerprintPart> parts = Validate.notNull(POLICY, "fingerprintParts", fingerprintParts);
            for (FingerprintPart part : parts) {
                Validate.check(part != null, POLICY, "fingerprintParts", "no null part", parts);
            }
            Validate.check(!checkFingerprint || !parts.isEmpty(), POLICY, "fingerprintParts",
                    "not empty while checkFingerprint is true", parts);
            Set<String> headers = Validate.notNull(POLICY, "storedHeaders", storedHeaders);
            TreeSet<String> lower = new TreeSet<>();
            for (String h : headers) {
                Validate.check(h != null && !h.isBlank(), POLICY, "storedHeaders", "no null or blank name", headers);
                lower.add(h.toLowerCase(Locale.ROOT).strip());
            }
            Validate.notNull(POLICY, "storeRule", storeRule);
            Validate.notNull(POLICY, "outagePolicy", outagePolicy);
            Validate.notNull(POLICY, "ticker", ticker);
            Validate.notNull(POLICY, "sleeper", sleeper);
            Validate.notNull(POLICY, "random", random);
            Set<FingerprintPart> partsCopy = parts.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(parts));
            return new IdempotencyGuardConfig(this, partsCopy, Set.copyOf(lower));
        }
    }
}
