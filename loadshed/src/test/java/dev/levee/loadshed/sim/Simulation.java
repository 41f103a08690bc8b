package dev.levee.loadshed.sim;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;

/**
 * A deterministic discrete-event model of an overloadable server, for testing load-shedding
 * policies: same seed, same run, to the nanosecond.
 *
 * <p><b>Model.</b>
 * <pre>
 *  arrivals (Poisson, rate λ) ──▶ admission ──admit──▶ run queue (FIFO, unbounded) ──▶ C workers
 *                                    │ refuse
 *                                    ▼
 *                       front queue (optional) ──on each completion──▶ admission again
 *                                    │ none / full
 *                                    ▼
 *                                rejected
 * </pre>
 * <ul>
 *   <li>The <b>server</b> has {@code capacity} C workers; an admitted request waits in the run queue
 *       (the thread pool's queue, the CPU run queue) for a free worker, then takes its
 *       {@link ServiceTime} of work. Latency therefore grows with queueing: with n admitted and C busy,
 *       a new request waits about {@code (n − C) / C} service times. With an
 *       {@code overloadPenalty} p, work also slows as the backlog grows: a request starting while n
 *       requests are in the server takes {@code service × (1 + p·max(0, n − C)/C)} (GC pressure,
 *       context switches). {@link #setCapacity(int)} changes C mid-run.</li>
 *   <li>Each request has a client <b>deadline</b>, {@code arrival + deadline}. A request served after it
 *       is not goodput (the client gave up) — but the server still spends the work, unless
 *       {@code skipExpiredWork} is set (the handler checks the propagated deadline before starting).</li>
 *   <li><b>Admission</b> is any {@link Admission}: {@link Admission#all()} for the unprotected server,
 *       {@link Admission#gate} for a Levee {@code Gate} built on {@link #ticker()}.</li>
 *   <li>An optional {@link FrontQueue} holds refused requests; after each completion (and every
 *       {@code queueRetryInterval}, if set) the simulation offers queued requests to admission again.
 *       While the queue is not empty, new arrivals join it instead of barging ahead.</li>
 * </ul>
 *
 * <p><b>Time.</b> Events run in time order on the calling thread; before each, the {@link ManualTicker}
 * is moved to the event's time, so a policy reading its own ticker sees the simulated clock.
 *
 * <p><b>Randomness.</b> Arrivals, service times, failures and the tagger each draw from their own
 * {@link RandomSource#seeded(long) seeded} stream derived from {@code seed}, so changing one (e.g. the
 * failure probability) does not reshuffle the others.
 *
 * <p><b>Measuring.</b> {@link #total()} covers the whole run; {@link #measure()} opens a window (stop it
 * with {@link SimStats#stop()}) so a test can skip warm-up and compare phases.
 *
 * <pre>{@code
 * ManualTicker ticker = new ManualTicker();
 * Gate limiter = ...;                                  // built on ticker
 * Simulation sim = Simulation.builder().ticker(ticker).seed(7).capacity(10)
 *         .serviceTime(ServiceTime.uniform(Duration.ofMillis(10), 0.2))
 *         .arrivalRatePerSecond(2_000).deadline(Duration.ofMillis(100))
 *         .admission(Admission.gate(limiter)).build();
 * sim.runFor(Duration.ofSeconds(10));                  // warm up
 * SimStats steady = sim.measure();
 * sim.runFor(Duration.ofSeconds(30));
 * steady.stop();
 * assertThat(steady.goodputFractionOfCapacity()).isGreaterThan(0.9);
 * }</pre>
 *
 * <p>Not thread-safe: one simulation, one thread.
 */
public final class Simulation {
    private static final int ARRIVAL = 0;
    private static final int COMPLETION = 1;
    private static final int ACTION = 2;

    private final ManualTicker ticker;
    private final RandomSource arrivalRandom;
    private final RandomSource serviceRandom;
    private final RandomSource failureRandom;
    private final RandomSource tagRandom;
    private final ServiceTime serviceTime;
    private final long deadlineNanos;
    private final double overloadPenalty;
    private final double failureProbability;
    private final boolean skipExpiredWork;
    private final boolean propagateDeadlines;
    private final @Nullable BiConsumer<SimRequest, RandomSource> tagger;
    private final Admission admission;
    private final @Nullable FrontQueue frontQueue;
    private final Consumer<SimRequest> dropSink = this::droppedInQueue;

    private final PriorityQueue<Event> events = new PriorityQueue<>();
    private final ArrayDeque<SimRequest> runQueue = new ArrayDeque<>();
    private final List<SimStats> recorders = new ArrayList<>();
    private final SimStats total;
    private long eventSeq;
    private long requestSeq;
    private int capacity;
    private int busy;
    private double arrivalRatePerSecond;
    private boolean arrivalScheduled;

    private Simulation(Builder b) {
        this.ticker = b.ticker == null ? new ManualTicker(1_000_000_000_000L) : b.ticker;
        this.arrivalRandom = RandomSource.seeded(b.seed * 31 + 1);
        this.serviceRandom = RandomSource.seeded(b.seed * 31 + 2);
        this.failureRandom = RandomSource.seeded(b.seed * 31 + 3);
        this.tagRandom = RandomSource.seeded(b.seed * 31 + 4);
        this.serviceTime = b.serviceTime;
        this.deadlineNanos = b.deadline.toNanos();
        this.overloadPenalty = b.overloadPenalty;
        this.failureProbability = b.failureProbability;
        this.skipExpiredWork = b.skipExpiredWork;
        this.propagateDeadlines = b.propagateDeadlines;
        this.tagger = b.tagger;
        this.admission = Objects.requireNonNull(b.admission, "admission");
        this.frontQueue = b.frontQueue;
        this.capacity = b.capacity;
        this.arrivalRatePerSecond = b.arrivalRatePerSecond;
        this.total = new SimStats(this, ticker.read());
        recorders.add(total);
        scheduleNextArrival(ticker.read());
        if (b.queueRetryInterval != null && frontQueue != null) {
            every(b.queueRetryInterval, this::drainFrontQueue);
        }
    }

    /** @return a builder with the defaults: capacity 10, 10 ms fixed work, 500/s, deadline 1 s, admit all */
    public static Builder builder() {
        return new Builder();
    }

    // ---------------------------------------------------------------- driving

    /**
     * Runs every event up to {@code now + d}, then leaves the clock there.
     *
     * @param d how long, in virtual time
     */
    public void runFor(Duration d) {
        runUntil(now() + d.toNanos());
    }

    /**
     * Runs every event up to the virtual instant {@code endNanos}, then leaves the clock there.
     *
     * @param endNanos a reading of {@link #ticker()}
     */
    public void runUntil(long endNanos) {
        Event e;
        while ((e = events.peek()) != null && e.time <= endNanos) {
            events.poll();
            moveClockTo(e.time);
            switch (e.type) {
                case ARRIVAL -> arrive(e.time);
                case COMPLETION -> complete(Objects.requireNonNull(e.request), e.time);
                default -> Objects.requireNonNull(e.action).accept(e.time);
            }
        }
        moveClockTo(endNanos);
    }

    /**
     * Runs {@code action} once, {@code delay} from now (e.g. halve the capacity, change the load).
     *
     * @param delay from now, in virtual time
     * @param action what to do
     */
    public void after(Duration delay, Runnable action) {
        schedule(now() + delay.toNanos(), ACTION, null, t -> action.run());
    }

    /**
     * Runs {@code sampler} every {@code period} from now on, with the virtual time (e.g. to record a
     * limiter's limit over time).
     *
     * @param period the sampling period
     * @param sampler receives the virtual time
     */
    public void every(Duration period, LongConsumer sampler) {
        long p = period.toNanos();
        if (p <= 0) {
            throw new IllegalArgumentException("period must be > 0");
        }
        LongConsumer[] self = new LongConsumer[1];
        self[0] = t -> {
            sampler.accept(t);
            schedule(t + p, ACTION, null, self[0]);
        };
        schedule(now() + p, ACTION, null, self[0]);
    }

    /**
     * Starts a measuring window at the current time.
     *
     * @return the window's stats; call {@link SimStats#stop()} to close it
     */
    public SimStats measure() {
        recorders.removeIf(s -> !s.active());
        if (!recorders.contains(total)) {
            recorders.add(total);
        }
        SimStats s = new SimStats(this, now());
        recorders.add(s);
        return s;
    }

    /** @return the stats of the whole run so far */
    public SimStats total() {
        return total;
    }

    // ---------------------------------------------------------------- knobs and readings

    /** @return the simulated clock; build gates on it */
    public ManualTicker ticker() {
        return ticker;
    }

    /** @return the virtual time */
    public long now() {
        return ticker.read();
    }

    /**
     * Changes the number of workers. Lowering it lets running requests finish; no new one starts while
     * {@code busy >= capacity}.
     *
     * @param newCapacity at least 1
     */
    public void setCapacity(int newCapacity) {
        if (newCapacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1");
        }
        this.capacity = newCapacity;
        startWork(now());
    }

    /** @return the number of workers now */
    public int capacity() {
        return capacity;
    }

    /**
     * Changes the offered load.
     *
     * @param perSecond mean arrivals per second of virtual time, {@code >= 0}
     */
    public void setArrivalRate(double perSecond) {
        if (!(perSecond >= 0)) {
            throw new IllegalArgumentException("rate must be >= 0");
        }
        this.arrivalRatePerSecond = perSecond;
        if (!arrivalScheduled) {
            scheduleNextArrival(now());
        }
    }

    /** @return mean arrivals per second now */
    public double arrivalRatePerSecond() {
        return arrivalRatePerSecond;
    }

    /** @return the most the server can finish per second at its current capacity: C / mean work */
    public double capacityThroughputPerSecond() {
        return capacity * 1e9 / serviceTime.meanNanos();
    }

    /** @return workers busy now */
    public int busy() {
        return busy;
    }

    /** @return admitted requests waiting for a worker now */
    public int runQueueLength() {
        return runQueue.size();
    }

    /** @return admitted requests not yet ended: busy + run queue */
    public int inServer() {
        return busy + runQueue.size();
    }

    /** @return requests in the front queue now (0 without one) */
    public int frontQueueLength() {
        return frontQueue == null ? 0 : frontQueue.size();
    }

    // ---------------------------------------------------------------- the model

    private void arrive(long now) {
        arrivalScheduled = false;
        SimRequest r = new SimRequest(requestSeq++, now, now + deadlineNanos);
        if (tagger != null) {
            tagger.accept(r, tagRandom);
        }
        for (SimStats s : recorders) {
            if (s.active()) {
                s.offered++;
            }
        }
        if (frontQueue != null && frontQueue.size() > 0) {
            enqueue(r, now);
            drainFrontQueue(now);
        } else if (tryAdmit(r, now)) {
            admit(r, now);
        } else if (frontQueue != null) {
            enqueue(r, now);
        } else {
            end(r, SimRequest.Fate.REJECTED, now);
        }
        scheduleNextArrival(now);
    }

    private void enqueue(SimRequest r, long now) {
        if (!Objects.requireNonNull(frontQueue).offer(r, now, dropSink)) {
            end(r, SimRequest.Fate.REJECTED, now);
        }
    }

    private boolean tryAdmit(SimRequest r, long now) {
        if (!propagateDeadlines) {
            return admission.tryAdmit(r, now);
        }
        try (ContextScope scope = Deadline.at(r.deadlineNanos, ticker).attach()) {
            return admission.tryAdmit(r, now);
        }
    }

    private void admit(SimRequest r, long now) {
        r.admittedNanos = now;
        for (SimStats s : recorders) {
            if (s.active()) {
                s.admitted++;
            }
        }
        runQueue.addLast(r);
        startWork(now);
    }

    private void startWork(long now) {
        while (busy < capacity && !runQueue.isEmpty()) {
            SimRequest r = runQueue.pollFirst();
            if (skipExpiredWork && now >= r.deadlineNanos) {
                end(r, SimRequest.Fate.SKIPPED_EXPIRED, now);
                admission.onComplete(r, now);
                continue;
            }
            int n = busy + runQueue.size() + 1;
            double slowdown = 1.0 + overloadPenalty * Math.max(0, n - capacity) / (double) capacity;
            r.serviceNanos = Math.max(1L, (long) (serviceTime.sample(serviceRandom) * slowdown));
            r.startNanos = now;
            busy++;
            schedule(now + r.serviceNanos, COMPLETION, r, null);
        }
    }

    private void complete(SimRequest r, long now) {
        busy--;
        boolean failed = failureProbability > 0 && failureRandom.nextDouble() < failureProbability;
        end(r, failed ? SimRequest.Fate.FAILED : SimRequest.Fate.COMPLETED, now);
        admission.onComplete(r, now);
        startWork(now);
        drainFrontQueue(now);
    }

    private void drainFrontQueue(long now) {
        if (frontQueue == null) {
            return;
        }
        SimRequest r;
        while ((r = frontQueue.next(now, dropSink)) != null) {
            if (now > r.deadlineNanos) {
                end(r, SimRequest.Fate.EXPIRED_IN_QUEUE, now);
                continue;
            }
            if (!tryAdmit(r, now)) {
                frontQueue.putBack(r);
                return;
            }
            admit(r, now);
        }
    }

    private void droppedInQueue(SimRequest r) {
        end(r, SimRequest.Fate.DROPPED_IN_QUEUE, now());
    }

    private void end(SimRequest r, SimRequest.Fate fate, long now) {
        r.fate = fate;
        r.endNanos = now;
        for (SimStats s : recorders) {
            if (s.active()) {
                s.recordEnd(r);
            }
        }
    }

    private void scheduleNextArrival(long now) {
        double rate = arrivalRatePerSecond;
        if (rate <= 0) {
            return;
        }
        double gapSeconds = -Math.log(1.0 - arrivalRandom.nextDouble()) / rate;
        schedule(now + Math.max(1L, (long) (gapSeconds * 1e9)), ARRIVAL, null, null);
        arrivalScheduled = true;
    }

    private void schedule(long time, int type, @Nullable SimRequest r, @Nullable LongConsumer action) {
        events.add(new Event(time, eventSeq++, type, r, action));
    }

    private void moveClockTo(long time) {
        long delta = time - ticker.read();
        if (delta > 0) {
            ticker.advance(delta);
        }
    }

    private static final class Event implements Comparable<Event> {
        final long time;
        final long seq;
        final int type;
        final @Nullable SimRequest request;
        final @Nullable LongConsumer action;

        Event(long time, long seq, int type, @Nullable SimRequest request, @Nullable LongConsumer action) {
            this.time = time;
            this.seq = seq;
            this.type = type;
            this.request = request;
            this.action = action;
        }

        @Override
        public int compareTo(Event o) {
            int c = Long.compare(time, o.time);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    /** Configures a {@link Simulation}. */
    public static final class Builder {
        private @Nullable ManualTicker ticker;
        private long seed = 1;
        private int capacity = 10;
        private ServiceTime serviceTime = ServiceTime.fixed(Duration.ofMillis(10));
        private double arrivalRatePerSecond = 500;
        private Duration deadline = Duration.ofSeconds(1);
        private double overloadPenalty;
        private double failureProbability;
        private boolean skipExpiredWork;
        private boolean propagateDeadlines;
        private @Nullable BiConsumer<SimRequest, RandomSource> tagger;
        private Admission admission = Admission.all();
        private @Nullable FrontQueue frontQueue;
        private @Nullable Duration queueRetryInterval;

        private Builder() {}

        /**
         * The clock (default a fresh {@link ManualTicker} starting at 1000 s, far from zero).
         *
         * @param ticker the ticker the policies under test are built on
         * @return this builder
         */
        public Builder ticker(ManualTicker ticker) {
            this.ticker = ticker;
            return this;
        }

        /**
         * The seed every random stream derives from (default 1).
         *
         * @param seed the seed
         * @return this builder
         */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /**
         * Workers: requests served at once at full speed (default 10).
         *
         * @param capacity at least 1
         * @return this builder
         */
        public Builder capacity(int capacity) {
            if (capacity < 1) {
                throw new IllegalArgumentException("capacity must be >= 1");
            }
            this.capacity = capacity;
            return this;
        }

        /**
         * Work per request (default fixed 10 ms).
         *
         * @param serviceTime the distribution
         * @return this builder
         */
        public Builder serviceTime(ServiceTime serviceTime) {
            this.serviceTime = Objects.requireNonNull(serviceTime);
            return this;
        }

        /**
         * Offered load: mean Poisson arrivals per second (default 500).
         *
         * @param perSecond at least 0
         * @return this builder
         */
        public Builder arrivalRatePerSecond(double perSecond) {
            this.arrivalRatePerSecond = perSecond;
            return this;
        }

        /**
         * Offered load as a multiple of the server's capacity throughput ({@code C / mean work}); call
         * after {@link #capacity} and {@link #serviceTime}.
         *
         * @param multiple e.g. 2.0 for twice what the server can do
         * @return this builder
         */
        public Builder offeredLoad(double multiple) {
            this.arrivalRatePerSecond = multiple * capacity * 1e9 / serviceTime.meanNanos();
            return this;
        }

        /**
         * Each client's deadline, from its arrival (default 1 s).
         *
         * @param deadline positive
         * @return this builder
         */
        public Builder deadline(Duration deadline) {
            this.deadline = Objects.requireNonNull(deadline);
            return this;
        }

        /**
         * How much work slows per unit of backlog (default 0): service × (1 + p·max(0, n − C)/C).
         *
         * @param penalty at least 0
         * @return this builder
         */
        public Builder overloadPenalty(double penalty) {
            this.overloadPenalty = penalty;
            return this;
        }

        /**
         * Probability that a served request fails (default 0).
         *
         * @param probability in [0, 1]
         * @return this builder
         */
        public Builder failureProbability(double probability) {
            this.failureProbability = probability;
            return this;
        }

        /**
         * Whether a worker skips a request whose deadline passed before it started (default false: the
         * server wastes the work, as most servers do).
         *
         * @param skip true to skip
         * @return this builder
         */
        public Builder skipExpiredWork(boolean skip) {
            this.skipExpiredWork = skip;
            return this;
        }

        /**
         * Whether admission runs with the request's deadline attached as the current
         * {@link Deadline} (default false).
         *
         * @param propagate true to attach
         * @return this builder
         */
        public Builder propagateDeadlines(boolean propagate) {
            this.propagateDeadlines = propagate;
            return this;
        }

        /**
         * Sets each request's priority / key at arrival, from its own seeded stream.
         *
         * @param tagger e.g. {@code (r, rnd) -> r.key(rnd.nextDouble() < 0.7 ? "checkout" : "search")}
         * @return this builder
         */
        public Builder tagger(BiConsumer<SimRequest, RandomSource> tagger) {
            this.tagger = tagger;
            return this;
        }

        /**
         * The policy under test (default {@link Admission#all()}).
         *
         * @param admission the admission
         * @return this builder
         */
        public Builder admission(Admission admission) {
            this.admission = Objects.requireNonNull(admission);
            return this;
        }

        /**
         * A queue for refused requests (default none: refused means rejected).
         *
         * @param queue the queue
         * @return this builder
         */
        public Builder frontQueue(FrontQueue queue) {
            this.frontQueue = queue;
            return this;
        }

        /**
         * Also offer front-queued requests to admission this often, not only after completions (for
         * time-driven admission such as a rate limiter). Default: only after completions.
         *
         * @param interval the period
         * @return this builder
         */
        public Builder queueRetryInterval(Duration interval) {
            this.queueRetryInterval = interval;
            return this;
        }

        /** @return the simulation, with its first arrival scheduled */
        public Simulation build() {
            return new Simulation(this);
        }
    }
}
