package dev.levee.core;

import dev.levee.core.internal.StackedScope;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The key that makes a retried write safe: one value per logical operation, sent with every attempt
 * (the HTTP {@code Idempotency-Key} field), so that a server which has already executed the operation
 * recognises a repeat and answers it from its record instead of executing it again.
 *
 * <p><b>Model.</b> A key is a validated string, and — like the current {@link Deadline} — it can be
 * current on a thread for a scope:
 * <pre>{@code
 * try (ContextScope scope = IdempotencyKey.of("order-" + orderId).attach()) {
 *     retry.execute(() -> payments.charge(order));   // every attempt sends "order-42"
 * }
 * }</pre>
 * A keyed retry ({@code Idempotency.KEYED} in {@code levee-retry}) makes a key once per logical call
 * when none is current and attaches it for every attempt; {@code levee-http} writes the current key into
 * a request. {@link ContextSnapshot} carries the current key, with the deadline, to every thread Levee
 * hops to (asynchronous retries, hedges, thread-mode timeouts, thread-pool bulkheads), so every attempt
 * of one call, on any thread, reads the same key.
 *
 * <p><b>Scopes.</b> The innermost attached key is current (an inner scope replaces, it does not
 * combine); closing a scope restores what was current before. Close a scope on the thread that opened
 * it, in reverse order (try-with-resources does both); a scope closed out of order stops applying at
 * once and never leaves its key behind.
 *
 * <p><b>What a valid key is</b> (the IETF HTTPAPI draft "The Idempotency-Key HTTP Header Field", and
 * Stripe's limit): 1 to {@value #MAX_LENGTH} characters, each a printable ASCII character
 * ({@code 0x20}–{@code 0x7E}, so no control character and nothing a header cannot carry), and no space
 * at either end (HTTP strips it, so the server would see another key). A random UUID ({@code 36}
 * characters) or an application's own order id fit.
 *
 * <p><b>Cost.</b> Reading the current key is one thread-local read, and none at all in a process that
 * has never attached one. Immutable and thread-safe.
 */
public final class IdempotencyKey {
    /** The longest key, in characters: 255 (Stripe's limit, repeated by the IETF draft's examples). */
    public static final int MAX_LENGTH = 255;

    /** The innermost scope opened on this thread; its chain of parents is the thread's key stack. */
    private static final ThreadLocal<KeyScope> CURRENT = new ThreadLocal<>();
    /**
     * Set once any key has been attached or restored in this process. A thread can only have a current
     * key after it wrote this flag itself, so reading it without synchronization is exact for the
     * thread asking; until then {@link #currentOrNull()} skips the thread-local read.
     */
    private static volatile boolean everAttached;

    private final String value;

    private IdempotencyKey(String value) {
        this.value = value;
    }

    /**
     * A key with this value.
     *
     * @param value 1 to {@value #MAX_LENGTH} printable ASCII characters, no space at either end
     * @return the key
     * @throws IllegalArgumentException naming the rule the value breaks (a key is never repaired)
     * @throws NullPointerException if {@code value} is null
     */
    public static IdempotencyKey of(String value) {
        Objects.requireNonNull(value, "value");
        String problem = problem(value);
        if (problem != null) {
            throw new IllegalArgumentException("IdempotencyKey: " + problem);
        }
        return new IdempotencyKey(value);
    }

    /**
     * Whether {@code value} is a valid key (see the class description). Never throws, allocates nothing.
     *
     * @param value a candidate, possibly null
     * @return true if {@link #of(String)} accepts it
     */
    public static boolean isValid(@Nullable CharSequence value) {
        return value != null && problem(value) == null;
    }

    /**
     * Why {@code value} is not a valid key, for an error message (an HTTP 400's body, an exception).
     * Never throws; allocates only for an invalid value.
     *
     * @param value a candidate
     * @return null if valid, else a sentence naming the rule broken (never echoing the value itself,
     *         which may be hostile)
     */
    public static @Nullable String problem(CharSequence value) {
        int length = value.length();
        if (length == 0) {
            return "a key must not be empty";
        }
        if (length > MAX_LENGTH) {
            return "a key must be at most " + MAX_LENGTH + " characters but was " + length;
        }
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7E) {
                return "a key must be printable ASCII (0x20-0x7E) but has character 0x"
                        + Integer.toHexString(c) + " at index " + i;
            }
        }
        if (value.charAt(0) == ' ' || value.charAt(length - 1) == ' ') {
            return "a key must not start or end with a space (HTTP strips it)";
        }
        return null;
    }

    /**
     * The key's value, as sent.
     *
     * @return the value
     */
    public String value() {
        return value;
    }

    /**
     * The key current on this thread, if any.
     *
     * @return the current key
     */
    public static Optional<IdempotencyKey> current() {
        return Optional.ofNullable(currentOrNull());
    }

    /**
     * The key current on this thread, or null: the allocation-free form.
     *
     * @return the current key or null
     */
    public static @Nullable IdempotencyKey currentOrNull() {
        if (!everAttached) {
            return null;
        }
        KeyScope top = CURRENT.get();
        if (top == null) {
            return null;
        }
        if (top.isClosed()) {
            top = dropClosed(top);
        }
        return top == null ? null : top.key;
    }

    /** Drops scopes closed out of turn (or from another thread) from the top of the stack. */
    private static @Nullable KeyScope dropClosed(KeyScope top) {
        KeyScope open = StackedScope.firstOpen(top);
        CURRENT.set(open);
        return open;
    }

    /**
     * Makes this key current on this thread until the returned scope is closed; an inner scope's key
     * replaces the outer one. Close it on this thread, in reverse order of attaching.
     *
     * @return the scope; closing restores the previous current key
     */
    public ContextScope attach() {
        return open(this);
    }

    /**
     * Sets the current key exactly (possibly to none), for restoring a captured context.
     *
     * @param key the key to make current, or null for none
     * @return a scope that restores the previous value
     */
    static ContextScope restore(@Nullable IdempotencyKey key) {
        return open(key);
    }

    private static ContextScope open(@Nullable IdempotencyKey key) {
        if (!everAttached) {
            everAttached = true;
        }
        KeyScope scope = new KeyScope(CURRENT.get(), key);
        CURRENT.set(scope);
        return scope;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IdempotencyKey && ((IdempotencyKey) o).value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    /** @return the value */
    @Override
    public String toString() {
        return value;
    }

    /**
     * One attached (or restored) key on a thread's stack. Closing it in turn, on its thread, makes its
     * parent current again. Misuse (out of order, another thread) is reported with an
     * {@link IllegalStateException}, and the scope stops applying at once: the owner thread drops it at
     * its next lookup.
     */
    private static final class KeyScope extends StackedScope<KeyScope> {
        /** The key this scope made current; null for a restored "no key". */
        final @Nullable IdempotencyKey key;

        KeyScope(@Nullable KeyScope parent, @Nullable IdempotencyKey key) {
            super(parent);
            this.key = key;
        }

        @Override
        protected ThreadLocal<KeyScope> stack() {
            return CURRENT;
        }

        @Override
        protected String kind() {
            return "IdempotencyKey";
        }

        @Override
        public String toString() {
            return "IdempotencyKeyScope[" + key + "]";
        }
    }
}
