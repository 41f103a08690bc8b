package dev.levee.core.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import org.jspecify.annotations.Nullable;

/**
 * Virtual threads without compiling against JDK 21: {@code Thread.ofVirtual().name(prefix, 0).factory()},
 * {@code Executors.newThreadPerTaskExecutor} and {@code Thread.isVirtual()} are looked up reflectively
 * once, when this class is initialised, so every module compiles with {@code --release 17} and runs on
 * any JDK from 17. On JDK 17 the lookups fail: {@link #supported()} is false,
 * {@link #factoryOrNull(String)} returns null (callers fall back to platform threads) and
 * {@link #factory(String)} throws. The one copy for every module (the bulkhead's thread-per-task
 * executor, the timeout's worker threads). Not for users: may change without notice.
 */
public final class VirtualThreads {
    /** {@code (String prefix) -> ThreadFactory}, or null when the JDK has no virtual threads. */
    private static final @Nullable MethodHandle FACTORY = resolveFactory();
    /** {@code (ThreadFactory) -> ExecutorService}, or null before JDK 21. */
    private static final @Nullable MethodHandle PER_TASK_EXECUTOR = resolveExecutor();
    /** {@code (Thread) -> boolean}, or null before JDK 21. */
    private static final @Nullable MethodHandle IS_VIRTUAL = resolveIsVirtual();

    private VirtualThreads() {}

    private static @Nullable MethodHandle resolveFactory() {
        try {
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            Class<?> builder = Class.forName("java.lang.Thread$Builder");
            Class<?> ofVirtual = Class.forName("java.lang.Thread$Builder$OfVirtual");
            MethodHandle start = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtual));
            MethodHandle name = lookup.findVirtual(builder, "name",
                    MethodType.methodType(builder, String.class, long.class));
            MethodHandle factory = lookup.findVirtual(builder, "factory", MethodType.methodType(ThreadFactory.class));
            // prefix -> ofVirtual().name(prefix, 0).factory()
            MethodHandle named = MethodHandles.insertArguments(name, 2, 0L);            // (Builder, String) -> Builder
            named = named.asType(MethodType.methodType(builder, ofVirtual, String.class));
            MethodHandle withStart = MethodHandles.collectArguments(named, 0, start);   // (String) -> Builder
            return MethodHandles.filterReturnValue(withStart, factory);                 // (String) -> ThreadFactory
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static @Nullable MethodHandle resolveExecutor() {
        try {
            return MethodHandles.publicLookup().findStatic(java.util.concurrent.Executors.class,
                    "newThreadPerTaskExecutor", MethodType.methodType(ExecutorService.class, ThreadFactory.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static @Nullable MethodHandle resolveIsVirtual() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual",
                    MethodType.methodType(boolean.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Whether this JDK has virtual threads (Java 21 and later).
     *
     * @return true if {@link #factory(String)} and {@link #threadPerTaskExecutor(String)} work
     */
    public static boolean supported() {
        return FACTORY != null && PER_TASK_EXECUTOR != null;
    }

    /**
     * A factory of virtual threads named by {@code prefix} followed by 0, 1, ...
     *
     * @param prefix the thread-name prefix
     * @return the factory, or null on a JDK without virtual threads
     */
    public static @Nullable ThreadFactory factoryOrNull(String prefix) {
        MethodHandle handle = FACTORY;
        if (handle == null) {
            return null;
        }
        try {
            return (ThreadFactory) handle.invoke(prefix);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("could not create a virtual thread factory", t);
        }
    }

    /**
     * A factory of virtual threads named by {@code prefix} followed by 0, 1, ...
     *
     * @param prefix the name prefix
     * @return the factory
     * @throws UnsupportedOperationException on a JDK without virtual threads
     */
    public static ThreadFactory factory(String prefix) {
        ThreadFactory factory = factoryOrNull(prefix);
        if (factory == null) {
            throw new UnsupportedOperationException("virtual threads need JDK 21 or later; this is "
                    + Runtime.version());
        }
        return factory;
    }

    /**
     * An executor that starts one virtual thread per task.
     *
     * @param prefix the thread name prefix
     * @return the executor
     * @throws UnsupportedOperationException on a JDK without virtual threads
     */
    public static ExecutorService threadPerTaskExecutor(String prefix) {
        ThreadFactory factory = factory(prefix);
        MethodHandle handle = PER_TASK_EXECUTOR;
        if (handle == null) {
            throw new UnsupportedOperationException("virtual threads need JDK 21 or later; this is "
                    + Runtime.version());
        }
        try {
            return (ExecutorService) handle.invoke(factory);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("could not create a virtual thread executor", t);
        }
    }

    /**
     * Whether {@code thread} is a virtual thread ({@code Thread.isVirtual()} on JDK 21+; false before).
     *
     * @param thread the thread
     * @return true if virtual
     */
    public static boolean isVirtual(Thread thread) {
        MethodHandle handle = IS_VIRTUAL;
        if (handle == null) {
            return false;
        }
        try {
            return (boolean) handle.invoke(thread);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            return false;
        }
    }
}
