package dev.levee.loadshed;

import dev.levee.core.ContextScope;

/**
 * The priority of the request the current thread is serving, on the 1 (least) to 10 (most important)
 * scale of seed 002, for shedders used as {@link dev.levee.core.Gate}s (which see no request). Set it
 * where the request is classified; without one, a request is {@value #DEFAULT} (normal).
 *
 * <pre>{@code
 * try (ContextScope s = RequestPriority.attach(classifier.priority(request))) {
 *     pipeline.execute(() -> handle(request));
 * }
 * }</pre>
 *
 * <p>On the scale of seed 000's priority shedder a level {@code L} weighs {@code 10·L}: level 5 is
 * NORMAL (50), 8 is HIGH (≥ 75), 10 is CRITICAL (100), 1–2 are below LOW (25).
 */
public final class RequestPriority {
    /** The least important level. */
    public static final int MIN = 1;
    /** The most important level. */
    public static final int MAX = 10;
    /** The level of an unclassified request (seed 002: {@code priority = 5}). */
    public static final int DEFAULT = 5;

    private static final ThreadLocal<int[]> CURRENT = ThreadLocal.withInitial(() -> new int[] {DEFAULT});

    private RequestPriority() {}

    /**
     * The current thread's request priority.
     *
     * @return a level in [1, 10]; {@value #DEFAULT} when none is attached
     */
    public static int current() {
        return CURRENT.get()[0];
    }

    /**
     * Sets the current thread's request priority until the scope closes (close on the same thread).
     *
     * @param level the level; clamped into [1, 10]
     * @return the scope restoring the previous level
     */
    public static ContextScope attach(int level) {
        int[] holder = CURRENT.get();
        int previous = holder[0];
        holder[0] = clamp(level);
        return () -> holder[0] = previous;
    }

    /**
     * Clamps a level into [1, 10], as seed 002's classifier does.
     *
     * @param level any int
     * @return the level in [1, 10]
     */
    public static int clamp(int level) {
        return Math.max(MIN, Math.min(MAX, level));
    }
}
