package dev.levee.bulkhead.internal;

import java.lang.reflect.Method;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

/**
 * Virtual threads, reached reflectively so this module compiles with {@code --release 17} and runs on
 * any JDK from 17; they exist from JDK 21. Not for users: may change without notice.
 */
@SuppressWarnings("NullAway") // NullAway debt (issue 11): annotate this class's nullable fields and parameters, then remove
public final class VirtualThreads {
    private static final Method OF_VIRTUAL = find(Thread.class, "ofVirtual");
    private static final Method NEW_THREAD_PER_TASK =
            find(Executors.class, "newThreadPerTaskExecutor", ThreadFactory.class);

    private VirtualThreads() {}

    private static Method find(Class<?> owner, String name, Class<?>... parameters) {
        try {
            return owner.getMethod(name, parameters);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** @return whether this JDK has virtual threads */
    public static boolean supported() {
        return OF_VIRTUAL != null && NEW_THREAD_PER_TASK != null;
    }

    /**
     * A factory of virtual threads named by {@code prefix} followed by 0, 1, ...
     *
     * @param prefix the name prefix
     * @return the factory
     * @throws UnsupportedOperationException on a JDK without virtual threads
     */
    public static ThreadFactory factory(String prefix) {
        if (!supported()) {
            throw new UnsupportedOperationException("virtual threads need JDK 21 or later; this is "
                    + Runtime.version());
        }
        try {
            Object builder = OF_VIRTUAL.invoke(null);
            Class<?> builderType = Class.forName("java.lang.Thread$Builder");
            builder = builderType.getMethod("name", String.class, long.class).invoke(builder, prefix, 0L);
            return (ThreadFactory) builderType.getMethod("factory").invoke(builder);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("could not create a virtual thread factory", e);
        }
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
        try {
            return (ExecutorService) NEW_THREAD_PER_TASK.invoke(null, factory);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("could not create a virtual thread executor", e);
        }
    }
}
