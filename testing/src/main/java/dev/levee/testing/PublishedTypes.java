package dev.levee.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The public top-level API classes of Levee's main jars on the test classpath (not {@code internal}
 * packages, not the examples), for tests that check every config or binder of the published modules is
 * covered: the configuration binder's key table and the metrics entry point's binder table.
 */
public final class PublishedTypes {
    private PublishedTypes() {}

    /**
     * The public API classes on the classpath whose simple name ends in {@code suffix}.
     *
     * @param suffix e.g. {@code "Config"} or {@code "MetricsBinder"}
     * @return the classes, loaded
     */
    public static List<Class<?>> endingIn(String suffix) {
        List<String> names = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path path = Path.of(entry);
            if (entry.contains("test-classes") || !Files.exists(path)) {
                continue;
            }
            try {
                if (Files.isDirectory(path)) {
                    try (Stream<Path> files = Files.walk(path)) {
                        files.map(f -> path.relativize(f).toString().replace('\\', '/')).forEach(names::add);
                    }
                } else if (entry.endsWith(".jar") && path.getFileName().toString().startsWith("levee-")) {
                    try (JarFile jar = new JarFile(path.toFile())) {
                        Collections.list(jar.entries()).stream().map(JarEntry::getName).forEach(names::add);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        List<Class<?>> out = new ArrayList<>();
        for (String name : names) {
            if (name.startsWith("dev/levee/") && name.endsWith(suffix + ".class") && !name.contains("$")
                    && !name.contains("/internal/") && !name.startsWith("dev/levee/examples/")) {
                try {
                    Class<?> type = Class.forName(name.substring(0, name.length() - ".class".length()).replace('/', '.'));
                    if (Modifier.isPublic(type.getModifiers())) {
                        out.add(type);
                    }
                } catch (ClassNotFoundException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return out;
    }
}
