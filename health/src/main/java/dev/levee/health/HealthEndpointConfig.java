package dev.levee.health;

import com.sun.net.httpserver.HttpExchange;
import dev.levee.core.internal.Validate;
import java.net.InetAddress;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The immutable configuration of a {@link HealthEndpoint}: where it listens, how many requests it
 * serves at once, what it shows.
 *
 * <table>
 *   <caption>Knobs, defaults and bounds</caption>
 *   <tr><th>knob</th><th>default</th><th>bound</th></tr>
 *   <tr><td>bindAddress</td><td>the loopback address</td><td>not null</td></tr>
 *   <tr><td>port</td><td>{@value #DEFAULT_PORT}</td><td>[0, 65535]; 0 picks a free port</td></tr>
 *   <tr><td>basePath</td><td>{@value #DEFAULT_BASE_PATH}</td><td>starts with {@code /}, no trailing
 *       {@code /}, printable ASCII without spaces, {@code ?} or {@code #}</td></tr>
 *   <tr><td>workerThreads</td><td>{@value #DEFAULT_WORKER_THREADS}</td><td>[1, {@value #MAX_WORKER_THREADS}]</td></tr>
 *   <tr><td>maxQueuedRequests</td><td>{@value #DEFAULT_MAX_QUEUED_REQUESTS}</td><td>[0, {@value #MAX_MAX_QUEUED_REQUESTS}]</td></tr>
 *   <tr><td>maxRequestHeaderBytes</td><td>{@value #DEFAULT_MAX_REQUEST_HEADER_BYTES}</td>
 *       <td>[{@value #MIN_MAX_REQUEST_HEADER_BYTES}, {@value #MAX_MAX_REQUEST_HEADER_BYTES}]</td></tr>
 *   <tr><td>detailsVisibility</td><td>NEVER</td><td>not null; WHEN_AUTHORIZED needs an authorizer</td></tr>
 *   <tr><td>authorizer</td><td>null</td><td>-</td></tr>
 * </table>
 *
 * <p>Loopback by default so an endpoint started without thought is not reachable from the network;
 * bind to {@code 0.0.0.0} (or the pod IP) for Kubernetes probes and load balancers. {@code port},
 * {@code bindAddress}, {@code workerThreads} and {@code maxQueuedRequests} apply to an endpoint that
 * owns its server ({@link HealthEndpoint#start}); a {@link HealthEndpoint#mount mounted} endpoint uses
 * the application's server and executor.
 */
public final class HealthEndpointConfig {
    private static final String POLICY = "HealthEndpoint config";

    /** Default port (a common management port). */
    public static final int DEFAULT_PORT = 8081;
    /** Default base path: {@code /health/live}, {@code /health/ready}, {@code /health/started}, {@code /health/deep}. */
    public static final String DEFAULT_BASE_PATH = "/health";
    /** Default worker threads: probes are few and checks run on the checker's own pool. */
    public static final int DEFAULT_WORKER_THREADS = 4;
    /** Largest worker pool. */
    public static final int MAX_WORKER_THREADS = 256;
    /** Default requests waiting for a worker before new ones are answered 503 at once. */
    public static final int DEFAULT_MAX_QUEUED_REQUESTS = 64;
    /** Largest queue. */
    public static final int MAX_MAX_QUEUED_REQUESTS = 10_000;
    /** Default limit on the request's header bytes (names, values and separators); larger gets 431. */
    public static final int DEFAULT_MAX_REQUEST_HEADER_BYTES = 8 * 1024;
    /** Smallest header limit. */
    public static final int MIN_MAX_REQUEST_HEADER_BYTES = 256;
    /** Largest header limit. */
    public static final int MAX_MAX_REQUEST_HEADER_BYTES = 1024 * 1024;

    private static final HealthEndpointConfig DEFAULTS = builder().build();

    private final InetAddress bindAddress;
    private final int port;
    private final String basePath;
    private final int workerThreads;
    private final int maxQueuedRequests;
    private final int maxRequestHeaderBytes;
    private final DetailsVisibility detailsVisibility;
    private final @Nullable Predicate<HttpExchange> authorizer;

    private HealthEndpointConfig(Builder b) {
        this.bindAddress = b.bindAddress;
        this.port = b.port;
        this.basePath = b.basePath;
        this.workerThreads = b.workerThreads;
        this.maxQueuedRequests = b.maxQueuedRequests;
        this.maxRequestHeaderBytes = b.maxRequestHeaderBytes;
        this.detailsVisibility = b.detailsVisibility;
        this.authorizer = b.authorizer;
    }

    /**
     * The defaults (see the class documentation).
     *
     * @return the shared default config
     */
    public static HealthEndpointConfig defaults() {
        return DEFAULTS;
    }

    /**
     * Starts a config from the defaults.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder holding this config's values.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.bindAddress = bindAddress;
        b.port = port;
        b.basePath = basePath;
        b.workerThreads = workerThreads;
        b.maxQueuedRequests = maxQueuedRequests;
        b.maxRequestHeaderBytes = maxRequestHeaderBytes;
        b.detailsVisibility = detailsVisibility;
        b.authorizer = authorizer;
        return b;
    }

    /** @return the address the server binds to */
    public InetAddress bindAddress() {
        return bindAddress;
    }

    /** @return the port; 0 for any free port */
    public int port() {
        return port;
    }

    /** @return the base path, e.g. {@code /health} */
    public String basePath() {
        return basePath;
    }

    /** @return the worker threads of an owned server */
    public int workerThreads() {
        return workerThreads;
    }

    /** @return requests that may wait for a worker */
    public int maxQueuedRequests() {
        return maxQueuedRequests;
    }

    /** @return the request header limit in bytes */
    public int maxRequestHeaderBytes() {
        return maxRequestHeaderBytes;
    }

    /** @return who sees details */
    public DetailsVisibility detailsVisibility() {
        return detailsVisibility;
    }

    /** @return the authorizer for {@link DetailsVisibility#WHEN_AUTHORIZED}, or null */
    public @Nullable Predicate<HttpExchange> authorizer() {
        return authorizer;
    }

    /** Builds a {@link HealthEndpointConfig}; {@link #build()} validates every field. */
    public static final class Builder {
        private InetAddress bindAddress = InetAddress.getLoopbackAddress();
        private int port = DEFAULT_PORT;
        private String basePath = DEFAULT_BASE_PATH;
        private int workerThreads = DEFAULT_WORKER_THREADS;
        private int maxQueuedRequests = DEFAULT_MAX_QUEUED_REQUESTS;
        private int maxRequestHeaderBytes = DEFAULT_MAX_REQUEST_HEADER_BYTES;
        private DetailsVisibility detailsVisibility = DetailsVisibility.NEVER;
        private @Nullable Predicate<HttpExchange> authorizer;

        private Builder() {}

        /**
         * The address to bind to.
         *
         * @param value e.g. {@code InetAddress.getByName("0.0.0.0")}
         * @return this builder
         */
        public Builder bindAddress(InetAddress value) {
            this.bindAddress = value;
            return this;
        }

        /**
         * The port.
         *
         * @param value the port; 0 for any free port
         * @return this builder
         */
        public Builder port(int value) {
            this.port = value;
            return this;
        }

        /**
         * The base path.
         *
         * @param value e.g. {@code /health} or {@code /management/health}
         * @return this builder
         */
        public Builder basePath(String value) {
            this.basePath = value;
            return this;
        }

        /**
         * Worker threads of an owned server.
         *
         * @param value the count
         * @return this builder
         */
        public Builder workerThreads(int value) {
            this.workerThreads = value;
            return this;
        }

        /**
         * Requests that may wait for a worker; beyond that a request is answered 503 at once.
         *
         * @param value the count
         * @return this builder
         */
        public Builder maxQueuedRequests(int value) {
            this.maxQueuedRequests = value;
            return this;
        }

        /**
         * The request header limit.
         *
         * @param value bytes
         * @return this builder
         */
        public Builder maxRequestHeaderBytes(int value) {
            this.maxRequestHeaderBytes = value;
            return this;
        }

        /**
         * Who sees checks, messages and details.
         *
         * @param value the visibility
         * @return this builder
         */
        public Builder detailsVisibility(DetailsVisibility value) {
            this.detailsVisibility = value;
            return this;
        }

        /**
         * Decides which callers see details under {@link DetailsVisibility#WHEN_AUTHORIZED}, e.g. by a
         * token header compared in constant time. It runs on a worker thread and must not throw.
         *
         * @param value the predicate, or null
         * @return this builder
         */
        public Builder authorizer(@Nullable Predicate<HttpExchange> value) {
            this.authorizer = value;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the config
         * @throws dev.levee.core.InvalidConfigException if a field is out of bounds
         */
        public HealthEndpointConfig build() {
            Validate.notNull(POLICY, "bindAddress", bindAddress);
            Validate.inRange(POLICY, "port", port, 0, 65535);
            Validate.notNull(POLICY, "basePath", basePath);
            Validate.check(validPath(basePath), POLICY, "basePath",
                    "a path starting with '/', without a trailing '/', spaces, '?' or '#'", "'" + basePath + "'");
            Validate.inRange(POLICY, "workerThreads", workerThreads, 1, MAX_WORKER_THREADS);
            Validate.inRange(POLICY, "maxQueuedRequests", maxQueuedRequests, 0, MAX_MAX_QUEUED_REQUESTS);
            Validate.inRange(POLICY, "maxRequestHeaderBytes", maxRequestHeaderBytes, MIN_MAX_REQUEST_HEADER_BYTES,
                    MAX_MAX_REQUEST_HEADER_BYTES);
            Validate.notNull(POLICY, "detailsVisibility", detailsVisibility);
            Validate.check(detailsVisibility != DetailsVisibility.WHEN_AUTHORIZED || authorizer != null, POLICY,
                    "authorizer", "set when detailsVisibility is WHEN_AUTHORIZED", null);
            return new HealthEndpointConfig(this);
        }

        private static boolean validPath(String p) {
            if (p.length() < 2 || p.charAt(0) != '/' || p.endsWith("/")) {
                return false;
            }
            for (int i = 0; i < p.length(); i++) {
                char c = p.charAt(i);
                if (c <= 0x20 || c >= 0x7f || c == '?' || c == '#') {
                    return false;
                }
            }
            return true;
        }
    }
}
