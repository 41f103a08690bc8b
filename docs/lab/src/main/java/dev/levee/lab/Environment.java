package dev.levee.lab;

import dev.levee.core.Scheduler;
import dev.levee.core.Ticker;
import java.io.IOException;
import java.util.concurrent.Executor;

/** Where a run happens: real time over loopback HTTP, or virtual time with a simulated network. */
interface Environment extends AutoCloseable {
    /** "real" or "simulated", for the report. */
    String kind();

    Ticker ticker();

    Scheduler scheduler();

    /** The timers and threads of one configuration (its own, in a real run, so one lane's load cannot queue behind another's). */
    Resources resources(String lane);

    /** Serves {@code downstream} and returns the transport that reaches it, using the lane's threads. */
    Transport connect(Downstream downstream, Resources resources) throws IOException;

    /**
     * One configuration's timers and threads.
     *
     * @param scheduler its timers (service completions, timeouts, backoffs)
     * @param executor runs its clients' work (starting calls, later attempts); direct in the simulation
     * @param serverExecutor runs its server's request handling and replies
     */
    record Resources(Scheduler scheduler, Executor executor, Executor serverExecutor) {}

    /** Lets time pass until {@code run} says it is over (or a safety bound passes). */
    void await(Lab run) throws InterruptedException;

    @Override
    void close();
}
