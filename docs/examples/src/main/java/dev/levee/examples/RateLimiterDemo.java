package dev.levee.examples;

import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.core.RandomSource;
import dev.levee.core.RateLimitedException;
import dev.levee.ratelimiter.AdaptiveRateLimiter;
import dev.levee.ratelimiter.AdaptiveRateLimiterConfig;
import dev.levee.ratelimiter.KeyedRateLimiter;
import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimitHeaders;
import dev.levee.ratelimiter.RateLimiter;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.ratelimiter.RateLimiterMetricsBinder;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Rate limiters in front of a simulated flaky call, and every code example of
 * {@code docs/ratelimiter.md}. Deterministic: manual time and seeded randomness.
 */
public final class RateLimiterDemo {
    private RateLimiterDemo() {}

    /**
     * Runs the demo.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        run(System.out);
    }

    /**
     * Runs every section.
     *
     * @param out where to print
     */
    public static void run(PrintStream out) {
        out.println("-- three ways to ask: " + threeWaysToAsk(apiLimiter(new ManualTicker()), "levee"));
        gcraInFrontOfAFlakyCall(out);
        perTenantTiers(out);
        leakyBucketQueue(out);
        adaptiveRate(out);
    }

    /** The simulated dependency: fails one call in five. */
    static String flakyCall(RandomSource random, int id) throws IOException {
        if (random.nextDouble() < 0.2) {
            throw new IOException("upstream hiccup on call " + id);
        }
        return "ok-" + id;
    }

    /** Builds the limiter of the docs' first example: 5 per second, bursts of 3. */
    static RateLimiter apiLimiter(ManualTicker ticker) {
        RateLimiterConfig config = RateLimiterConfig.builder()
                .algorithm(RateLimitAlgorithm.GCRA)
                .rate(5, Duration.ofSeconds(1))   // T = 200 ms between permits on average
                .burst(3)                         // up to 3 at once after a quiet spell
                .ticker(ticker)                   // omit in production: the system clock
                .sleeper(ticker)
                .build();
        return RateLimiter.of("search-api", config);
    }

    /** The three ways to ask, as on the top of {@code docs/ratelimiter.md}. */
    static String threeWaysToAsk(RateLimiter limiter, String query) {
        String warmed = "";
        if (limiter.tryAcquire()) {                          // boolean, allocation-free, lock-free
            warmed = search("warm-up") + "; ";
        }
        String page = limiter.execute(() -> search(query));  // as a policy: refuses with RateLimitedException
        limiter.acquire(1, Duration.ofMillis(50));           // waits up to 50 ms, or refuses at once
        return warmed + page;
    }

    private static String search(String query) {
        return "results for " + query;
    }

    /**
     * What an HTTP handler does with a limiter: decide, then answer 200 or 429 with the headers a
     * client needs. One {@link RateLimitDecision} per thread keeps this allocation-free.
     *
     * @param limiter the limiter
     * @param decision a reusable decision
     * @param headers receives the response headers
     * @return the status code
     */
    static int handle(RateLimiter limiter, RateLimitDecision decision, Map<String, String> headers) {
        boolean allowed = limiter.tryAcquire(1, limiter.ticker().read(), decision);
        RateLimitHeaders.write(limiter, decision, headers::put); // RateLimit-Policy, RateLimit, Retry-After
        return allowed ? 200 : 429;
    }

    /**
     * A status endpoint: what a request would see, in seed 001's {@code X-RateLimit-*} headers, without
     * taking a permit; {@code balance} shows the permits owed to callers that booked ahead.
     *
     * @param limiter the limiter
     * @param decision a reusable decision
     * @param headers receives the response headers
     * @return the signed balance
     */
    static long status(RateLimiter limiter, RateLimitDecision decision, Map<String, String> headers) {
        limiter.peek(limiter.ticker().read(), decision);
        RateLimitHeaders.write(limiter, decision, headers::put, RateLimitHeaders.Style.X_RATE_LIMIT);
        return decision.balance();
    }

    /**
     * Bursty clients in front of a flaky call through a GCRA limiter: granted calls run (and may
     * fail, unchanged), refused ones get a 429 with {@code Retry-After}.
     */
    static void gcraInFrontOfAFlakyCall(PrintStream out) {
        out.println("-- GCRA: 5 per second, burst 3, bursty arrivals, 20% of calls fail");
        ManualTicker ticker = new ManualTicker();
        RandomSource random = RandomSource.seeded(42);
        RateLimiter limiter = apiLimiter(ticker);
        MeterRegistry registry = new SimpleMeterRegistry();
        new RateLimiterMetricsBinder(limiter).bindTo(registry);
        RateLimitDecision decision = new RateLimitDecision();
        int ok = 0;
        int failed = 0;
        int limited = 0;
        for (int id = 1; id <= 16; id++) {
            ticker.advance(random.nextDouble() < 0.5 ? 10_000_000L : random.nextLong(400_000_000L));
            Map<String, String> headers = new LinkedHashMap<>();
            int status = handle(limiter, decision, headers);
            String at = String.format("t=%4d ms", ticker.read() / 1_000_000L);
            if (status == 429) {
                limited++;
                out.println(at + " call " + id + ": 429, Retry-After " + headers.get("Retry-After") + " s, "
                        + "retry in " + decision.retryAfterNanos() / 1_000_000L + " ms; RateLimit " + headers.get("RateLimit"));
                continue;
            }
            try {
                String result = flakyCall(random, id);
                ok++;
                out.println(at + " call " + id + ": 200 " + result + " (remaining " + decision.remaining() + ")");
            } catch (IOException e) {
                failed++;
                out.println(at + " call " + id + ": granted, failed: " + e.getMessage());
            }
        }
        out.println("summary: " + ok + " ok, " + failed + " failed, " + limited + " rate limited; permits granted "
                + (long) registry.get("levee.ratelimiter.permits").tag("outcome", "granted").functionCounter().count()
                + ", refused "
                + (long) registry.get("levee.ratelimiter.permits").tag("outcome", "rejected").functionCounter().count());
    }

    /** The docs' per-tenant example: a keyed limiter with a free and a gold tier, at most 10,000 tenants. */
    static KeyedRateLimiter<String> tenantLimiter(ManualTicker ticker) {
        RateLimiterConfig free = RateLimiterConfig.builder().rate(2, Duration.ofSeconds(1)).ticker(ticker).build();
        RateLimiterConfig gold = RateLimiterConfig.builder().rate(10, Duration.ofSeconds(1)).ticker(ticker).build();
        return KeyedRateLimiter.<String>builder("per-tenant")
                .defaultConfig(free)
                .tier("gold", gold)
                .tierOf(tenant -> tenant.endsWith("-gold") ? "gold" : "free")
                .maxEntries(10_000)
                .idleTimeout(Duration.ofMinutes(10))
                .build();
    }

    static void perTenantTiers(PrintStream out) {
        out.println("-- keyed: free tenants 2/s, gold tenants 10/s; each tenant sends 6 requests at once");
        ManualTicker ticker = new ManualTicker();
        KeyedRateLimiter<String> limiter = tenantLimiter(ticker);
        for (String tenant : new String[] {"acme", "globex-gold", "initech"}) {
            int granted = 0;
            for (int i = 0; i < 6; i++) {
                if (limiter.tryAcquire(tenant)) {
                    granted++;
                }
            }
            out.println(tenant + ": " + granted + " of 6 granted");
        }
        out.println("summary: " + limiter.size() + " tenants tracked (bound " + limiter.maxEntries() + ")");
    }

    /** A leaky bucket queues callers for up to 300 ms and releases them 100 ms apart; the rest get a 429. */
    static void leakyBucketQueue(PrintStream out) {
        out.println("-- leaky bucket: 10 per second, callers queue up to 300 ms, 6 arrive at once");
        ManualTicker ticker = new ManualTicker();
        RateLimiter limiter = RateLimiter.of("outbound-sms", RateLimiterConfig.builder()
                .algorithm(RateLimitAlgorithm.LEAKY_BUCKET)
                .rate(10, Duration.ofSeconds(1))
                .maxWait(Duration.ofMillis(300))
                .ticker(ticker)
                .sleeper(ticker)
                .build());
        long arrival = ticker.read();
        int sent = 0;
        for (int id = 1; id <= 6; id++) {
            long wait = limiter.reserve(1, arrival, Duration.ofMillis(300).toNanos());
            if (wait >= 0) {
                sent++;
                out.println("message " + id + ": sent at t=" + wait / 1_000_000L + " ms (queued " + wait / 1_000_000L + " ms)");
            } else {
                out.println("message " + id + ": refused, the queue is full; retry in " + (~wait) / 1_000_000L + " ms");
            }
        }
        out.println("summary: " + sent + " sent at a steady 100 ms spacing, " + (6 - sent) + " refused");
    }

    /** An adaptive limiter cuts its rate when the downstream slows and probes back up when it recovers. */
    static void adaptiveRate(PrintStream out) {
        out.println("-- adaptive: 20..200 per second; downstream latency 10 ms, then 60 ms, then 10 ms again");
        ManualTicker ticker = new ManualTicker();
        AdaptiveRateLimiter limiter = AdaptiveRateLimiter.of("recommendations", AdaptiveRateLimiterConfig.builder()
                .minRate(20).maxRate(200).initialRate(100).increaseStep(10)
                .adjustInterval(Duration.ofSeconds(1))
                .ticker(ticker).sleeper(ticker)
                .build());
        Pipeline pipeline = Pipeline.of(limiter);
        long[] latencyMs = {10, 10, 60, 60, 60, 10, 10, 10};
        int refused = 0;
        for (int second = 0; second < latencyMs.length; second++) {
            long latency = latencyMs[second] * 1_000_000L;
            for (int call = 0; call < 50; call++) {
                try {
                    pipeline.execute(() -> ticker.advance(latency));
                } catch (RateLimitedException e) {
                    refused++;
                }
                ticker.advance(Math.max(0L, 20_000_000L - latency));
            }
            out.printf("second %d: latency %d ms -> rate %.1f/s%n", second + 1, latencyMs[second], limiter.currentRate());
        }
        out.println("summary: rate ended at " + limiter.currentRate() + "/s; " + refused + " calls refused");
    }
}
