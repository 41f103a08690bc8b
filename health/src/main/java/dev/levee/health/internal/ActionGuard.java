package dev.levee.health.internal;

import dev.levee.core.internal.Nanos;
import java.util.ArrayDeque;
import org.jspecify.annotations.Nullable;

/**
 * The watchdog's restart-loop guard: at most {@code maxActions} actions in any window of
 * {@code windowNanos}, and after the k-th action of the window no other before
 * {@code min(window, initialBackoff × 2^(k−1))} has passed. Not thread-safe: the owner holds its lock.
 */
public final class ActionGuard {
    private final int maxActions;
    private final long windowNanos;
    private final long initialBackoffNanos;
    private final ArrayDeque<Long> taken = new ArrayDeque<>();
    private long nextAllowed;
    private boolean any;

    /**
     * @param maxActions the cap per window
     * @param windowNanos the window
     * @param initialBackoffNanos the wait after the first action of a window
     */
    public ActionGuard(int maxActions, long windowNanos, long initialBackoffNanos) {
        this.maxActions = maxActions;
        this.windowNanos = windowNanos;
        this.initialBackoffNanos = initialBackoffNanos;
    }

    /**
     * Asks for an action at {@code now}; records it if allowed.
     *
     * @param now the ticker reading
     * @return null if allowed (and recorded), else why not
     */
    public @Nullable String tryAct(long now) {
        while (!taken.isEmpty() && now - taken.peekFirst() >= windowNanos) {
            taken.pollFirst();
        }
        if (taken.size() >= maxActions) {
            return maxActions + " actions already in the last " + java.time.Duration.ofNanos(windowNanos);
        }
        if (any && now - nextAllowed < 0) {
            return "backing off for " + java.time.Duration.ofNanos(nextAllowed - now);
        }
        taken.addLast(now);
        any = true;
        int k = taken.size();
        long backoff = k - 1 >= 62 ? Long.MAX_VALUE : initialBackoffNanos << (k - 1);
        if (backoff < 0 || (initialBackoffNanos > 0 && backoff >> (k - 1) != initialBackoffNanos)) {
            backoff = Long.MAX_VALUE; // shifted past the top
        }
        nextAllowed = Nanos.add(now, Math.min(windowNanos, backoff));
        return null;
    }

    /**
     * Actions recorded in the window ending at the last request.
     *
     * @return the count
     */
    public int inWindow() {
        return taken.size();
    }
}
