package dev.levee.health.internal;

import dev.levee.health.HealthStatus;

/**
 * The reported status of one check: it moves to a worse status after {@code toWorsen} observations
 * in a row worse than the reported one, to a better status after {@code toRecover} in a row better
 * than it; it then takes the latest observation. The first observation is reported as it is. Not
 * thread-safe: the owner holds its lock.
 */
final class Hysteresis {
    private final int toWorsen;
    private final int toRecover;
    private HealthStatus reported = HealthStatus.HEALTHY;
    private boolean observed;
    /** -1 better than reported, +1 worse, 0 none; the side the current streak is on. */
    private int side;
    private int streak;

    Hysteresis(int toWorsen, int toRecover) {
        this.toWorsen = toWorsen;
        this.toRecover = toRecover;
    }

    HealthStatus reported() {
        return reported;
    }

    HealthStatus observe(HealthStatus status) {
        if (!observed) {
            observed = true;
            reported = status;
            return status;
        }
        int s = Integer.signum(status.ordinal() - reported.ordinal());
        if (s == 0) {
            side = 0;
            streak = 0;
            return reported;
        }
        if (s != side) {
            side = s;
            streak = 0;
        }
        streak++;
        if (streak >= (s > 0 ? toWorsen : toRecover)) {
            reported = status;
            side = 0;
            streak = 0;
        }
        return reported;
    }

    /** Results still needed on the current side before the reported status moves. */
    int pending() {
        return side == 0 ? 0 : (side > 0 ? toWorsen : toRecover) - streak;
    }
}
