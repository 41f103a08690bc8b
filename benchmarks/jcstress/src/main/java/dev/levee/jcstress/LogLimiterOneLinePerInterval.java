package dev.levee.jcstress;

import dev.levee.degrade.internal.LogLimiter;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;

/**
 * The degrade module's log limiter (one WARN per 10 s for bypassed coalescer calls and fallbacks), a
 * fresh one: two callers ask to log at the same instant. Exactly one line goes through and the other
 * is held; the held line is reported exactly once: by the next line, one interval later, or (when it
 * was counted before the winner read the count, as the class documents) by the winner itself. Never
 * two lines in an interval, never a held line lost or reported twice.
 */
@JCStressTest
@Description("LogLimiter: one line per interval under racing callers; every held line reported exactly once")
@Outcome(id = {"0, -1, 1", "-1, 0, 1"}, expect = Expect.ACCEPTABLE, desc = "one line, one held, reported by the next line")
@Outcome(id = {"1, -1, 0", "-1, 1, 0"}, expect = Expect.ACCEPTABLE, desc = "one line, one held, counted before the winner read the count")
@Outcome(expect = Expect.FORBIDDEN, desc = "two lines in one interval, none, or a held line lost or counted twice")
@State
public class LogLimiterOneLinePerInterval {
    private static final long INTERVAL = 10_000_000_000L;
    private final LogLimiter limiter = new LogLimiter(INTERVAL, 0L);

    @Actor
    public void first(JJJ_Result r) {
        r.r1 = limiter.tryLog(0L);
    }

    @Actor
    public void second(JJJ_Result r) {
        r.r2 = limiter.tryLog(0L);
    }

    @Arbiter
    public void next(JJJ_Result r) {
        r.r3 = limiter.tryLog(INTERVAL);
    }
}
