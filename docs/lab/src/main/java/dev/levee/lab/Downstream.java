package dev.levee.lab;

import dev.levee.core.RandomSource;
import dev.levee.core.Scheduler;
import dev.levee.core.ShedException;
import dev.levee.core.Ticker;
import dev.levee.loadshed.ConcurrencyLimiter;
import dev.levee.loadshed.ConcurrencyLimiterConfig;
import dev.levee.loadshed.PriorityShedder;
import dev.levee.loadshed.PriorityShedderConfig;
import dev.levee.loadshed.ShedDecision;
import dev.levee.loadshed.limit.LatencyAimdLimit;
import dev.levee.loadshed.queue.CoDelQueue;
import dev.levee.loadshed.queue.CoDelQueueConfig;
import dev.levee.loadshed.queue.DropReason;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The service under test, independent of transport: {@code workers} workers, each serving one request
 * at a time, and a queue in front of them. Work is a timer on the {@link Scheduler} (no CPU is burnt),
 * so the same code runs on real time behind {@link HttpDownstream} and on virtual time in the
 * simulation.
 *
 * <p><b>Latency model.</b> A request takes the base service time, +/-10%, times the phase's factor
 * (slow phase), times a contention factor {@code 1 + contention * min(1, max(0, queued - 2 * workers) /
 * (10 * workers))}: a long queue makes every request slower (memory, GC, connection handling), which is
 * what turns an overload into a metastable failure.
 *
 * <p><b>Unprotected</b>: a FIFO accept queue of {@link LabSettings#queueBound()}, no other check; it
 * works on requests whose callers left long ago. <b>Protected</b> (Levee's loadshed module, through the
 * permit protocol): the deadline header (less than 1.5 service times left: refused), a
 * {@link PriorityShedder} on the limiter's load (low priorities go first), an adaptive
 * {@link ConcurrencyLimiter} (latency AIMD) and a {@link CoDelQueue} with adaptive LIFO in front of the
 * workers; a request whose deadline passed while queued is dropped before any work.
 */
final class Downstream {
    private final LabSettings settings;
    private final boolean protect;
    private final Ticker ticker;
    private final Scheduler scheduler;
    private final RandomSource random;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Job> fifo = new ArrayDeque<>();
    private final CoDelQueue<Job> codel;
    private final ConcurrencyLimiter limiter;
    private final PriorityShedder priority;
    /** CoDel drops found while polling under {@link #lock}; answered after it is released. */
    private final List<Job> dropped = new ArrayList<>();
    private final Map<String, Long> shedCounts = new TreeMap<>();
    private int busy;
    private volatile ServerMode mode = ServerMode.NORMAL;

    Downstream(LabSettings settings, boolean protect, Ticker ticker, Scheduler scheduler, RandomSource random) {
        this.settings = settings;
        this.protect = protect;
        this.ticker = ticker;
        this.scheduler = scheduler;
        this.random = random;
        long target = settings.serviceNanos() * 6 / 5;
        this.limiter = ConcurrencyLimiter.of("downstream", ConcurrencyLimiterConfig.builder()
                .algorithm(() -> LatencyAimdLimit.builder()
                        .initialLimit(2 * settings.workers())
                        .minLimit(settings.workers())
                        .maxLimit(3 * settings.workers())
                        .target(Duration.ofNanos(target))
                        .build())
                .ticker(ticker)
                .build());
        this.priority = PriorityShedder.of("downstream", PriorityShedderConfig.builder()
                .load(limiter.loadSignal())
                .ticker(ticker)
                .build());
        this.codel = CoDelQueue.of("downstream", CoDelQueueConfig.builder()
                .target(Duration.ofNanos(settings.serviceNanos() / 4))
                .interval(Duration.ofNanos(settings.serviceNanos() * 2))
                .maxSize(2 * settings.workers())
                .adaptiveLifo(true)
                .ticker(ticker)
                .build(), (job, reason) -> {
                    if (reason != DropReason.QUEUE_FULL) {
                        dropped.add(job);
                    }
                });
    }

    void mode(ServerMode mode) {
        this.mode = mode;
    }

    /** Requests inside the server: working and queued. */
    int inflight() {
        lock.lock();
        try {
            return busy + queued();
        } finally {
            lock.unlock();
        }
    }

    /** The adaptive limit, or -1 when unprotected. */
    int limit() {
        return protect ? limiter.limit() : -1;
    }

    /** Requests refused so far, by reason. */
    Map<String, Long> shedCounts() {
        lock.lock();
        try {
            return new TreeMap<>(shedCounts);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Handles one attempt. {@code reply} is called exactly once, on this thread (a refusal) or later on
     * the scheduler's thread.
     */
    void handle(Request request, Consumer<Reply> reply) {
        long now = ticker.read();
        Job job = new Job(request, reply, now, now + request.remainingNanos());
        String refusal = protect ? admit(request, now) : null;
        if (refusal != null) {
            refuse(job, refusal);
            return;
        }
        job.permit = protect;
        boolean start = false;
        boolean full = false;
        lock.lock();
        try {
            if (busy < settings.workers()) {
                busy++;
                start = true;
            } else if (protect) {
                full = !codel.offer(job);
            } else if (fifo.size() < settings.queueBound()) {
                fifo.add(job);
            } else {
                full = true;
            }
        } finally {
            lock.unlock();
        }
        if (full) {
            if (job.permit) {
                limiter.onIgnored();
            }
            refuse(job, "queue_full");
        } else if (start && !begin(job)) {
            release();
        }
    }

    /** The protected server's admission: deadline header, priority, adaptive concurrency limit. */
    private String admit(Request request, long now) {
        if (request.remainingNanos() < minimumRemaining()) {
            return "deadline";
        }
        ShedDecision decision = priority.decide(request.priority(), now);
        if (decision.isShed()) {
            return decision.reason();
        }
        return limiter.tryAcquire(now) ? null : ConcurrencyLimiter.REASON;
    }

    /**
     * The time a request must still have to be worth starting: one and a half service times (the service
     * time varies by 10%, the answer still has to travel, and a late answer is wasted work).
     */
    private long minimumRemaining() {
        return settings.serviceNanos() * 3 / 2;
    }

    private void refuse(Job job, String reason) {
        lock.lock();
        try {
            shedCounts.merge(reason, 1L, Long::sum);
        } finally {
            lock.unlock();
        }
        job.reply.accept(Reply.shed(reason));
    }

    /** A worker takes {@code job}: false if it was dropped at once (its deadline passed in the queue). */
    private boolean begin(Job job) {
        long now = ticker.read();
        if (protect && job.deadline - now < minimumRemaining()) {
            limiter.onIgnored();
            refuse(job, "deadline");
            return false;
        }
        ServerMode m = mode;
        long service = (long) (settings.serviceNanos() * (0.9 + 0.2 * random.nextDouble()) * contentionFactor());
        Reply outcome = Reply.OK;
        if (m == ServerMode.SLOW) {
            service = (long) (service * settings.slowFactor());
        } else if (m == ServerMode.FAILING && random.nextDouble() < settings.failingRatio()) {
            service = service / 4;
            outcome = Reply.ERROR;
        } else if (m == ServerMode.OUTAGE) {
            service = settings.outageHangNanos();
            outcome = Reply.ERROR;
        }
        Reply answer = outcome;
        scheduler.schedule(() -> finish(job, answer), service);
        return true;
    }

    private double contentionFactor() {
        int queued;
        lock.lock();
        try {
            queued = queued();
        } finally {
            lock.unlock();
        }
        double excess = Math.max(0, queued - 2 * settings.workers()) / (10.0 * settings.workers());
        return 1 + settings.contention() * Math.min(1, excess);
    }

    private int queued() {
        return protect ? codel.size() : fifo.size();
    }

    private void finish(Job job, Reply answer) {
        if (job.permit) {
            long latency = ticker.read() - job.arrival;
            if (answer.status() == 200 || mode == ServerMode.FAILING) {
                limiter.onSuccess(latency);          // an application error says nothing about overload
            } else {
                limiter.onFailure(latency, new ShedException("dependency", "the dependency timed out", 0L));
            }
        }
        job.reply.accept(answer);
        release();
    }

    /** A worker is free: it takes the next queued job (CoDel may drop some on the way). */
    private void release() {
        while (true) {
            Job next;
            List<Job> drops;
            lock.lock();
            try {
                busy--;
                next = protect ? codel.poll() : fifo.poll();
                if (next != null) {
                    busy++;
                }
                drops = dropped.isEmpty() ? List.of() : new ArrayList<>(dropped);
                dropped.clear();
            } finally {
                lock.unlock();
            }
            for (Job d : drops) {
                limiter.onIgnored();
                refuse(d, "codel");
            }
            if (next == null || begin(next)) {
                return;
            }
        }
    }

    /** One attempt inside the server. */
    private static final class Job {
        final Request request;
        final Consumer<Reply> reply;
        final long arrival;
        final long deadline;
        boolean permit;

        Job(Request request, Consumer<Reply> reply, long arrival, long deadline) {
            this.request = request;
            this.reply = reply;
            this.arrival = arrival;
            this.deadline = deadline;
        }

        @Override
        public String toString() {
            return "Job[" + request.id() + "/" + request.attempt() + "]";
        }
    }
}
