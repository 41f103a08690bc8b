package dev.levee.timeout;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.internal.Nanos;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One total time budget spent over a sequence of steps — look up a user, then load their cart, then
 * price it — so that no step can eat the time the others need and the whole never runs past the
 * total.
 *
 * <p><b>Shares.</b> With weights {@code w_0 .. w_{n-1}} and {@code remaining} the time left on the
 * budget when step {@code k} starts:
 * <pre>
 *   rollover (default):  share_k = remaining × w_k / (w_k + ... + w_{n-1})
 *   fixed:               share_k = min(total × w_k / (w_0 + ... + w_{n-1}), remaining)
 *   after the last planned step: share = remaining
 * </pre>
 * With rollover, time a fast step leaves unused is spread over the steps still to come, and the last
 * step gets all that remains. Without it, each step has a fixed cap and leftover time stays unused.
 *
 * <p>The budget is itself bounded by the deadline current when it starts: {@code total} is cut to
 * what remains of it. Each step's share is handed out as a {@link Deadline} to attach around the
 * step (or to map onto a client's timeout).
 *
 * <pre>{@code
 * TimeoutBudget budget = TimeoutBudget.of("checkout", plan);
 * try (ContextScope s = budget.attachNextStep()) { user = users.find(id); }
 * try (ContextScope s = budget.attachNextStep()) { cart = carts.load(user); }
 * }</pre>
 *
 * <p>One budget per request; steps may be taken from any thread, one after another.
 */
public final class TimeoutBudget {
    private final String name;
    private final TimeoutBudgetConfig config;
    private final Deadline deadline;
    private final long totalNanos;
    private final double weightSum;
    private final AtomicInteger stepsTaken = new AtomicInteger();

    private TimeoutBudget(String name, TimeoutBudgetConfig config) {
        this.name = dev.levee.core.internal.Validate.name("TimeoutBudget", name);
        this.config = dev.levee.core.internal.Validate.notNull(dev.levee.core.internal.Validate.describe("TimeoutBudget", name),
                "config", config);
        Deadline own = Deadline.after(config.total(), config.ticker());
        Deadline current = Deadline.currentOrNull();
        this.deadline = own.earlierOf(current);
        this.totalNanos = Math.max(0L, deadline.remainingNanos());
        double sum = 0;
        for (int i = 0; i < config.steps(); i++) {
            sum += config.weight(i);
        }
        this.weightSum = sum;
    }

    /**
     * Starts a budget now: a budget lives for one request, so creating it is starting it.
     *
     * @param name the name, for messages (e.g. the request's operation); not blank
     * @param config the plan, shareable between requests
     * @return the budget, bounded by the current deadline if one is attached
     * @throws dev.levee.core.InvalidConfigException if the name is blank or the config null
     */
    public static TimeoutBudget of(String name, TimeoutBudgetConfig config) {
        return new TimeoutBudget(name, config);
    }

    /**
     * Starts a budget now with the default plan (5 s in one step, seed 003).
     *
     * @param name the name
     * @return the budget
     */
    public static TimeoutBudget ofDefaults(String name) {
        return new TimeoutBudget(name, TimeoutBudgetConfig.defaults());
    }

    /** @return the name */
    public String name() {
        return name;
    }

    /** @return the deadline of the whole budget */
    public Deadline deadline() {
        return deadline;
    }

    /** @return time left on the whole budget, in nanoseconds; zero or negative once spent */
    public long remainingNanos() {
        return deadline.remainingNanos();
    }

    /** @return steps handed out so far */
    public int stepsTaken() {
        return stepsTaken.get();
    }

    /**
     * Hands out the next step's share (see the class comment).
     *
     * @return the share in nanoseconds; zero when the budget is spent
     */
    public long nextStepNanos() {
        int k = stepsTaken.getAndIncrement();
        long remaining = Math.max(0L, deadline.remainingNanos());
        int steps = config.steps();
        if (k >= steps) {
            return remaining;
        }
        double w = config.weight(k);
        if (config.rollover()) {
            double rest = 0;
            for (int j = k; j < steps; j++) {
                rest += config.weight(j);
            }
            return k == steps - 1 ? remaining : (long) (remaining * (w / rest));
        }
        return Math.min((long) (totalNanos * (w / weightSum)), remaining);
    }

    /**
     * Hands out the next step's share as a deadline.
     *
     * @return {@code now + share}, never later than the budget's deadline
     */
    public Deadline nextStep() {
        long share = nextStepNanos();
        return Deadline.at(Nanos.add(deadline.ticker().read(), share), deadline.ticker()).earlierOf(deadline);
    }

    /**
     * Attaches the next step's deadline as the current one, for the duration of the step.
     *
     * @return the scope; close it when the step ends
     */
    public ContextScope attachNextStep() {
        return nextStep().attach();
    }

    @Override
    public String toString() {
        return "TimeoutBudget[remaining=" + remainingNanos() + "ns, stepsTaken=" + stepsTaken.get() + ", " + config
                + "]";
    }
}
