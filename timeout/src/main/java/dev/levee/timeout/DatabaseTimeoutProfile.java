package dev.levee.timeout;

import dev.levee.core.Deadline;
import dev.levee.core.internal.Validate;
import java.time.Duration;

/**
 * The timeouts of a database as one typed, validated value (seed 003): connecting, one query, and a
 * whole transaction. Map it onto the JDBC driver or pool so the numbers live in one place:
 *
 * <pre>{@code
 * DatabaseTimeoutProfile db = DatabaseTimeoutProfile.ofDefaults("orders-db");
 * DatabaseTimeoutProfile now = db.within(Deadline.currentOrNull());   // never past the request's deadline
 * statement.setQueryTimeout(now.querySecondsRoundedUp());             // JDBC: whole seconds, 0 = none
 * connection.setNetworkTimeout(executor, now.queryMillis());          // a hung socket, too
 * Timeout transaction = Timeout.of("orders-tx", now.transactionTimeoutConfig());
 * transaction.execute(() -> runInTransaction(connection));
 * }</pre>
 *
 * <table>
 *   <caption>Fields</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>what it bounds</th></tr>
 *   <tr><td>{@code connect}</td><td>2 s (seed 003)</td><td>&gt; 0</td><td>getting a connection
 *       (the pool's connection timeout, the driver's login timeout)</td></tr>
 *   <tr><td>{@code query}</td><td>5 s (seed 003)</td><td>&gt; 0, &le; transaction</td><td>one statement
 *       ({@code Statement.setQueryTimeout}, the network timeout)</td></tr>
 *   <tr><td>{@code transaction}</td><td>30 s (seed 003)</td><td>&gt; 0</td><td>a whole transaction,
 *       begin to commit (a {@link Timeout} around it)</td></tr>
 * </table>
 *
 * <p>Immutable and thread-safe. Conversions round so that a bound is never 0 (which JDBC reads as "no
 * timeout"): at least 1 ms, at least 1 s for the seconds-based query timeout.
 */
public final class DatabaseTimeoutProfile {
    /** Default connect timeout: 2 s (seed 003, {@code database.connect}). */
    public static final Duration DEFAULT_CONNECT = Duration.ofSeconds(2);
    /** Default query timeout: 5 s (seed 003, {@code database.query}). */
    public static final Duration DEFAULT_QUERY = Duration.ofSeconds(5);
    /** Default transaction timeout: 30 s (seed 003, {@code database.transaction}). */
    public static final Duration DEFAULT_TRANSACTION = Duration.ofSeconds(30);

    private final String name;
    private final Duration connect;
    private final Duration query;
    private final Duration transaction;

    private DatabaseTimeoutProfile(String name, Duration connect, Duration query, Duration transaction) {
        this.name = name;
        this.connect = connect;
        this.query = query;
        this.transaction = transaction;
    }

    /**
     * Starts a profile with the seed's defaults.
     *
     * @param name the database's name, for messages
     * @return a builder
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /**
     * The seed's profile: connect 2 s, query 5 s, transaction 30 s.
     *
     * @param name the database's name
     * @return the profile
     */
    public static DatabaseTimeoutProfile ofDefaults(String name) {
        return builder(name).build();
    }

    /** @return the database's name */
    public String name() {
        return name;
    }

    /** @return the connect timeout */
    public Duration connect() {
        return connect;
    }

    /** @return the timeout of one query */
    public Duration query() {
        return query;
    }

    /** @return the timeout of a whole transaction */
    public Duration transaction() {
        return transaction;
    }

    /** @return {@link #connect()} in milliseconds, at least 1 */
    public int connectMillis() {
        return millis(connect);
    }

    /** @return {@link #query()} in milliseconds, at least 1 (for {@code Connection.setNetworkTimeout}) */
    public int queryMillis() {
        return millis(query);
    }

    /** @return {@link #query()} in whole seconds rounded up, at least 1 (for {@code Statement.setQueryTimeout}) */
    public int querySecondsRoundedUp() {
        long nanos = Deadline.saturatedNanos(query);
        long seconds = nanos / 1_000_000_000L + (nanos % 1_000_000_000L == 0 ? 0 : 1);
        return (int) Math.max(1L, Math.min(Integer.MAX_VALUE, seconds));
    }

    /**
     * This profile cut to what remains of {@code deadline}: query and transaction at most the time left
     * (at least 1 ms), connect at most that too.
     *
     * @param deadline the current deadline, or null
     * @return this profile, or a shorter one
     */
    public DatabaseTimeoutProfile within(Deadline deadline) {
        if (deadline == null) {
            return this;
        }
        Duration cap = Duration.ofNanos(Math.max(1_000_000L, deadline.remainingNanos()));
        if (cap.compareTo(transaction) >= 0) {
            return this;
        }
        return new DatabaseTimeoutProfile(name, min(connect, cap), min(query, cap), cap);
    }

    /** @return a {@link Timeout} configuration bounding one query */
    public TimeoutConfig queryTimeoutConfig() {
        return TimeoutConfig.builder().timeout(query).build();
    }

    /** @return a {@link Timeout} configuration bounding a whole transaction */
    public TimeoutConfig transactionTimeoutConfig() {
        return TimeoutConfig.builder().timeout(transaction).build();
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static int millis(Duration d) {
        long ms = Deadline.saturatedNanos(d) / 1_000_000L;
        return (int) Math.max(1L, Math.min(Integer.MAX_VALUE, ms));
    }

    @Override
    public String toString() {
        return "DatabaseTimeoutProfile[" + name + ": connect=" + connect + ", query=" + query + ", transaction="
                + transaction + "]";
    }

    /** Builds a {@link DatabaseTimeoutProfile}. Not thread-safe; {@link #build()} validates. */
    public static final class Builder {
        private final String name;
        private Duration connect = DEFAULT_CONNECT;
        private Duration query = DEFAULT_QUERY;
        private Duration transaction = DEFAULT_TRANSACTION;

        private Builder(String name) {
            this.name = name;
        }

        /**
         * The connect timeout (default 2 s; &gt; 0).
         *
         * @param connect the timeout
         * @return this builder
         */
        public Builder connect(Duration connect) {
            this.connect = connect;
            return this;
        }

        /**
         * The timeout of one query (default 5 s; &gt; 0 and &le; transaction).
         *
         * @param query the timeout
         * @return this builder
         */
        public Builder query(Duration query) {
            this.query = query;
            return this;
        }

        /**
         * The timeout of a whole transaction (default 30 s; &gt; 0).
         *
         * @param transaction the timeout
         * @return this builder
         */
        public Builder transaction(Duration transaction) {
            this.transaction = transaction;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the profile
         * @throws dev.levee.core.InvalidConfigException naming the profile, field, bound and value
         */
        public DatabaseTimeoutProfile build() {
            String policy = Validate.describe("DatabaseTimeoutProfile", Validate.name("DatabaseTimeoutProfile", name));
            Validate.positive(policy, "connect", connect);
            Validate.positive(policy, "transaction", transaction);
            Validate.positive(policy, "query", query);
            Validate.check(query.compareTo(transaction) <= 0, policy, "query", "<= transaction (" + transaction + ")",
                    query);
            return new DatabaseTimeoutProfile(name, connect, query, transaction);
        }
    }
}
