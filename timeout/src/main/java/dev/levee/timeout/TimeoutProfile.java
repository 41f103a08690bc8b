package dev.levee.timeout;

import dev.levee.core.Deadline;
import dev.levee.core.internal.Validate;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;

/**
 * The timeouts of one dependency as one typed, validated value: connect, read, write and total. Map
 * it onto whatever client talks to the dependency — an {@code HttpClient}, a JDBC driver, a socket —
 * so the numbers live in one place and are checked once.
 *
 * <table>
 *   <caption>Fields</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>what it bounds</th></tr>
 *   <tr><td>{@code connect}</td><td>2 s</td><td>&gt; 0, &le; total</td><td>establishing a connection
 *       (TCP + TLS handshake)</td></tr>
 *   <tr><td>{@code read}</td><td>5 s</td><td>&gt; 0, &le; total</td><td>silence while waiting for response
 *       bytes (a socket's {@code SO_TIMEOUT}, JDBC's network timeout)</td></tr>
 *   <tr><td>{@code write}</td><td>5 s</td><td>&gt; 0, &le; total</td><td>a blocked send</td></tr>
 *   <tr><td>{@code total}</td><td>10 s</td><td>&gt; 0</td><td>the whole request, end to end (a
 *       {@link Timeout}, {@code HttpRequest.timeout}, JDBC's query timeout)</td></tr>
 * </table>
 *
 * <p>Defaults: a connect within the same region takes milliseconds, so 2 s already means the host is
 * gone; read and write of 5 s and a 10 s total are common client defaults for interactive traffic.
 * Derive real values from the dependency's p99 plus headroom ({@code docs/timeout.md}).
 *
 * <pre>{@code
 * HttpClient client = profile.applyTo(HttpClient.newBuilder()).build();
 * HttpRequest request = profile.within(Deadline.currentOrNull())
 *         .applyTo(HttpRequest.newBuilder(uri)).GET().build();
 * statement.setQueryTimeout(profile.totalSecondsRoundedUp());
 * connection.setNetworkTimeout(executor, profile.readMillis());
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class TimeoutProfile {
    private final String name;
    private final Duration connect;
    private final Duration read;
    private final Duration write;
    private final Duration total;

    private TimeoutProfile(String name, Duration connect, Duration read, Duration write, Duration total) {
        this.name = name;
        this.connect = connect;
        this.read = read;
        this.write = write;
        this.total = total;
    }

    /**
     * Starts a builder with every default.
     *
     * @param name the dependency's name, for messages
     * @return a new builder
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** @return the dependency's name */
    public String name() {
        return name;
    }

    /** @return the connect timeout */
    public Duration connect() {
        return connect;
    }

    /** @return the read timeout */
    public Duration read() {
        return read;
    }

    /** @return the write timeout */
    public Duration write() {
        return write;
    }

    /** @return the total timeout */
    public Duration total() {
        return total;
    }

    /** @return the connect timeout in whole milliseconds, at least 1, for {@code int}-millisecond APIs */
    public int connectMillis() {
        return millis(connect);
    }

    /** @return the read timeout in whole milliseconds, at least 1 ({@code Socket.setSoTimeout}, JDBC) */
    public int readMillis() {
        return millis(read);
    }

    /** @return the write timeout in whole milliseconds, at least 1 */
    public int writeMillis() {
        return millis(write);
    }

    /**
     * The total in whole seconds, rounded up and at least 1, for JDBC's
     * {@code Statement.setQueryTimeout(int)} where 0 would mean "no limit".
     *
     * @return seconds
     */
    public int totalSecondsRoundedUp() {
        long nanos = Deadline.saturatedNanos(total);
        long seconds = nanos / 1_000_000_000L + (nanos % 1_000_000_000L == 0 ? 0 : 1);
        return (int) Math.max(1L, Math.min(Integer.MAX_VALUE, seconds));
    }

    /** Whole milliseconds, at least 1 (0 means "infinite" to most int-millisecond APIs). */
    private static int millis(Duration d) {
        long ms = Deadline.saturatedNanos(d) / 1_000_000L;
        return (int) Math.max(1L, Math.min(Integer.MAX_VALUE, ms));
    }

    /**
     * This profile cut down to fit {@code deadline}: every timeout becomes
     * {@code min(timeout, remaining)}, with a floor of 1 ms so no client reads it as "no limit".
     *
     * @param deadline the deadline, or null for this profile unchanged
     * @return the profile that fits
     */
    public TimeoutProfile within(Deadline deadline) {
        if (deadline == null) {
            return this;
        }
        long remaining = Math.max(1_000_000L, deadline.remainingNanos());
        if (remaining >= Deadline.saturatedNanos(total)) {
            return this;
        }
        Duration cap = Duration.ofNanos(remaining);
        return new TimeoutProfile(name, min(connect, cap), min(read, cap), min(write, cap), cap);
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /**
     * Sets {@code connectTimeout} on an {@link HttpClient} builder. (The JDK client has no separate
     * read or write timeout; the total goes on each request with {@link #applyTo(HttpRequest.Builder)}.)
     *
     * @param builder the client builder
     * @return the same builder
     */
    public HttpClient.Builder applyTo(HttpClient.Builder builder) {
        return builder.connectTimeout(connect);
    }

    /**
     * Sets the request {@code timeout} (the total) on an {@link HttpRequest} builder.
     *
     * @param builder the request builder
     * @return the same builder
     */
    public HttpRequest.Builder applyTo(HttpRequest.Builder builder) {
        return builder.timeout(total);
    }

    /**
     * A {@link TimeoutConfig} whose timeout is this profile's total, the rest default.
     *
     * @return the config
     */
    public TimeoutConfig toTimeoutConfig() {
        return TimeoutConfig.builder().timeout(total).build();
    }

    @Override
    public String toString() {
        return "TimeoutProfile[" + name + ": connect=" + connect + ", read=" + read + ", write=" + write + ", total="
                + total + "]";
    }

    /** Builds a {@link TimeoutProfile}. Not thread-safe; {@link #build()} validates. */
    public static final class Builder {
        private final String name;
        private Duration connect = Duration.ofSeconds(2);
        private Duration read = Duration.ofSeconds(5);
        private Duration write = Duration.ofSeconds(5);
        private Duration total = Duration.ofSeconds(10);

        private Builder(String name) {
            this.name = name;
        }

        /**
         * Connect timeout (default 2 s; &gt; 0 and &le; total).
         *
         * @param connect the timeout
         * @return this builder
         */
        public Builder connect(Duration connect) {
            this.connect = connect;
            return this;
        }

        /**
         * Read timeout (default 5 s; &gt; 0 and &le; total).
         *
         * @param read the timeout
         * @return this builder
         */
        public Builder read(Duration read) {
            this.read = read;
            return this;
        }

        /**
         * Write timeout (default 5 s; &gt; 0 and &le; total).
         *
         * @param write the timeout
         * @return this builder
         */
        public Builder write(Duration write) {
            this.write = write;
            return this;
        }

        /**
         * Total timeout (default 10 s; &gt; 0).
         *
         * @param total the timeout
         * @return this builder
         */
        public Builder total(Duration total) {
            this.total = total;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the profile
         * @throws dev.levee.core.InvalidConfigException naming the field, bound and value
         */
        public TimeoutProfile build() {
            String policy = Validate.describe("TimeoutProfile", Validate.name("TimeoutProfile", name));
            Validate.positive(policy, "total", total);
            Validate.positive(policy, "connect", connect);
            Validate.positive(policy, "read", read);
            Validate.positive(policy, "write", write);
            Validate.check(connect.compareTo(total) <= 0, policy, "connect", "<= total (" + total + ")", connect);
            Validate.check(read.compareTo(total) <= 0, policy, "read", "<= total (" + total + ")", read);
            Validate.check(write.compareTo(total) <= 0, policy, "write", "<= total (" + total + ")", write);
            return new TimeoutProfile(name, connect, read, write, total);
        }
    }
}
