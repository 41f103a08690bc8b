package dev.levee.redis.internal;

import dev.levee.ratelimiter.RateLimitAlgorithm;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * One Lua script: its source (a resource beside this class) and its SHA-1, the name {@code EVALSHA}
 * calls it by. The rate limiter's scripts (one per algorithm, {@link #of}) and the idempotency store's
 * ({@link #idempotencyClaim()} and its peers) are loaded once per JVM.
 */
public final class RedisScript {
    private static final Map<RateLimitAlgorithm, RedisScript> SCRIPTS = new EnumMap<>(RateLimitAlgorithm.class);

    static {
        SCRIPTS.put(RateLimitAlgorithm.GCRA, load("gcra", "gcra.lua"));
        SCRIPTS.put(RateLimitAlgorithm.TOKEN_BUCKET, load("tb", "token_bucket.lua"));
        SCRIPTS.put(RateLimitAlgorithm.SLIDING_WINDOW_COUNTER, load("swc", "sliding_window.lua"));
        SCRIPTS.put(RateLimitAlgorithm.FIXED_WINDOW, load("fw", "fixed_window.lua"));
    }

    private static final RedisScript IDEMPOTENCY_CLAIM = load("claim", "idempotency_claim.lua");
    private static final RedisScript IDEMPOTENCY_COMPLETE = load("complete", "idempotency_complete.lua");
    private static final RedisScript IDEMPOTENCY_RELEASE = load("release", "idempotency_release.lua");

    private final String keySuffix;
    private final String source;
    private final String sha;

    private RedisScript(String keySuffix, String source, String sha) {
        this.keySuffix = keySuffix;
        this.source = source;
        this.sha = sha;
    }

    /**
     * Whether Redis runs this algorithm.
     *
     * @param algorithm the algorithm
     * @return true for GCRA, token bucket, sliding-window counter and fixed window
     */
    public static boolean supports(RateLimitAlgorithm algorithm) {
        return SCRIPTS.containsKey(algorithm);
    }

    /**
     * The script of an algorithm.
     *
     * @param algorithm a supported algorithm
     * @return its script
     * @throws IllegalArgumentException if Redis does not run it
     */
    public static RedisScript of(RateLimitAlgorithm algorithm) {
        RedisScript script = SCRIPTS.get(algorithm);
        if (script == null) {
            throw new IllegalArgumentException("no Redis script for " + algorithm);
        }
        return script;
    }

    /**
     * The idempotency store's claim: takes a free key or answers the record found.
     *
     * @return the script
     */
    public static RedisScript idempotencyClaim() {
        return IDEMPOTENCY_CLAIM;
    }

    /**
     * The idempotency store's complete: stores the response if the owner still holds the claim.
     *
     * @return the script
     */
    public static RedisScript idempotencyComplete() {
        return IDEMPOTENCY_COMPLETE;
    }

    /**
     * The idempotency store's release: deletes the claim if the owner still holds it.
     *
     * @return the script
     */
    public static RedisScript idempotencyRelease() {
        return IDEMPOTENCY_RELEASE;
    }

    /**
     * The last part of the keys of this algorithm, so two algorithms never read each other's state.
     *
     * @return e.g. {@code gcra}
     */
    public String keySuffix() {
        return keySuffix;
    }

    /**
     * The Lua source.
     *
     * @return the source
     */
    public String source() {
        return source;
    }

    /**
     * The SHA-1 of the source in lower-case hex, as {@code SCRIPT LOAD} returns it.
     *
     * @return the digest
     */
    public String sha() {
        return sha;
    }

    private static RedisScript load(String keySuffix, String resource) {
        try (InputStream in = RedisScript.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            String source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return new RedisScript(keySuffix, source, sha1(source));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String sha1(String source) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every JVM", e);
        }
    }
}
