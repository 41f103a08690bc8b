package dev.levee.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class ExceptionsTest {

    @Test
    void unwrapRemovesEveryCompletionAndExecutionWrapper() {
        IOException cause = new IOException("down");
        assertThat(Exceptions.unwrap(cause)).isSameAs(cause);
        assertThat(Exceptions.unwrap(new CompletionException(cause))).isSameAs(cause);
        assertThat(Exceptions.unwrap(new ExecutionException(cause))).isSameAs(cause);
        assertThat(Exceptions.unwrap(new CompletionException(new ExecutionException(cause)))).isSameAs(cause);
        assertThat(Exceptions.unwrap(new ExecutionException(new CompletionException(cause)))).isSameAs(cause);
    }

    @Test
    void aWrapperWithoutACauseAndOtherExceptionsWithCausesAreKept() {
        CompletionException bare = new CompletionException("no cause", null);
        assertThat(Exceptions.unwrap(bare)).isSameAs(bare);
        ExecutionException bareExecution = new ExecutionException("no cause", null);
        assertThat(Exceptions.unwrap(bareExecution)).isSameAs(bareExecution);
        RuntimeException withCause = new RuntimeException(new IOException());
        assertThat(Exceptions.unwrap(withCause)).isSameAs(withCause);
    }

    @Test
    void rethrowIfErrorRethrowsOnlyErrors() {
        AssertionError error = new AssertionError("fatal");
        assertThatThrownBy(() -> Exceptions.rethrowIfError(error)).isSameAs(error);
        assertThatCode(() -> Exceptions.rethrowIfError(new IOException())).doesNotThrowAnyException();
    }

    @Test
    void sneakyThrowThrowsTheCheckedExceptionUnchanged() {
        IOException checked = new IOException("checked");
        assertThatThrownBy(() -> {
            throw Exceptions.sneakyThrow(checked);
        }).isSameAs(checked);
    }
}
