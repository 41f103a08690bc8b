package dev.levee.core;

import java.util.concurrent.TimeUnit;

/** Real sleeping through {@link TimeUnit#sleep}, which checks the interrupt flag first. */
enum SystemSleeper implements Sleeper {
    INSTANCE;

    @Override
    public void sleep(long nanos) throws InterruptedException {
        if (nanos <= 0) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            return;
        }
        TimeUnit.NANOSECONDS.sleep(nanos);
    }

    @Override
    public String toString() {
        return "Sleeper.system()";
    }
}
