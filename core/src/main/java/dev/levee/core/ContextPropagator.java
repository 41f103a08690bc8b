package dev.levee.core;

import org.jspecify.annotations.Nullable;

/**
 * Carries one kind of thread-bound context (an MDC map, a tracing span, a security context) across
 * a thread hop made by Levee: a thread-pool bulkhead, a synchronous timeout's worker, an asynchronous
 * retry. The current {@link Deadline} and {@link IdempotencyKey} are always carried; propagators add the
 * application's own.
 *
 * <p>{@link #capture()} runs on the submitting thread; {@link #restore(Object)} runs on the worker
 * before the task and its scope is closed after it.
 *
 * <pre>{@code
 * ContextPropagator<Map<String, String>> mdc = new ContextPropagator<>() {
 *     public Map<String, String> capture() { return MDC.getCopyOfContextMap(); }
 *     public ContextScope restore(Map<String, String> captured) {
 *         Map<String, String> previous = MDC.getCopyOfContextMap();
 *         if (captured == null) MDC.clear(); else MDC.setContextMap(captured);
 *         return () -> { if (previous == null) MDC.clear(); else MDC.setContextMap(previous); };
 *     }
 * };
 * }</pre>
 *
 * @param <S> the captured state
 */
public interface ContextPropagator<S> {

    /**
     * Captures the context of the current thread.
     *
     * @return the state to restore elsewhere; may be null
     */
    @Nullable S capture();

    /**
     * Installs captured state on the current thread.
     *
     * @param captured what {@link #capture()} returned
     * @return a scope that undoes the installation
     */
    ContextScope restore(S captured);
}
