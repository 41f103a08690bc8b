package dev.levee.loadshed;

import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Maps a request to its priority level, 1 (least) to 10 (most important), the scale of seed 002
 * shared by every shedder and queue of this module. An SPI: implement it for your request type.
 *
 * <pre>{@code
 * RequestClassifier<HttpRequest> classifier = RequestClassifier.seedRules(HttpRequest::path, r -> r.user() != null);
 * try (ContextScope s = RequestPriority.attach(classifier.priority(request))) { ... }
 * }</pre>
 *
 * <p>Implementations must be fast, must not block and should not allocate; a level outside [1, 10] is
 * clamped by the callers ({@link RequestPriority#clamp(int)}).
 *
 * @param <R> the request type
 */
@FunctionalInterface
public interface RequestClassifier<R> {

    /**
     * The request's level.
     *
     * @param request the request
     * @return a level in [1, 10]
     */
    int priority(R request);

    /**
     * Seed 002's rules ({@code _calculate_priority} and {@code _is_high_priority}):
     * <pre>
     *   level = 5
     *   authenticated               → +2
     *   path contains "/checkout"   → +3
     *   path contains "/export" or "/report" → −2
     *   path is "/health" or starts with "/api/payments" → at least 8 (high priority)
     *   clamp to [1, 10]
     * </pre>
     * Allocation-free.
     *
     * @param path the request's path
     * @param authenticated whether the request comes from an authenticated user
     * @param <R> the request type
     * @return the classifier
     */
    static <R> RequestClassifier<R> seedRules(Function<? super R, String> path, Predicate<? super R> authenticated) {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(authenticated, "authenticated");
        return request -> {
            String p = path.apply(request);
            int level = RequestPriority.DEFAULT;
            if (authenticated.test(request)) {
                level += 2;
            }
            if (p != null) {
                if (p.contains("/checkout")) {
                    level += 3;
                }
                if (p.contains("/export") || p.contains("/report")) {
                    level -= 2;
                }
                if (p.equals("/health") || p.startsWith("/api/payments")) {
                    level = Math.max(level, SEED_HIGH_LEVEL);
                }
            }
            return RequestPriority.clamp(level);
        };
    }

    /**
     * The level seed 002's "high priority" requests (health checks, payments) get at least: 8, the
     * first level that weighs HIGH (≥ 75) on seed 000's scale.
     */
    int SEED_HIGH_LEVEL = 8;
}
