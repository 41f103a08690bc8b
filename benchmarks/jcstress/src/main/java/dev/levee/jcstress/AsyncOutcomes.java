package dev.levee.jcstress;

import dev.levee.core.RejectedException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/** How an asynchronous permit ended, as a code for a result field. */
final class AsyncOutcomes {
    /** Not completed. */
    static final int PENDING = 0;
    /** Completed normally: granted. */
    static final int GRANTED = 1;
    /** Failed with a {@link RejectedException}: refused. */
    static final int REFUSED = 2;
    /** Failed with anything else. */
    static final int OTHER = 3;

    private AsyncOutcomes() {}

    static int of(CompletionStage<?> stage) {
        CompletableFuture<?> future = stage.toCompletableFuture();
        if (!future.isDone()) {
            return PENDING;
        }
        try {
            future.join();
            return GRANTED;
        } catch (CompletionException e) {
            return e.getCause() instanceof RejectedException ? REFUSED : OTHER;
        } catch (RuntimeException e) {
            return OTHER;
        }
    }
}
