package dev.levee.loadshed;

import dev.levee.core.ShedException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * The HTTP answer to a shed request, framework-neutral (seed 002's middleware, seed 004 §17.1): status
 * {@value #STATUS} Service Unavailable, {@code Retry-After} in whole seconds and {@code X-Shed-Reason}
 * with the reason word.
 *
 * <pre>{@code
 * try { ... } catch (ShedException e) {
 *     ShedResponse r = ShedResponse.of(e);
 *     response.setStatus(r.status());
 *     r.writeHeaders(response::setHeader);
 * }
 * }</pre>
 *
 * @param status the HTTP status, {@value #STATUS}
 * @param retryAfterSeconds the {@code Retry-After} value, whole seconds rounded up
 * @param reason the {@code X-Shed-Reason} value, e.g. {@code cpu_high}
 */
public record ShedResponse(int status, long retryAfterSeconds, String reason) {
    /** HTTP 503 Service Unavailable. */
    public static final int STATUS = 503;
    /** The retry-after header. */
    public static final String RETRY_AFTER = "Retry-After";
    /** The reason header. */
    public static final String SHED_REASON = "X-Shed-Reason";
    /** The retry-after hint when a decision carries none (seed 002: {@code 'Retry-After': '5'}). */
    public static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(PriorityShedderConfig.DEFAULT_RETRY_AFTER_SECONDS);

    /**
     * @param status the HTTP status
     * @param retryAfterSeconds seconds, not negative
     * @param reason the reason word, not null
     */
    public ShedResponse {
        Objects.requireNonNull(reason, "reason");
        if (retryAfterSeconds < 0) {
            throw new IllegalArgumentException("retryAfterSeconds must be >= 0 but was " + retryAfterSeconds);
        }
    }

    /**
     * The response for a refusal thrown by any Levee shedder.
     *
     * @param e the refusal
     * @return 503 with the exception's retry-after hint and reason
     */
    public static ShedResponse of(ShedException e) {
        return new ShedResponse(STATUS, e.retryAfterSeconds(), e.reason());
    }

    /**
     * The response for a shedding decision, with seed 002's 5-second hint.
     *
     * @param decision a shedding decision
     * @return 503 with {@code Retry-After: 5}
     */
    public static ShedResponse of(ShedDecision decision) {
        return of(decision, DEFAULT_RETRY_AFTER);
    }

    /**
     * The response for a shedding decision.
     *
     * @param decision a shedding decision
     * @param retryAfter the hint, rounded up to whole seconds
     * @return the response
     */
    public static ShedResponse of(ShedDecision decision, Duration retryAfter) {
        long nanos = Math.max(0L, retryAfter.toNanos());
        return new ShedResponse(STATUS, (nanos + 999_999_999L) / 1_000_000_000L, decision.reason());
    }

    /**
     * Writes {@code Retry-After} and {@code X-Shed-Reason}.
     *
     * @param header receives each (name, value), e.g. {@code response::setHeader}
     */
    public void writeHeaders(BiConsumer<String, String> header) {
        header.accept(RETRY_AFTER, Long.toString(retryAfterSeconds));
        header.accept(SHED_REASON, reason);
    }

    /** @return the two headers, in order */
    public Map<String, String> headers() {
        Map<String, String> m = new LinkedHashMap<>();
        writeHeaders(m::put);
        return m;
    }
}
