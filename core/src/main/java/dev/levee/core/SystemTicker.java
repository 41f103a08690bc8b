package dev.levee.core;

/** {@link System#nanoTime()} as a {@link Ticker}. An enum so the JIT sees one final implementation. */
enum SystemTicker implements Ticker {
    INSTANCE;

    @Override
    public long read() {
        return System.nanoTime();
    }

    @Override
    public String toString() {
        return "Ticker.system()";
    }
}
