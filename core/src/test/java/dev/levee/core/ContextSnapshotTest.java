package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.internal.RemovableExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Capturing, restoring and wrapping a thread's context; the propagating executor's removal of queued tasks. */
@SuppressWarnings("try") // scopes are held only for their close()
class ContextSnapshotTest {
    private final ManualTicker ticker = new ManualTicker();
    private final Deadline deadline = Deadline.after(Duration.ofSeconds(1), ticker);

    @AfterEach
    void noDeadlineLeaks() {
        assertThat(Deadline.currentOrNull()).isNull();
    }

    /** A propagator of one thread-local string, logging what it does. */
    static final class Tag implements ContextPropagator<String> {
        static final ThreadLocal<String> VALUE = new ThreadLocal<>();
        final String id;
        final List<String> log;
        final RuntimeException onRestore;
        final RuntimeException onClose;

        Tag(String id, List<String> log, RuntimeException onRestore, RuntimeException onClose) {
            this.id = id;
            this.log = log;
            this.onRestore = onRestore;
            this.onClose = onClose;
        }

        @Override
        public String capture() {
            return VALUE.get();
        }

        @Override
        public ContextScope restore(String captured) {
            if (onRestore != null) {
                throw onRestore;
            }
            String previous = VALUE.get();
            VALUE.set(captured);
            log.add("restore " + id);
            return () -> {
                VALUE.set(previous);
                log.add("close " + id);
                if (onClose != null) {
                    throw onClose;
                }
            };
        }
    }

    @Test
    void capturesTheCurrentDeadlineOrNone() {
        assertThat(ContextSnapshot.capture().deadline()).isNull();
        try (ContextScope ignored = deadline.attach()) {
            assertThat(ContextSnapshot.capture().deadline()).isSameAs(deadline);
            assertThat(ContextSnapshot.capture(List.of()).deadline()).isSameAs(deadline);
        }
    }

    @Test
    void wrappersRunInTheCapturedContextAndReturnTheResult() throws Exception {
        ContextSnapshot snapshot;
        try (ContextScope ignored = deadline.attach()) {
            snapshot = ContextSnapshot.capture();
        }
        Supplier<Deadline> supplier = snapshot.wrapSupplier(Deadline::currentOrNull);
        assertThat(supplier.get()).isSameAs(deadline);
        assertThat(snapshot.wrap(() -> Deadline.currentOrNull()).call()).isSameAs(deadline);
        Function<String, String> function = snapshot.wrap((String s) -> s + (Deadline.currentOrNull() == deadline));
        assertThat(function.apply("same: ")).isEqualTo("same: true");
        AtomicReference<Deadline> seen = new AtomicReference<>();
        snapshot.wrap(() -> seen.set(Deadline.currentOrNull())).run();
        assertThat(seen.get()).isSameAs(deadline);
        assertThat(Deadline.currentOrNull()).isNull();
    }

    @Test
    void restoringInstallsExactlyTheCapturedDeadlineNotTheEarlierOne() {
        Deadline later = Deadline.after(Duration.ofSeconds(5), ticker);
        ContextSnapshot snapshot;
        try (ContextScope ignored = later.attach()) {
            snapshot = ContextSnapshot.capture();
        }
        try (ContextScope worker = deadline.attach(); ContextScope restored = snapshot.attach()) {
            assertThat(Deadline.currentOrNull()).isSameAs(later);
        }
    }

    @Test
    void propagatorsAreRestoredInOrderAndClosedInReverse() {
        List<String> log = new ArrayList<>();
        Tag a = new Tag("a", log, null, null);
        Tag b = new Tag("b", log, null, null);
        Tag.VALUE.set("submitter");
        ContextSnapshot snapshot = ContextSnapshot.capture(List.of(a, b));
        Tag.VALUE.set("worker");
        try (ContextScope ignored = snapshot.attach()) {
            assertThat(Tag.VALUE.get()).isEqualTo("submitter");
        } finally {
            assertThat(Tag.VALUE.get()).isEqualTo("worker");
            Tag.VALUE.remove();
        }
        assertThat(log).containsExactly("restore a", "restore b", "close b", "close a");
    }

    @Test
    void aPropagatorThatFailsToRestoreUndoesWhatWasRestoredAndThrows() {
        List<String> log = new ArrayList<>();
        RuntimeException failed = new IllegalStateException("restore failed");
        RuntimeException closing = new IllegalArgumentException("close failed");
        Tag a = new Tag("a", log, null, closing);
        Tag b = new Tag("b", log, failed, null);
        ContextSnapshot snapshot;
        try (ContextScope ignored = deadline.attach()) {
            snapshot = ContextSnapshot.capture(List.of(a, b));
        }
        assertThatThrownBy(snapshot::attach).isSameAs(failed);
        assertThat(failed.getSuppressed()).containsExactly(closing);
        assertThat(log).containsExactly("restore a", "close a");
        assertThat(Deadline.currentOrNull()).isNull();
    }

    @Test
    void aRestoreFailureThatIsAlsoTheCloseFailureIsNotSuppressedIntoItself() {
        List<String> log = new ArrayList<>();
        RuntimeException same = new IllegalStateException("same");
        ContextSnapshot snapshot = ContextSnapshot.capture(List.of(new Tag("a", log, null, same), new Tag("b", log, same, null)));
        assertThatThrownBy(snapshot::attach).isSameAs(same);
        assertThat(same.getSuppressed()).isEmpty();
    }

    @Test
    void everyScopeIsClosedAndTheFirstFailureWinsWithTheOthersSuppressed() {
        List<String> log = new ArrayList<>();
        RuntimeException first = new IllegalStateException("inner");
        RuntimeException second = new IllegalArgumentException("outer");
        ContextSnapshot snapshot = ContextSnapshot.capture(List.of(new Tag("a", log, null, second), new Tag("b", log, null, first)));
        ContextScope scope = snapshot.attach();
        assertThatThrownBy(scope::close).isSameAs(first);
        assertThat(first.getSuppressed()).containsExactly(second);
        assertThat(log).containsExactly("restore a", "restore b", "close b", "close a");
    }

    @Test
    void anErrorOnCloseIsRethrownAsItIs() {
        List<String> log = new ArrayList<>();
        ContextPropagator<String> erroring = new ContextPropagator<>() {
            @Override
            public String capture() {
                return "x";
            }

            @Override
            public ContextScope restore(String captured) {
                return () -> {
                    throw new AssertionError("error on close");
                };
            }
        };
        ContextSnapshot snapshot = ContextSnapshot.capture(List.of(new Tag("a", log, null, null), erroring));
        ContextScope scope = snapshot.attach();
        assertThatThrownBy(scope::close).isInstanceOf(AssertionError.class).hasMessage("error on close");
        assertThat(log).containsExactly("restore a", "close a");
    }

    @Test
    void thePropagatingExecutorCarriesTheSubmittersDeadline() {
        List<Runnable> queued = new ArrayList<>();
        Executor executor = ContextSnapshot.propagating(queued::add);
        AtomicReference<Deadline> seen = new AtomicReference<>();
        try (ContextScope ignored = deadline.attach()) {
            executor.execute(() -> seen.set(Deadline.currentOrNull()));
        }
        queued.get(0).run();
        assertThat(seen.get()).isSameAs(deadline);
    }

    @Test
    void thePropagatingExecutorTakesBackAQueuedTaskFromAPoolByTheTaskItWasGiven() throws InterruptedException {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        Executor executor = ContextSnapshot.propagating(pool);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean removedRan = new AtomicBoolean();
        AtomicBoolean keptRan = new AtomicBoolean();
        try {
            executor.execute(() -> {
                started.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(started.await(60, TimeUnit.SECONDS)).isTrue();
            Runnable kept = () -> keptRan.set(true);
            Runnable removed = () -> removedRan.set(true);
            executor.execute(kept);
            executor.execute(removed);
            assertThat(RemovableExecutor.removeFrom(executor, removed)).isTrue();
            assertThat(RemovableExecutor.removeFrom(executor, removed)).isFalse();
            assertThat(RemovableExecutor.removeFrom(executor, () -> {})).isFalse();
            assertThat(pool.getQueue()).hasSize(1);
        } finally {
            release.countDown();
            pool.shutdown();
            assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(removedRan).isFalse();
        assertThat(keptRan).isTrue();
    }

    @Test
    void thePropagatingExecutorAsksAWrappedRemovableExecutorWithTheOriginalTask() {
        List<Runnable> asked = new ArrayList<>();
        RemovableExecutor inner = new RemovableExecutor() {
            @Override
            public void execute(Runnable command) {}

            @Override
            public boolean remove(Runnable task) {
                asked.add(task);
                return true;
            }
        };
        Runnable task = () -> {};
        assertThat(RemovableExecutor.removeFrom(ContextSnapshot.propagating(inner), task)).isTrue();
        assertThat(asked).containsExactly(task);
        assertThat(RemovableExecutor.removeFrom(ContextSnapshot.propagating(Runnable::run), task)).isFalse();
    }
}
