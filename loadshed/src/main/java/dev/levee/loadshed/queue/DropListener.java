package dev.levee.loadshed.queue;

/**
 * Receives every entry a queue accepted and later let go of without handing it to a consumer, so
 * nothing disappears silently: complete the request's future with a
 * {@link dev.levee.core.ShedException}, answer 503, log. Refused offers are not passed here: their
 * caller sees {@code false} (and the refusal is counted).
 *
 * <p>Called on the thread that caused the drop (an offering or polling thread), after the queue's lock
 * is released; it must be fast. An {@link Exception} it throws is logged and swallowed; an
 * {@link Error} propagates.
 *
 * @param <T> the entry type
 */
@FunctionalInterface
public interface DropListener<T> {

    /**
     * An entry was dropped.
     *
     * @param item the entry
     * @param reason why
     */
    void dropped(T item, DropReason reason);

    /**
     * A listener that does nothing (the drop is still counted).
     *
     * @param <T> the entry type
     * @return the no-op listener
     */
    static <T> DropListener<T> none() {
        return (item, reason) -> { };
    }
}
