package dev.levee.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;

/**
 * The test's own class path with one module taken out, in a class loader of its own: how a test shows
 * that code with an optional dependency loads and works when a user does not have it.
 *
 * <pre>{@code
 * try (URLClassLoader loader = ClassPathWithout.entriesHolding("dev/levee/redis/ratelimiter/RedisRateLimiter.class")) {
 *     Class<?> meters = loader.loadClass("dev.levee.micrometer.LeveeMeters");  // no levee-redis in sight
 * }
 * }</pre>
 *
 * <p>An entry is left out when it holds the marker resource: a classes directory of the reactor or a
 * jar. The loader's parent is the platform class loader, so nothing of the test's own loader leaks in.
 */
public final class ClassPathWithout {
    private ClassPathWithout() {}

    /**
     * A class loader over {@code java.class.path} without the entries that hold {@code markerResource}.
     * Fails the test if no entry holds it (the module meant to be absent was never there to take out).
     *
     * @param markerResource a resource path only the module to leave out has, e.g.
     *     {@code "dev/levee/redis/ratelimiter/RedisRateLimiter.class"}
     * @return the loader; close it when done
     */
    public static URLClassLoader entriesHolding(String markerResource) {
        List<URL> urls = new ArrayList<>();
        int dropped = 0;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (holds(path, markerResource)) {
                dropped++;
                continue;
            }
            try {
                urls.add(path.toUri().toURL());
            } catch (MalformedURLException e) {
                throw new UncheckedIOException(e);
            }
        }
        assertThat(dropped).as("class path entries holding " + markerResource).isPositive();
        return new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
    }

    private static boolean holds(Path path, String markerResource) {
        if (Files.isDirectory(path)) {
            return Files.exists(path.resolve(markerResource));
        }
        if (Files.isRegularFile(path) && path.toString().endsWith(".jar")) {
            try (JarFile jar = new JarFile(path.toFile())) {
                return jar.getEntry(markerResource) != null;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return false;
    }
}
