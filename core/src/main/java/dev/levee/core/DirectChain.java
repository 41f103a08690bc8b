package dev.levee.core;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/** The end of a chain: runs the call. Package-private; reached through {@link Chain#direct()}. */
enum DirectChain implements Chain {
    INSTANCE;

    @Override
    public <T, E extends Throwable> T proceed(CheckedSupplier<T, E> call) throws E {
        return call.get();
    }

    @Override
    public <T> CompletionStage<T> proceedAsync(Supplier<? extends CompletionStage<T>> call) {
        try {
            CompletionStage<T> stage = call.get();
            if (stage == null) {
                return CompletableFuture.failedFuture(
                        new NullPointerException("the asynchronous call returned a null CompletionStage"));
            }
            return stage;
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
