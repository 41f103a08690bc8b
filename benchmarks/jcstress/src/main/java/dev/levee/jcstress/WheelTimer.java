package dev.levee.jcstress;

import dev.levee.timeout.internal.TimerWheel;
import java.util.concurrent.atomic.AtomicInteger;

/** A wheel timer that counts its expiries. */
final class WheelTimer extends TimerWheel.Timer {
    final AtomicInteger fired = new AtomicInteger();

    @Override
    protected void expire() {
        fired.incrementAndGet();
    }
}
