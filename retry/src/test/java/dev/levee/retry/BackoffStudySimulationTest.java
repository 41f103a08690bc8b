package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A reproduction of the simulation behind the AWS Architecture Blog's "Exponential Backoff and Jitter"
 * (Marc Brooker, 2015), on manual time with seeded randomness, using Levee's own {@link Jitter}s.
 *
 * <p>The model is the study's: {@code clients} clients each update one row of an optimistic-concurrency
 * server exactly once. A client reads the row's version, then writes with that version; the write
 * succeeds only if nobody wrote in between, else the client backs off and starts over with a fresh
 * read. Every message takes a network delay of {@code |N(10 ms, 2 ms)|}. The backoff before retry
 * {@code n} is {@code min(cap, base · 2^n)} with {@code base = 5 ms} and {@code cap = 2 s}, randomised
 * by the jitter (decorrelated jitter uses only {@code base}, {@code cap} and the previous delay). "Work"
 * is the writes the server handled (its calls), "time" is when the last client finished; both are
 * averaged over {@value #RUNS} runs.
 *
 * <p>With 100 clients, full jitter does the least work; decorrelated jitter does about 25% more work
 * than full jitter and finishes sooner; equal jitter does more work than both; exponential backoff
 * without jitter does several times the work of full jitter. {@code docs/retry.md} quotes the figures
 * this test prints.
 */
class BackoffStudySimulationTest {
    private static final long MS = 1_000_000L;
    private static final long BASE = 5 * MS;
    private static final long CAP = 2_000 * MS;
    private static final int CLIENTS = 100;
    private static final int RUNS = 100;

    /** One strategy: a name, a jitter, and whether it backs off at all. */
    private record Strategy(String name, Jitter jitter, boolean backsOff) {}

    /** Mean work and completion time of one strategy. */
    private record Result(String name, double calls, double millis) {}

    /** A message in flight: when it arrives, at whom, and what it carries. */
    private record Event(long at, long seq, int client, Kind kind, long version) implements Comparable<Event> {
        @Override
        public int compareTo(Event other) {
            int byTime = Long.compare(at, other.at);
            return byTime != 0 ? byTime : Long.compare(seq, other.seq);
        }
    }

    private enum Kind { READ, READ_REPLY, WRITE, WRITE_REPLY_OK, WRITE_REPLY_CONFLICT }

    /** One run of the study: returns {calls, completion time in ns}. */
    private static long[] run(Strategy strategy, SplittableRandom network, RandomSource jitterRandom) {
        ManualTicker clock = new ManualTicker();
        PriorityQueue<Event> queue = new PriorityQueue<>();
        long[] seq = {0};
        int[] attempts = new int[CLIENTS];
        long[] previousDelay = new long[CLIENTS];
        long serverVersion = 0;
        long calls = 0;
        for (int c = 0; c < CLIENTS; c++) {
            queue.add(new Event(delay(network), seq[0]++, c, Kind.READ, 0));
        }
        while (!queue.isEmpty()) {
            Event e = queue.poll();
            clock.advance(e.at() - clock.read()); // time only moves forward
            long now = clock.read();
            switch (e.kind()) {
                case READ -> queue.add(new Event(now + delay(network), seq[0]++, e.client(), Kind.READ_REPLY, serverVersion));
                case READ_REPLY -> queue.add(new Event(now + delay(network), seq[0]++, e.client(), Kind.WRITE, e.version()));
                case WRITE -> {
                    calls++;
                    boolean ok = e.version() == serverVersion;
                    if (ok) {
                        serverVersion++;
                    }
                    queue.add(new Event(now + delay(network), seq[0]++, e.client(),
                            ok ? Kind.WRITE_REPLY_OK : Kind.WRITE_REPLY_CONFLICT, 0));
                }
                case WRITE_REPLY_OK -> { } // this client is done
                case WRITE_REPLY_CONFLICT -> {
                    int n = ++attempts[e.client()];
                    long backoff = 0;
                    if (strategy.backsOff()) {
                        long exponential = n >= 40 ? CAP : Math.min(CAP, BASE << n); // min(cap, base · 2^n)
                        backoff = strategy.jitter().apply(exponential, previousDelay[e.client()], BASE, CAP, jitterRandom);
                        previousDelay[e.client()] = backoff;
                    }
                    queue.add(new Event(now + delay(network) + backoff, seq[0]++, e.client(), Kind.READ, 0));
                }
                default -> throw new AssertionError(e);
            }
        }
        return new long[] {calls, clock.read()};
    }

    /** The network: {@code |N(10 ms, 2 ms)|}. */
    private static long delay(SplittableRandom network) {
        return (long) Math.abs((10 + 2 * network.nextGaussian()) * MS);
    }

    private static List<Result> simulate(int runs) {
        List<Strategy> strategies = List.of(
                new Strategy("no backoff", Jitter.none(), false),
                new Strategy("exponential, no jitter", Jitter.none(), true),
                new Strategy("equal jitter", Jitter.equal(), true),
                new Strategy("full jitter", Jitter.full(), true),
                new Strategy("decorrelated jitter", Jitter.decorrelated(), true));
        List<Result> results = new ArrayList<>();
        for (Strategy strategy : strategies) {
            SplittableRandom network = new SplittableRandom(2015);
            RandomSource jitterRandom = RandomSource.seeded(2015);
            long calls = 0;
            long time = 0;
            for (int r = 0; r < runs; r++) {
                long[] outcome = run(strategy, network, jitterRandom);
                calls += outcome[0];
                time += outcome[1];
            }
            results.add(new Result(strategy.name(), (double) calls / runs, (double) time / runs / MS));
        }
        return results;
    }

    @Test
    void withAHundredClientsFullJitterDoesTheLeastWorkAndDecorrelatedAboutAQuarterMoreButFinishesSooner() {
        List<Result> results = simulate(RUNS);
        for (Result r : results) {
            System.out.printf(Locale.ROOT, "%-24s calls %8.1f   time %8.1f ms%n", r.name(), r.calls(), r.millis());
        }
        Result none = results.get(0);
        Result exponential = results.get(1);
        Result equal = results.get(2);
        Result full = results.get(3);
        Result decorrelated = results.get(4);
        assertThat(full.calls()).as("full jitter does the least work")
                .isLessThan(decorrelated.calls()).isLessThan(equal.calls())
                .isLessThan(exponential.calls()).isLessThan(none.calls());
        assertThat(decorrelated.calls() / full.calls()).as("decorrelated does about 25% more work than full")
                .isBetween(1.15, 1.35);
        assertThat(decorrelated.millis()).as("but finishes sooner").isLessThan(full.millis());
        assertThat(exponential.calls() / full.calls()).as("exponential without jitter: several times the work")
                .isGreaterThan(2.0);
    }

    @Test
    void theSimulationIsDeterministic() {
        assertThat(simulate(10)).isEqualTo(simulate(10));
    }

    @Test
    void theBackoffOfTheStudyIsLeveesExponentialFromTwiceTheBase() {
        Backoff study = Backoff.exponential(Duration.ofMillis(10), 2, Duration.ofSeconds(2));
        for (int n = 1; n < 20; n++) {
            assertThat(study.delayNanos(n)).isEqualTo(Math.min(CAP, BASE << n));
        }
    }
}
