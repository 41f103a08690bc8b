package dev.levee.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Runs on every JDK the build uses: virtual threads on 21+, the documented fallbacks before. */
class VirtualThreadsTest {
    private static final boolean JDK21 = Runtime.version().feature() >= 21;

    @Test
    void supportedExactlyFromJdk21() {
        assertThat(VirtualThreads.supported()).isEqualTo(JDK21);
        assertThat(VirtualThreads.isVirtual(Thread.currentThread())).isFalse();
    }

    @Test
    void factoriesMakeNamedVirtualThreadsOrFallBack() throws Exception {
        ThreadFactory factory = VirtualThreads.factoryOrNull("levee-test-");
        if (!JDK21) {
            assertThat(factory).isNull();
            assertThatThrownBy(() -> VirtualThreads.factory("x")).isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("JDK 21");
            assertThatThrownBy(() -> VirtualThreads.threadPerTaskExecutor("x"))
                    .isInstanceOf(UnsupportedOperationException.class);
            return;
        }
        assertThat(factory).isNotNull();
        Thread first = factory.newThread(() -> {});
        Thread second = VirtualThreads.factory("other-").newThread(() -> {});
        assertThat(first.getName()).isEqualTo("levee-test-0");
        assertThat(second.getName()).isEqualTo("other-0");
        assertThat(VirtualThreads.isVirtual(first)).isTrue();

        ExecutorService executor = VirtualThreads.threadPerTaskExecutor("per-task-");
        try {
            Future<Boolean> virtual = executor.submit(() -> VirtualThreads.isVirtual(Thread.currentThread()));
            Future<String> name = executor.submit(() -> Thread.currentThread().getName());
            assertThat(virtual.get(60, TimeUnit.SECONDS)).isTrue();
            assertThat(name.get(60, TimeUnit.SECONDS)).startsWith("per-task-");
        } finally {
            executor.shutdown();
        }
    }
}
