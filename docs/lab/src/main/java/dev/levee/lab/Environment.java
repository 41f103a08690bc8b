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

    /** Runs the clients' work (starting calls, later attempts); direct in the simulation. */
    Executor executor();

    /** Serves {@code downstream} and returns the transport that reaches it. */
    Transport connect(Downstream downstream) throws IOException;

    /** Lets time pass until {@code run} says it is over (or a safety bound passes). */
    void await(Lab run) throws InterruptedException;

    @Override
    void close();
}
