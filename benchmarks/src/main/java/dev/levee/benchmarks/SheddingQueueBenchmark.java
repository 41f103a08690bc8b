package dev.levee.benchmarks;

import dev.levee.loadshed.queue.BoundedChannel;
import dev.levee.loadshed.queue.CoDelQueue;
import dev.levee.loadshed.queue.DeadlineAwareQueue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * One offer and one poll on a queue holding {@value #DEPTH} entries (issue 15), Levee's shedding
 * queues beside the JDK queues they replace, in the same run:
 * <ul>
 *   <li>{@link #codelOfferPoll()} — {@code CoDelQueue} (defaults; stamps each entry with the system
 *       ticker, runs the CoDel sample at each poll) vs {@link #arrayBlockingQueueOfferPoll()};</li>
 *   <li>{@link #deadlineOfferPoll()} — {@code DeadlineAwareQueue} (priority 1–10 cycling, default
 *       5 s deadline: a current-deadline read and a ticker read per offer, one per poll) vs
 *       {@link #priorityBlockingQueueOfferPoll()} (a heap of {@code Integer}s, priority only, no
 *       deadlines);</li>
 *   <li>{@link #channelSendReceive()} — {@code BoundedChannel.trySend} + {@code tryReceive} vs
 *       {@link #arrayBlockingQueueOfferPoll()}.</li>
 * </ul>
 * Every queue holds {@value #DEPTH} entries throughout, so no poll finds it empty; entries are
 * preallocated {@code Integer}s, so any allocation measured is the queue's own. Single-threaded: the
 * uncontended cost; all of them take one lock per operation.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SheddingQueueBenchmark {
    /** Entries held throughout. */
    static final int DEPTH = 64;
    private static final Integer[] ITEMS = new Integer[16];

    static {
        for (int i = 0; i < ITEMS.length; i++) {
            ITEMS[i] = 1000 + i;
        }
    }

    private final CoDelQueue<Integer> codel = CoDelQueue.ofDefaults("bench");
    private final DeadlineAwareQueue<Integer> deadline = DeadlineAwareQueue.ofDefaults("bench");
    private final BoundedChannel<Integer> channel = BoundedChannel.of("bench", 1000);
    private final ArrayBlockingQueue<Integer> abq = new ArrayBlockingQueue<>(1000);
    private final PriorityBlockingQueue<Integer> pbq = new PriorityBlockingQueue<>(1000);
    private int n;

    /** Fills every queue to {@value #DEPTH}. */
    public SheddingQueueBenchmark() {
        for (int i = 0; i < DEPTH; i++) {
            Integer item = ITEMS[i % ITEMS.length];
            codel.offer(item);
            deadline.offer(item, 1 + i % 10);
            channel.trySend(item);
            abq.offer(item);
            pbq.offer(item);
        }
    }

    private Integer next() {
        n = (n + 1) & 15;
        return ITEMS[n];
    }

    /**
     * @return the polled entry
     */
    @Benchmark
    public Integer codelOfferPoll() {
        codel.offer(next());
        return codel.poll();
    }

    /**
     * @return the polled entry
     */
    @Benchmark
    public Integer deadlineOfferPoll() {
        deadline.offer(next(), 1 + n % 10);
        return deadline.poll();
    }

    /**
     * @return the received entry
     */
    @Benchmark
    public Integer channelSendReceive() {
        channel.trySend(next());
        return channel.tryReceive();
    }

    /**
     * @return the polled entry
     */
    @Benchmark
    public Integer arrayBlockingQueueOfferPoll() {
        abq.offer(next());
        return abq.poll();
    }

    /**
     * @return the polled entry
     */
    @Benchmark
    public Integer priorityBlockingQueueOfferPoll() {
        pbq.offer(next());
        return pbq.poll();
    }
}
