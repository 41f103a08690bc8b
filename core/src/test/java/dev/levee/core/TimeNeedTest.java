package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Gates say which clock readings they need ({@link Gate#timeNeed()}); callers read only those. Counted on
 * a recording ticker: a run of gates that need no time reads it zero times.
 */
class TimeNeedTest {

    /** A ticker that counts its readings and moves 10 ns per reading. */
    static final class CountingTicker implements Ticker {
        final AtomicInteger reads = new AtomicInteger();
        private final AtomicLong now = new AtomicLong(1_000);

        @Override
        public long read() {
            reads.incrementAndGet();
            return now.addAndGet(10);
        }
    }

    /** A recording gate whose need is set by the test. */
    static final class NeedGate extends RecordingGate {
        volatile TimeNeed need;
        final List<Long> starts = Collections.synchronizedList(new ArrayList<>());

        NeedGate(String name, Ticker ticker, List<String> journal, TimeNeed need) {
            super(name, ticker, journal);
            this.need = need;
        }

        @Override
        public TimeNeed timeNeed() {
            return need;
        }

        @Override
        public boolean tryAcquire(long nowNanos) {
            starts.add(nowNanos);
            return super.tryAcquire(nowNanos);
        }
    }

    private final List<String> journal = Collections.synchronizedList(new ArrayList<>());
    private final CountingTicker ticker = new CountingTicker();

    private NeedGate gate(String name, TimeNeed need) {
        return new NeedGate(name, ticker, journal, need);
    }

    @Test
    void aPipelineOfGatesThatNeedNoTimeNeverReadsTheTicker() throws Exception {
        for (int size = 1; size <= 5; size++) { // 1 = the gate's own execute; 2 and 3 unrolled; 4, 5 the loop
            Policy[] gates = new Policy[size];
            for (int i = 0; i < size; i++) {
                gates[i] = gate("g" + i, TimeNeed.NONE);
            }
            Pipeline pipeline = Pipeline.of(gates);
            ticker.reads.set(0);
            assertThat(pipeline.execute(() -> "ok")).isEqualTo("ok");
            assertThatThrownBy(() -> pipeline.execute(() -> {
                throw new IOException("boom");
            })).isInstanceOf(IOException.class);
            assertThat(pipeline.executeAsync(() -> CompletableFuture.completedFuture("ok")).toCompletableFuture()
                    .join()).isEqualTo("ok");
            assertThat(ticker.reads.get()).as("ticker reads for %d gates needing no time", size).isZero();
            NeedGate last = (NeedGate) gates[size - 1];
            assertThat(last.starts).containsOnly(Gate.NO_READING);
            assertThat(last.lastLatency).isEqualTo(Gate.NO_READING);
        }
    }

    @Test
    void aStartReadingIsTakenOnceAndNoEndReading() throws Exception {
        NeedGate limiter = gate("limiter", TimeNeed.START);
        NeedGate bulkhead = gate("bulkhead", TimeNeed.NONE);
        Pipeline pipeline = Pipeline.of(gate("breaker", TimeNeed.NONE), limiter, bulkhead);
        ticker.reads.set(0);
        pipeline.execute(() -> "ok");
        assertThat(ticker.reads.get()).isEqualTo(1);
        assertThat(limiter.starts).hasSize(1).doesNotContain(Gate.NO_READING);
        assertThat(bulkhead.starts).isEqualTo(limiter.starts); // the reading is shared
        assertThat(limiter.lastLatency).isEqualTo(Gate.NO_READING);
    }

    @Test
    void oneGateNeedingLatencyMakesTheRunReadTwiceAndShareTheLatency() throws Exception {
        NeedGate a = gate("a", TimeNeed.NONE);
        NeedGate b = gate("b", TimeNeed.LATENCY);
        NeedGate c = gate("c", TimeNeed.NONE);
        NeedGate d = gate("d", TimeNeed.START);
        Pipeline pipeline = Pipeline.of(a, b, c, d);
        ticker.reads.set(0);
        pipeline.execute(() -> "ok");
        assertThat(ticker.reads.get()).isEqualTo(2);
        assertThat(a.lastLatency).isEqualTo(10L).isEqualTo(b.lastLatency).isEqualTo(d.lastLatency);
    }

    @Test
    void theNeedIsAskedPerCall() throws Exception {
        NeedGate breaker = gate("breaker", TimeNeed.NONE);
        Pipeline pipeline = Pipeline.of(breaker, gate("bulkhead", TimeNeed.NONE));
        ticker.reads.set(0);
        pipeline.execute(() -> "closed");
        assertThat(ticker.reads.get()).isZero();
        breaker.need = TimeNeed.START; // as an OPEN breaker would say
        breaker.permit = false;
        assertThatThrownBy(() -> pipeline.execute(() -> "open")).isInstanceOf(RejectedException.class);
        assertThat(ticker.reads.get()).isEqualTo(1);
    }

    @Test
    void theEndReadingIsDecidedWhenTheCallEnds() throws Exception {
        NeedGate breaker = gate("breaker", TimeNeed.NONE);
        NeedGate limiter = gate("limiter", TimeNeed.START);
        Pipeline pipeline = Pipeline.of(breaker, limiter);
        ticker.reads.set(0);
        // The breaker was asked before the acquire (NONE) and admitted a probe needing its latency.
        pipeline.execute(() -> {
            breaker.need = TimeNeed.LATENCY;
            return "probe";
        });
        assertThat(ticker.reads.get()).isEqualTo(2);
        assertThat(breaker.lastLatency).isEqualTo(10L);
        // Without a start reading there is no latency to measure: no end reading either.
        NeedGate alone = gate("alone", TimeNeed.NONE);
        ticker.reads.set(0);
        alone.execute(() -> {
            alone.need = TimeNeed.LATENCY;
            return "x";
        });
        assertThat(ticker.reads.get()).isZero();
        assertThat(alone.lastLatency).isEqualTo(Gate.NO_READING);
    }

    @Test
    void aGateWithTheDefaultNeedGetsEveryReading() throws Exception {
        RecordingGate plain = new RecordingGate("plain", ticker, journal);
        assertThat(plain.timeNeed()).isEqualTo(TimeNeed.LATENCY);
        ticker.reads.set(0);
        plain.execute(() -> "ok");
        assertThat(ticker.reads.get()).isEqualTo(2);
        assertThat(plain.lastLatency).isEqualTo(10L);
        ticker.reads.set(0);
        assertThat(plain.tryAcquire()).isTrue();
        assertThat(ticker.reads.get()).isEqualTo(1);
    }

    @Test
    void theHandProtocolHelpersReadOnlyWhatIsNeeded() {
        NeedGate none = gate("none", TimeNeed.NONE);
        ticker.reads.set(0);
        long start = none.readStart();
        assertThat(start).isEqualTo(Gate.NO_READING);
        assertThat(none.tryAcquire()).isTrue();
        assertThat(none.latencySince(start)).isEqualTo(Gate.NO_READING);
        assertThat(ticker.reads.get()).isZero();

        NeedGate startOnly = gate("start", TimeNeed.START);
        long s = startOnly.readStart();
        assertThat(s).isNotEqualTo(Gate.NO_READING);
        assertThat(startOnly.latencySince(s)).isEqualTo(Gate.NO_READING);
        assertThat(ticker.reads.get()).isEqualTo(1);

        NeedGate latency = gate("latency", TimeNeed.LATENCY);
        long l = latency.readStart();
        assertThat(latency.latencySince(l)).isEqualTo(10L);
        assertThat(latency.latencySince(Gate.NO_READING)).isEqualTo(Gate.NO_READING); // start not read
        assertThat(ticker.reads.get()).isEqualTo(3);
    }

    @Test
    void aRefusalInARunOfTimelessGatesReleasesThePassedOnesWithNoReading() {
        NeedGate first = gate("first", TimeNeed.NONE);
        NeedGate second = gate("second", TimeNeed.NONE);
        second.permit = false;
        ticker.reads.set(0);
        assertThatThrownBy(() -> Pipeline.of(first, second).execute(() -> "x")).isInstanceOf(RejectedException.class);
        assertThat(journal).containsExactly("first.acquire@" + Gate.NO_READING,
                "second.acquire@" + Gate.NO_READING + "(refused)", "first.ignored");
        assertThat(ticker.reads.get()).isZero();
    }

    @Test
    void needsCombineToTheLarger() {
        assertThat(TimeNeed.NONE.and(TimeNeed.START)).isEqualTo(TimeNeed.START);
        assertThat(TimeNeed.LATENCY.and(TimeNeed.NONE)).isEqualTo(TimeNeed.LATENCY);
        assertThat(TimeNeed.START.and(TimeNeed.START)).isEqualTo(TimeNeed.START);
        assertThat(TimeNeed.NONE.readsStart()).isFalse();
        assertThat(TimeNeed.START.readsStart()).isTrue();
        assertThat(TimeNeed.START.readsEnd()).isFalse();
        assertThat(TimeNeed.LATENCY.readsEnd()).isTrue();
    }

    @Test
    void everyRunLengthSharesOneLatencyWhenOneGateNeedsIt() throws Exception {
        for (int size = 1; size <= 4; size++) { // 1 = the gate's own execute; 2 and 3 unrolled; 4 the loop
            NeedGate[] gates = new NeedGate[size];
            for (int i = 0; i < size; i++) {
                gates[i] = gate("g" + i, i == size - 1 ? TimeNeed.LATENCY : TimeNeed.NONE);
            }
            Pipeline pipeline = Pipeline.of((Policy[]) gates);
            ticker.reads.set(0);
            pipeline.execute(() -> "ok");
            assertThat(ticker.reads.get()).as("size %d", size).isEqualTo(2);
            for (NeedGate g : gates) {
                assertThat(g.lastLatency).as("size %d", size).isEqualTo(10L);
            }
            ticker.reads.set(0);
            pipeline.executeAsync(() -> CompletableFuture.completedFuture("ok")).toCompletableFuture().join();
            assertThat(ticker.reads.get()).as("async, size %d", size).isEqualTo(2);
            for (NeedGate g : gates) {
                assertThat(g.lastLatency).as("async, size %d", size).isEqualTo(10L);
            }
        }
    }

    @Test
    void withoutAStartReadingNoEndIsReadEvenIfAGateAsksForLatencyWhenTheCallEnds() throws Exception {
        for (int size = 1; size <= 4; size++) {
            NeedGate[] gates = new NeedGate[size];
            for (int i = 0; i < size; i++) {
                gates[i] = gate("g" + i, TimeNeed.NONE);
            }
            NeedGate last = gates[size - 1];
            Pipeline pipeline = Pipeline.of((Policy[]) gates);
            ticker.reads.set(0);
            pipeline.executeAsync(() -> {
                last.need = TimeNeed.LATENCY; // e.g. a breaker that turned half-open during the call
                return CompletableFuture.completedFuture("ok");
            }).toCompletableFuture().join();
            assertThat(ticker.reads.get()).as("size %d", size).isZero();
            assertThat(last.lastLatency).isEqualTo(Gate.NO_READING);
        }
    }
}
