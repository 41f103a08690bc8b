package dev.levee.checks;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The compiled classes of Levee's published modules, found on the test classpath (the reactor's
 * {@code target/classes} directories or jars), by module.
 */
final class PublishedClasses {
    /** The published modules, by the last segment of their root package {@code dev.levee.<module>}. */
    static final List<String> MODULES = List.of(
            "core", "timeout", "retry", "circuitbreaker", "bulkhead", "ratelimiter", "loadshed", "health", "degrade", "http", "config", "micrometer",
            "chaos", "idempotency");

    /**
     * Integration modules: they sit on top of the pattern modules (configuration from properties builds
     * every pattern's config; the metrics entry point binds every pattern's meters), so they may use
     * any pattern module's public API. No pattern module may use them.
     */
    static final Set<String> INTEGRATION_MODULES = Set.of("config", "micrometer");

    private PublishedClasses() {}

    /** A compiled class: its binary name and the bytes of its class file. */
    record ClassFile(String module, String name, byte[] bytes) {
        boolean isInternal() {
            return name.contains(".internal.");
        }

        String packageName() {
            return name.substring(0, name.lastIndexOf('.'));
        }
    }

    /** Every class file of every published module. */
    static List<ClassFile> all() {
        List<ClassFile> out = new ArrayList<>();
        for (String module : MODULES) {
            out.addAll(of(module));
        }
        return out;
    }

    /** Every class file under {@code dev/levee/<module>/}. */
    static List<ClassFile> of(String module) {
        String root = "dev/levee/" + module + "/";
        List<ClassFile> out = new ArrayList<>();
        try {
            Enumeration<URL> urls = PublishedClasses.class.getClassLoader().getResources(root);
            for (URL url : Collections.list(urls)) {
                if ("file".equals(url.getProtocol())) {
                    Path dir = Paths.get(url.toURI());
                    if (dir.toString().contains("test-classes")) {
                        continue;
                    }
                    try (Stream<Path> files = Files.walk(dir)) {
                        for (Path file : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))::iterator) {
                            String relative = dir.relativize(file).toString().replace('\\', '/');
                            out.add(new ClassFile(module, binaryName(root + relative), Files.readAllBytes(file)));
                        }
                    }
                } else if ("jar".equals(url.getProtocol())) {
                    JarURLConnection connection = (JarURLConnection) url.openConnection();
                    try (JarFile jar = connection.getJarFile()) {
                        for (JarEntry entry : Collections.list(jar.entries())) {
                            if (entry.getName().startsWith(root) && entry.getName().endsWith(".class")) {
                                try (InputStream in = jar.getInputStream(entry)) {
                                    out.add(new ClassFile(module, binaryName(entry.getName()), in.readAllBytes()));
                                }
                            }
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }

    /** The names of the classes of one module, sorted. */
    static TreeSet<String> names(String module) {
        TreeSet<String> names = new TreeSet<>();
        for (ClassFile c : of(module)) {
            names.add(c.name());
        }
        return names;
    }

    private static String binaryName(String path) {
        return path.substring(0, path.length() - ".class".length()).replace('/', '.');
    }

    /** Loads a class without initialising it. */
    static Class<?> load(String name) {
        try {
            return Class.forName(name, false, PublishedClasses.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The class names a class file refers to (its constant pool's {@code CONSTANT_Class} entries and
     * the types in its descriptors), in internal form ({@code dev/levee/core/internal/Nanos}).
     */
    static TreeSet<String> referencedTypes(byte[] bytes) {
        return ConstantPool.referencedTypes(bytes);
    }
}
