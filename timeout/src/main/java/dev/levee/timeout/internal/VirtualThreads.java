package dev.levee.timeout.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Virtual threads without compiling against JDK 21: {@code Thread.ofVirtual().name(prefix, 0).factory()}
 * is looked up reflectively once, when this class is initialised. On JDK 17 the lookup fails and
 * {@link #factoryOrNull(String)} returns null, so callers fall back to platform threads.
 */
@SuppressWarnings("NullAway") // NullAway debt (issue 11): annotate this class's nullable fields and parameters, then remove
public final class VirtualThreads {
    private static final Logger LOG = LoggerFactory.getLogger(VirtualThreads.class);

    /** {@code (String prefix) -> ThreadFactory}, or null when the JDK has no virtual threads. */
    private static final MethodHandle FACTORY = resolve();

    private VirtualThreads() {}

    private static MethodHandle resolve() {
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
            LOG.debug("No virtual threads on this JDK ({}); timeouts use a pool of platform threads", e.toString());
            return null;
        }
    }

    /**
     * Whether this JDK has virtual threads (Java 21 and later).
     *
     * @return true if {@link #factoryOrNull(String)} returns a factory
     */
    public static boolean available() {
        return FACTORY != null;
    }

    /**
     * A factory of virtual threads named by {@code prefix} followed by 0, 1, ...
     *
     * @param prefix the thread-name prefix
     * @return the factory, or null on a JDK without virtual threads
     */
    public static ThreadFactory factoryOrNull(String prefix) {
        if (FACTORY == null) {
            return null;
        }
        try {
            return (ThreadFactory) FACTORY.invoke(prefix);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("could not create a virtual thread factory", t);
        }
    }

    /**
     * Whether {@code thread} is a virtual thread ({@code Thread.isVirtual()} on JDK 21+; false before).
     *
     * @param thread the thread
     * @return true if virtual
     */
    public static boolean isVirtual(Thread thread) {
        if (FACTORY == null) {
            return false;
        }
        try {
            return (boolean) Thread.class.getMethod("isVirtual").invoke(thread);
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }
}
