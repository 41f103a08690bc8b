package dev.levee.loadshed;

import dev.levee.core.Gate;
import dev.levee.core.PolicyRegistry;
import dev.levee.core.RandomSource;
import dev.levee.core.RejectedException;
import dev.levee.core.ShedException;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import dev.levee.loadshed.internal.WindowCounter;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Client-side adaptive throttling (Google SRE book, ch. 21, "Handling Overload"): a client that sees
 * its backend refuse requests starts refusing some of them itself, before they cost the backend
 * anything, in proportion to how much it is being refused.
 *
 * <pre>{@code
 * ClientThrottle throttle = ClientThrottle.ofDefaults("inventory");   // one per downstream
 * Stock s = throttle.execute(() -> inventoryClient.get(sku));         // ShedException (client_throttle) locally
 * }</pre>
 *
 * <p><b>Model.</b> Over a sliding {@code window} (default 2 minutes) it counts {@code requests} — the
 * requests it let through to the backend — and {@code accepts} — completions the backend did not
 * refuse. Each new request is refused locally with probability
 * <pre>
 *   p = max(0, (requests − K × accepts) / (requests + 1))          K = 2 by default
 * </pre>
 * drawn from the configured {@link RandomSource}. While the backend accepts everything,
 * {@code requests = accepts} and {@code p = 0}. When it accepts only {@code A} of the demand {@code D},
 * the client settles where it sends {@code √(K·A·D)}: more than the backend takes, so the backend keeps
 * seeing enough traffic to show when it recovers, and far less than the demand.
 *
 * <p><b>One departure from the book.</b> The book counts the requests the client refused itself as
 * requests too. Those are fresh evidence the client made up: after a full outage the probability sits
 * near {@code requests / (requests + 1)}, almost nothing is sent, almost nothing is accepted, and the
 * probability only leaves 1 by doubling its complement once per window — tens of minutes after the
 * backend is back. Counting what was sent bounds recovery by one window. The price is a milder
 * throttle under sustained overload ({@code √(K·A·D)} sent instead of {@code K·A}).
 *
 * <p><b>What counts as a backend refusal</b> is configured: by default a failure that is a Levee
 * {@link RejectedException} (a remote shed or throttle mapped to one, a timeout); add the predicates
 * for your client (an HTTP 429 or 503 response). Other failures — the backend accepted the request
 * and failed it — count as accepts. {@link #onIgnored()} takes the request back out of the count.
 *
 * <p><b>Guarantees.</b> With a {@link RandomSource#seeded seeded} source the decisions are
 * reproducible. After the backend recovers, the refusals recorded before the recovery leave the
 * window within one {@code window} (plus one bucket, {@code window / buckets}, for the bucket that
 * straddles the recovery); from then on {@code p = 0} and nothing is refused locally (usually much
 * earlier, as soon as the fresh accepts outweigh them).
 *
 * <p><b>Cost.</b> {@code tryAcquire}: a CAS on the current bucket and a sum over {@code 2 × buckets}
 * slots (24 by default), plus a random draw when {@code p > 0}; no lock, no allocation. Thread-safe.
 */
public final class ClientThrottle implements Gate {
    /** The shed reason of every local refusal: {@value}. */
    public static final String REASON = "client_throttle";

    private static final Logger LOG = LoggerFactory.getLogger(ClientThrottle.class);

    private final String name;
    private final ClientThrottleConfig config;
    private final Ticker ticker;
    private final RandomSource random;
    private final double k;
    private final Predicate<? super Throwable> rejectedWhen;
    private final Predicate<Object> rejectedOnResult;
    private final WindowCounter requests;
    private final WindowCounter accepts;
    private final LongAdder throttled = new LongAdder();
    private final LongAdder backendRejections = new LongAdder();

    private ClientThrottle(String name, ClientThrottleConfig config) {
        this.name = Validate.name("ClientThrottle", name);
        this.config = Validate.notNull(Validate.describe("ClientThrottle", name), "config", config);
        this.ticker = config.ticker();
        this.random = config.random();
        this.k = config.k();
        this.rejectedWhen = config.rejectedWhen();
        this.rejectedOnResult = config.rejectedOnResult();
        long bucketNanos = Math.max(1L, config.window().toNanos() / config.buckets());
        this.requests = new WindowCounter(config.buckets(), bucketNanos);
        this.accepts = new WindowCounter(config.buckets(), bucketNanos);
    }

    /**
     * A throttle.
     *
     * @param name the name (the downstream it guards), used in rejections, logs and metric tags
     * @param config the configuration
     * @return the throttle
     */
    public static ClientThrottle of(String name, ClientThrottleConfig config) {
        return new ClientThrottle(name, config);
    }

    /**
     * A throttle with the SRE book's defaults: 2-minute window, K = 2.
     *
     * @param name the name
     * @return the throttle
     */
    public static ClientThrottle ofDefaults(String name) {
        return new ClientThrottle(name, ClientThrottleConfig.defaults());
    }

    /**
     * A registry creating one throttle per downstream name.
     *
     * @param defaultConfig the configuration of throttles created without a named configuration
     * @return the registry
     */
    public static PolicyRegistry<ClientThrottleConfig, ClientThrottle> registry(ClientThrottleConfig defaultConfig) {
        return PolicyRegistry.create(defaultConfig, ClientThrottle::of);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Ticker ticker() {
        return ticker;
    }

    /** @return the configuration */
    public ClientThrottleConfig config() {
        return config;
    }

    /**
     * Refuses the request with probability {@link #rejectionProbability(long)}, or counts it as sent.
     *
     * @param nowNanos the current reading of {@link #ticker()}
     * @return true if the request may be sent; then exactly one completion method must follow
     */
    @Override
    public boolean tryAcquire(long nowNanos) {
        double p = rejectionProbability(nowNanos);
        if (p > 0 && random.nextDouble() < p) {
            throttled.increment();
            if (LOG.isDebugEnabled()) {
                LOG.debug("ClientThrottle '{}' refused a request locally (p = {})", name, p);
            }
            return false;
        }
        requests.add(nowNanos, 1);
        return true;
    }

    /**
     * The probability a request made now would be refused locally.
     *
     * @param nowNanos a reading of {@link #ticker()}
     * @return {@code max(0, (requests − K × accepts) / (requests + 1))} over the window, in [0, 1)
     */
    public double rejectionProbability(long nowNanos) {
        long r = requests.sum(nowNanos);
        if (r == 0) {
            return 0.0;
        }
        long a = accepts.sum(nowNanos);
        return Math.max(0.0, (r - k * a) / (r + 1));
    }

    @Override
    public RejectedException rejection(long nowNanos) {
        return new ShedException(name, REASON, "ClientThrottle '" + name + "': the backend has been refusing requests; "
                + "refused locally with probability " + String.format("%.3f", rejectionProbability(nowNanos)), 0L, null);
    }

    @Override
    public void onSuccess(long latencyNanos) {
        accepts.add(ticker.read(), 1);
    }

    @Override
    public void onResult(long latencyNanos, Object result) {
        onResultAt(ticker.read(), latencyNanos, result);
    }

    @Override
    public void onResultAt(long endNanos, long latencyNanos, Object result) {
        if (rejectedOnResult.test(result)) {
            backendRejections.increment();
        } else {
            accepts.add(endNanos, 1);
        }
    }

    @Override
    public void onFailure(long latencyNanos, Throwable error) {
        onFailureAt(ticker.read(), latencyNanos, error);
    }

    @Override
    public void onFailureAt(long endNanos, long latencyNanos, Throwable error) {
        if (rejectedWhen.test(error)) {
            backendRejections.increment();
        } else {
            accepts.add(endNanos, 1);
        }
    }

    @Override
    public void onIgnored() {
        requests.add(ticker.read(), -1);
    }

    /** @return requests sent (not refused locally) in the window now */
    public long requestCount() {
        return requests.sum(ticker.read());
    }

    /** @return accepts in the window now */
    public long acceptCount() {
        return accepts.sum(ticker.read());
    }

    /** @return requests refused locally since creation */
    public long throttledCount() {
        return throttled.sum();
    }

    /** @return completions the backend refused since creation */
    public long backendRejectionCount() {
        return backendRejections.sum();
    }

    @Override
    public String toString() {
        long now = ticker.read();
        return "ClientThrottle[" + name + ", requests=" + requests.sum(now) + ", accepts=" + accepts.sum(now) + ", p="
                + rejectionProbability(now) + "]";
    }
}
