package dev.levee.health;

/**
 * What a {@link Watchdog} does on a sustained breach. It runs on the watchdog's scheduler thread, so
 * it must be short; a long action should hand off to its own thread. An exception it throws is logged
 * at ERROR and counted; the watchdog keeps sampling.
 */
@FunctionalInterface
public interface WatchdogAction {

    /**
     * Acts on a sustained breach.
     *
     * @param breach the signal that breached, its reading and threshold
     * @throws Exception if the action failed
     */
    void act(WatchdogEvent.Breached breach) throws Exception;

    /**
     * The default: mark the watchdog's readiness check ({@link Watchdog#readinessCheck()}) UNHEALTHY
     * until the signals recover, and let the orchestrator act (take the instance out of rotation, or
     * replace it). The watchdog recognises this action; it has no effect on its own.
     *
     * @return the action
     */
    static WatchdogAction markUnready() {
        return MarkUnready.INSTANCE;
    }

    /**
     * Exit the JVM with {@code status} so a supervisor restarts it; {@link Runtime#exit} runs on a new
     * thread named {@code levee-watchdog-exit} so the scheduler thread is not held by shutdown hooks.
     *
     * @param status the exit status
     * @return the action
     */
    static WatchdogAction exit(int status) {
        return breach -> {
            Thread t = new Thread(() -> Runtime.getRuntime().exit(status), "levee-watchdog-exit");
            t.start();
        };
    }

    /** The marker behind {@link #markUnready()}. */
    enum MarkUnready implements WatchdogAction {
        /** The one instance. */
        INSTANCE;

        @Override
        public void act(WatchdogEvent.Breached breach) {
            // The watchdog handles this action itself.
        }
    }
}
