package dev.levee.core;

import java.util.List;

/** A gate for tests that records every protocol call into a shared journal. */
class RecordingGate implements Gate {
    private final String name;
    private final Ticker ticker;
    private final List<String> journal;
    volatile boolean permit = true;
    volatile long lastLatency = -1;

    RecordingGate(String name, Ticker ticker, List<String> journal) {
        this.name = name;
        this.ticker = ticker;
        this.journal = journal;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Ticker ticker() {
        return ticker;
    }

    @Override
    public boolean tryAcquire(long nowNanos) {
        journal.add(name + ".acquire@" + nowNanos + (permit ? "" : "(refused)"));
        return permit;
    }

    @Override
    public RejectedException rejection(long nowNanos) {
        return new BulkheadFullException(name, name + " refused", 7);
    }

    @Override
    public void onSuccess(long latencyNanos) {
        lastLatency = latencyNanos;
        journal.add(name + ".success(" + latencyNanos + ")");
    }

    @Override
    public void onFailure(long latencyNanos, Throwable error) {
        lastLatency = latencyNanos;
        journal.add(name + ".failure(" + error.getClass().getSimpleName() + ")");
    }

    @Override
    public void onIgnored() {
        journal.add(name + ".ignored");
    }
}
