package dev.levee.loadshed;

import dev.levee.core.RandomSource;
import dev.levee.core.RejectedException;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * The immutable, nameless configuration of a {@link ClientThrottle}.
 *
 * <table>
 *   <caption>Settings (defaults from the Google SRE book, ch. 21)</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>effect</th></tr>
 *   <tr><td>{@code window}</td><td>2 minutes</td><td>[1 s, 1 hour]</td><td>the history of requests and accepts</td></tr>
 *   <tr><td>{@code buckets}</td><td>{@value #DEFAULT_BUCKETS}</td><td>[1, 3600]</td>
 *       <td>the window's resolution: old counts leave it one bucket ({@code window / buckets}) at a time</td></tr>
 *   <tr><td>{@code k}</td><td>{@value #DEFAULT_K}</td><td>[1, 100]</td>
 *       <td>how many requests per accept are sent before local rejection starts; lower is more aggressive</td></tr>
 *   <tr><td>{@code rejectedWhen}</td><td>{@code e instanceof RejectedException}</td><td>not null</td>
 *       <td>which failures mean the backend refused the request (overload, throttling, 429/503 mapped to
 *       an exception); any other failure still counts as accepted</td></tr>
 *   <tr><td>{@code rejectedOnResult}</td><td>none</td><td>not null</td>
 *       <td>which returned values mean the backend refused (e.g. an HTTP 429 or 503 response)</td></tr>
 *   <tr><td>{@code random}</td><td>{@link RandomSource#threadLocal()}</td><td>not null</td><td>the coin for each request</td></tr>
 *   <tr><td>{@code ticker}</td><td>{@link Ticker#system()}</td><td>not null</td><td>the window's time source</td></tr>
 * </table>
 */
public final class ClientThrottleConfig {
    /** SRE book: the throttle's history is the last two minutes. */
    public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(2);
    /** Default number of buckets: 10 s each over two minutes. */
    public static final int DEFAULT_BUCKETS = 12;
    /** SRE book: K = 2. */
    public static final double DEFAULT_K = 2.0;

    private static final ClientThrottleConfig DEFAULTS = builder().build();

    private final Duration window;
    private final int buckets;
    private final double k;
    private final Predicate<? super Throwable> rejectedWhen;
    private final Predicate<Object> rejectedOnResult;
    private final RandomSource random;
    private final Ticker ticker;

    private ClientThrottleConfig(Builder b) {
        this.window = b.window;
        this.buckets = b.buckets;
        this.k = b.k;
        this.rejectedWhen = b.rejectedWhen;
        this.rejectedOnResult = b.rejectedOnResult;
        this.random = b.random;
        this.ticker = b.ticker;
    }

    /** @return a builder with the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the default configuration */
    public static ClientThrottleConfig defaults() {
        return DEFAULTS;
    }

    /** @return a builder holding this configuration's values */
    public Builder toBuilder() {
        Builder b = new Builder().window(window).buckets(buckets).k(k).rejectedWhen(rejectedWhen).random(random)
                .ticker(ticker);
        b.rejectedOnResult = rejectedOnResult;
        return b;
    }

    /** @return the window */
    public Duration window() {
        return window;
    }

    /** @return the number of buckets */
    public int buckets() {
        return buckets;
    }

    /** @return the multiplier K */
    public double k() {
        return k;
    }

    /** @return which failures are backend rejections */
    public Predicate<? super Throwable> rejectedWhen() {
        return rejectedWhen;
    }

    /** @return which results are backend rejections */
    public Predicate<Object> rejectedOnResult() {
        return rejectedOnResult;
    }

    /** @return the randomness */
    public RandomSource random() {
        return random;
    }

    /** @return the time source */
    public Ticker ticker() {
        return ticker;
    }

    @Override
    public String toString() {
        return "ClientThrottleConfig[window=" + window + ", buckets=" + buckets + ", k=" + k + "]";
    }

    /** Builds a {@link ClientThrottleConfig}. Not thread-safe; {@link #build()} validates. */
    public static final class Builder {
        private Duration window = DEFAULT_WINDOW;
        private int buckets = DEFAULT_BUCKETS;
        private double k = DEFAULT_K;
        private Predicate<? super Throwable> rejectedWhen = e -> e instanceof RejectedException;
        private Predicate<Object> rejectedOnResult = r -> false;
        private RandomSource random = RandomSource.threadLocal();
        private Ticker ticker = Ticker.system();

        private Builder() {}

        /**
         * @param window the history (default 2 minutes), in [1 s, 1 hour]
         * @return this builder
         */
        public Builder window(Duration window) {
            this.window = window;
            return this;
        }

        /**
         * @param buckets the window's resolution (default {@value #DEFAULT_BUCKETS}), in [1, 3600]
         * @return this builder
         */
        public Builder buckets(int buckets) {
            this.buckets = buckets;
            return this;
        }

        /**
         * @param k requests per accept before local rejection starts (default {@value #DEFAULT_K}), in [1, 100]
         * @return this builder
         */
        public Builder k(double k) {
            this.k = k;
            return this;
        }

        /**
         * @param rejectedWhen which failures mean the backend refused (default: a Levee {@link RejectedException})
         * @return this builder
         */
        public Builder rejectedWhen(Predicate<? super Throwable> rejectedWhen) {
            this.rejectedWhen = rejectedWhen;
            return this;
        }

        /**
         * @param rejectedOnResult which returned values mean the backend refused (default: none)
         * @return this builder
         */
        @SuppressWarnings("unchecked")
        public Builder rejectedOnResult(Predicate<?> rejectedOnResult) {
            this.rejectedOnResult = (Predicate<Object>) rejectedOnResult;
            return this;
        }

        /**
         * @param random the coin (default thread-local; seed it in tests)
         * @return this builder
         */
        public Builder random(RandomSource random) {
            this.random = random;
            return this;
        }

        /**
         * @param ticker the time source (default {@link Ticker#system()})
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = ticker;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the configuration
         * @throws dev.levee.core.InvalidConfigException naming the field, the bound and the value
         */
        public ClientThrottleConfig build() {
            String p = "ClientThrottle";
            Validate.notNull(p, "window", window);
            Validate.check(window.compareTo(Duration.ofSeconds(1)) >= 0 && window.compareTo(Duration.ofHours(1)) <= 0,
                    p, "window", "in [PT1S, PT1H]", window);
            Validate.inRange(p, "buckets", buckets, 1, 3600);
            Validate.check(k >= 1 && k <= 100, p, "k", "in [1, 100]", k);
            Validate.notNull(p, "rejectedWhen", rejectedWhen);
            Validate.notNull(p, "rejectedOnResult", rejectedOnResult);
            Validate.notNull(p, "random", random);
            Validate.notNull(p, "ticker", ticker);
            return new ClientThrottleConfig(this);
        }
    }
}
