package dev.levee.core.internal;

import dev.levee.core.Subscription;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listeners of one policy for one event type: a copy-on-write array, so publishing takes no lock
 * and, when nobody listens, costs one volatile read.
 *
 * <p>Publishers guard event construction:
 * <pre>{@code
 * if (!listeners.isEmpty()) {
 *     listeners.publish(new StateTransition(name, from, to, now));
 * }
 * }</pre>
 *
 * <p>Listeners run synchronously on the thread that caused the event, in subscription order, and
 * must be fast. A listener that throws an {@link Exception} is logged at WARN and the others still
 * run; the call being protected is never affected. An {@link Error} is not swallowed.
 *
 * @param <E> the event type
 */
public final class EventListeners<E> {
    private static final Logger LOG = LoggerFactory.getLogger(EventListeners.class);
    private static final Consumer<?>[] NONE = new Consumer<?>[0];

    private final AtomicReference<Consumer<?>[]> listeners = new AtomicReference<>(NONE);

    /** Creates an empty listener list. */
    public EventListeners() {}

    /**
     * Registers a listener.
     *
     * @param listener receives every event published after this call
     * @return closing it unregisters the listener
     */
    public Subscription subscribe(Consumer<? super E> listener) {
        Objects.requireNonNull(listener, "listener");
        // Wrap so the same listener object subscribed twice is removed one subscription at a time.
        Consumer<? super E> entry = listener::accept;
        listeners.updateAndGet(current -> {
            Consumer<?>[] next = Arrays.copyOf(current, current.length + 1);
            next[current.length] = entry;
            return next;
        });
        return () -> listeners.updateAndGet(current -> without(current, entry));
    }

    private static Consumer<?>[] without(Consumer<?>[] current, Consumer<?> entry) {
        for (int i = 0; i < current.length; i++) {
            if (current[i] == entry) {
                Consumer<?>[] next = new Consumer<?>[current.length - 1];
                System.arraycopy(current, 0, next, 0, i);
                System.arraycopy(current, i + 1, next, i, current.length - i - 1);
                return next;
            }
        }
        return current;
    }

    /**
     * Whether nobody listens; check it before building an event.
     *
     * @return true if there are no listeners
     */
    @SuppressWarnings("NullAway") // the reference starts at NONE and is never set to null
    public boolean isEmpty() {
        return listeners.get().length == 0;
    }

    /**
     * Delivers {@code event} to every listener.
     *
     * @param event the event
     */
    @SuppressWarnings({"unchecked", "NullAway"}) // never null: starts at NONE, only replaced by arrays
    public void publish(E event) {
        for (Consumer<?> listener : listeners.get()) {
            try {
                ((Consumer<E>) listener).accept(event);
            } catch (Exception e) {
                LOG.warn("Levee event listener failed on {}; the call is unaffected", event, e);
            }
        }
    }
}
