package dev.levee.core.internal;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;

/** Exception plumbing shared by Levee's modules. Not for users: may change without notice. */
public final class Exceptions {
    private Exceptions() {}

    /**
     * Throws {@code t} without the compiler asking for a declaration. Used where a policy rethrows
     * exactly what the user's call threw, whose checked type is the caller's {@code E}.
     *
     * @param t the throwable to rethrow unchanged
     * @param <X> inferred as an unchecked type at the call site
     * @return never returns; declared so callers can write {@code throw sneakyThrow(t)}
     * @throws X always {@code t}
     */
    @SuppressWarnings("unchecked")
    public static <X extends Throwable> RuntimeException sneakyThrow(@Nullable Throwable t) throws X {
        throw (X) t;
    }

    /**
     * Removes the {@link CompletionException} and {@link ExecutionException} wrappers that
     * {@code CompletableFuture} adds, so the cause the user's call failed with can be classified.
     *
     * @param t a failure from a stage
     * @return the innermost cause that is not such a wrapper (or {@code t} if it has no cause)
     */
    public static Throwable unwrap(Throwable t) {
        Throwable current = t;
        while ((current instanceof CompletionException || current instanceof ExecutionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    /**
     * Rethrows {@code t} if it is an {@link Error}: an error is never swallowed.
     *
     * @param t any throwable
     */
    public static void rethrowIfError(Throwable t) {
        if (t instanceof Error) {
            throw (Error) t;
        }
    }
}
