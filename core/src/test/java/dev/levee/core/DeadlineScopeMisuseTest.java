package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, bug 12: a scope closed out of turn, or a propagator whose scope throws on close, must never
 * leave a stale deadline on the thread.
 */
@SuppressWarnings("try") // scopes are opened for their effect on the current deadline
class DeadlineScopeMisuseTest {
    private final ManualTicker ticker = new ManualTicker(10_000);

    @AfterEach
    void noDeadlineLeaks() {
        assertThat(Deadline.currentOrNull()).isNull();
    }

    @SuppressWarnings("try") // the scope is held only for its close()
    @Test
    void aPropagatorScopeThatThrowsOnCloseStillRestoresTheWorkersDeadline() {
        RuntimeException boom = new IllegalStateException("propagator scope failed to close");
        ContextPropagator<String> throwing = new ContextPropagator<>() {
            @Override
            public String capture() {
                return "x";
            }

            @Override
            public ContextScope restore(String captured) {
                return () -> {
                    throw boom;
                };
            }
        };
        Deadline captured = Deadline.after(Duration.ofSeconds(1), ticker);
        ContextSnapshot snapshot;
        try (ContextScope s = captured.attach()) {
            snapshot = ContextSnapshot.capture(List.of(throwing));
        }
        AtomicReference<Deadline> seen = new AtomicReference<>();

        assertThatThrownBy(() -> snapshot.wrap(() -> seen.set(Deadline.currentOrNull())).run()).isSameAs(boom);

        assertThat(seen.get()).isSameAs(captured);
        assertThat(Deadline.currentOrNull()).as("the pooled worker keeps no captured deadline").isNull();
    }

    @Test
    void closingTheOuterScopeFirstReportsTheMisuseAndLeavesNoStaleDeadline() {
        Deadline outer = Deadline.after(Duration.ofSeconds(1), ticker);
        Deadline inner = Deadline.after(Duration.ofSeconds(2), ticker);
        ContextScope a = outer.attach();
        ContextScope b = inner.attach();
        assertThat(Deadline.currentOrNull()).isSameAs(outer);

        assertThatThrownBy(a::close).isInstanceOf(IllegalStateException.class).hasMessageContaining("reverse order")
                .hasMessageStartingWith("Deadline scopes must be closed"); // the scope names its kind
        assertThat(Deadline.currentOrNull()).as("the outer deadline no longer applies; the inner one does")
                .isSameAs(inner);

        b.close();
        assertThat(Deadline.currentOrNull()).as("closing the inner scope restores the state before both").isNull();
    }

    @Test
    void closingOnAnotherThreadReportsTheMisuseAndTheOwnerStopsSeeingTheDeadline() throws Exception {
        ContextScope scope = Deadline.after(Duration.ofSeconds(1), ticker).attach();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread other = new Thread(() -> {
            try {
                scope.close();
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        other.start();
        other.join();

        assertThat(failure.get()).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Deadline scope must be closed on the thread that opened it");
        assertThat(Deadline.currentOrNull()).as("no stale deadline on the owner").isNull();
        scope.close(); // harmless afterwards
    }

    @Test
    void anInnerScopeClosedFromAnotherThreadDoesNotBreakTheOuterOnesOrderlyClose() throws Exception {
        Deadline outer = Deadline.after(Duration.ofSeconds(2), ticker);
        ContextScope a = outer.attach();
        ContextScope b = Deadline.after(Duration.ofSeconds(1), ticker).attach();
        Thread other = new Thread(() -> {
            try {
                b.close();
            } catch (IllegalStateException expected) {
                // reported
            }
        });
        other.start();
        other.join();

        assertThat(Deadline.currentOrNull()).isSameAs(outer);
        a.close(); // in order once the misused scope is gone: no exception
    }
}
