package dev.levee.retry;

/**
 * A marker for exception types that are always worth retrying: a {@link Retry} with the default
 * rule ({@link TransientFailure#isTransient(Throwable)}) retries any exception whose class implements
 * it, checked or unchecked. Mark a type only when a later attempt can succeed without anything else
 * changing (seed 000's {@code RetryableError}).
 *
 * <pre>{@code
 * final class ReplicaLagException extends Exception implements Retryable { ... }
 * }</pre>
 * For an exception of a type you do not own, wrap it in a {@link RetryableException}.
 */
public interface Retryable {
}
