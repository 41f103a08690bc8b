package dev.levee.redis;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A real {@code redis-server} on a free loopback port, for tests: the one on the {@code PATH} if there
 * is one, otherwise the Linux binary shipped inside the {@code com.github.codemonstur:embedded-redis}
 * test dependency (extracted to {@code target/redis-bin} and made executable). No persistence.
 *
 * <p>Every process started is stopped by {@link #close()} and, whatever happens to the test (a failure,
 * an error, an aborted run), by a JVM shutdown hook, so no server outlives the build.
 */
public final class RedisServer implements AutoCloseable {
    private static final String EMBEDDED = "redis-server-6.2.6-v5-linux-amd64";
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(Process::destroyForcibly), "redis-reaper"));
    }

    private final int port;
    private final Path dir;
    private final List<String> extra;
    private volatile Process process;

    private RedisServer(int port, Path dir, List<String> extra) {
        this.port = port;
        this.dir = dir;
        this.extra = List.copyOf(extra);
        this.process = launch();
    }

    /**
     * Starts a server on a free loopback port.
     *
     * @param extra more {@code --option value} arguments
     * @return the running server
     */
    public static RedisServer start(String... extra) {
        boolean cluster = List.of(extra).contains("--cluster-enabled");
        IOException last = null;
        for (int attempt = 0; attempt < 10; attempt++) {
            // A cluster node also listens on port + 10000 (its bus), which must be a valid, free port.
            int port = cluster ? freeClusterPort() : freePort();
            try {
                // A directory of its own for each start, never reused: a cluster node reads the
                // nodes.conf it finds there, and one left by an earlier run on the same port would come
                // back with that run's slots ("ERR Slot 0 is already busy").
                Path parent = Files.createDirectories(Paths.get("target").toAbsolutePath());
                Path dir = Files.createTempDirectory(parent, "redis-" + port + "-");
                return new RedisServer(port, dir, List.of(extra));
            } catch (IOException e) {
                last = e;
            } catch (IllegalStateException e) {
                last = new IOException(e); // the port was taken between probing and binding: try another
            }
        }
        throw new UncheckedIOException("could not start redis-server", last);
    }

    public int port() {
        return port;
    }

    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    public Path dir() {
        return dir;
    }

    /** Kills the server with SIGKILL (no shutdown, no goodbye to clients) and waits until it is gone. */
    public void kill() {
        Process p = process;
        p.destroyForcibly();
        try {
            p.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        RUNNING.remove(p);
    }

    /**
     * Sends a signal to the server ({@code STOP} freezes it with its connections open, {@code CONT}
     * resumes it).
     *
     * @param signal the signal's name without {@code SIG}
     */
    public void signal(String signal) {
        try {
            int rc = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start().waitFor();
            if (rc != 0) {
                throw new IllegalStateException("kill -" + signal + " failed: " + rc);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Starts the server again on the same port (empty: nothing was persisted). */
    public void restart() {
        kill();
        process = launch();
    }

    public boolean alive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        kill();
    }

    /** Sends one inline command and returns the first line of the reply (for tests that talk raw RESP). */
    public String command(String line) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write((line + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder reply = new StringBuilder();
            int c;
            while ((c = in.read()) != -1 && c != '\n') {
                if (c != '\r') {
                    reply.append((char) c);
                }
            }
            return reply.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Process launch() {
        List<String> cmd = new ArrayList<>(List.of(binary().toString(),
                "--port", Integer.toString(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--protected-mode", "no", "--daemonize", "no", "--dir", dir.toString()));
        cmd.addAll(extra);
        Process p;
        try {
            p = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("redis.log").toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        RUNNING.add(p);
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                    .until(() -> !p.isAlive() || answersPing());
        } catch (RuntimeException e) {
            p.destroyForcibly();
            RUNNING.remove(p);
            throw new IllegalStateException("redis-server did not answer on port " + port, e);
        }
        if (!p.isAlive()) {
            RUNNING.remove(p);
            throw new IllegalStateException("redis-server exited at start on port " + port + " (see " + dir + "/redis.log)");
        }
        return p;
    }

    private boolean answersPing() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            socket.setSoTimeout(1_000);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.UTF_8));
            byte[] reply = new byte[5];
            int n = socket.getInputStream().read(reply);
            return n >= 5 && new String(reply, StandardCharsets.UTF_8).equals("+PONG");
        } catch (IOException e) {
            return false;
        }
    }

    private static int freeClusterPort() {
        for (int i = 0; i < 100; i++) {
            int port = freePort();
            if (port + 10_000 <= 65_535 && isFree(port + 10_000)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port pair (p, p + 10000) on the loopback interface");
    }

    private static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort() == port;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The binary: {@code redis-server} on the PATH, else the one inside embedded-redis. The system
     * property {@code levee.redis.server=embedded} skips the PATH (to test the fallback on a machine
     * that has Redis installed).
     */
    public static synchronized Path binary() {
        String path = System.getenv("PATH");
        if (path != null && !"embedded".equals(System.getProperty("levee.redis.server"))) {
            for (String d : path.split(java.io.File.pathSeparator)) {
                Path candidate = Paths.get(d, "redis-server");
                if (Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
        Path target = Paths.get("target", "redis-bin", EMBEDDED).toAbsolutePath();
        if (Files.isExecutable(target)) {
            return target;
        }
        try (InputStream in = RedisServer.class.getClassLoader().getResourceAsStream(EMBEDDED)) {
            if (in == null) {
                throw new IllegalStateException("no redis-server on the PATH and no " + EMBEDDED
                        + " on the test classpath (com.github.codemonstur:embedded-redis)");
            }
            Files.createDirectories(target.getParent());
            Path tmp = Files.createTempFile(target.getParent(), "redis-server", ".tmp");
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            if (!tmp.toFile().setExecutable(true)) {
                throw new IllegalStateException("cannot make " + tmp + " executable");
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
