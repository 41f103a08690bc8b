package dev.levee.core;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/** A wrapper for tests that records entering and leaving, around the rest of the chain. */
final class RecordingWrapper implements Policy {
    private final String name;
    private final List<String> journal;

    RecordingWrapper(String name, List<String> journal) {
        this.name = name;
        this.journal = journal;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public <T, E extends Throwable> T execute(Chain next, CheckedSupplier<T, E> call) throws E {
        journal.add(name + ".enter");
        try {
            return next.proceed(call);
        } finally {
            journal.add(name + ".exit");
        }
    }

    @Override
    public <T> CompletionStage<T> executeAsync(Chain next, Supplier<? extends CompletionStage<T>> call) {
        journal.add(name + ".enter");
        return next.proceedAsync(call).whenComplete((r, t) -> journal.add(name + ".exit"));
    }
}
