package dev.levee.core;

/** A registered listener; closing it unregisters the listener. Closing twice is harmless. */
@FunctionalInterface
public interface Subscription extends AutoCloseable {
    /** Unregisters the listener. */
    @Override
    void close();
}
