package dev.levee.degrade.testing;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMDCAdapter;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * A test SLF4J provider that records every log line, so tests assert on WARN and ERROR lines without
 * reading the console or sleeping. Registered in {@code META-INF/services}. Tests filter by the
 * policy name they used (each test uses a unique one), since the record is shared by the JVM.
 */
public final class RecordingLogs implements SLF4JServiceProvider {
    /** One recorded line. */
    public record Line(String logger, Level level, String message, Throwable error) {}

    private static final List<Line> LINES = new CopyOnWriteArrayList<>();

    private final ConcurrentMap<String, Logger> loggers = new ConcurrentHashMap<>();
    private final ILoggerFactory factory = name -> loggers.computeIfAbsent(name, RecordingLogger::new);
    private final IMarkerFactory markers = new BasicMarkerFactory();
    private final MDCAdapter mdc = new BasicMDCAdapter();

    /**
     * The lines at {@code level} whose message contains {@code text}.
     *
     * @param level the level
     * @param text a substring, e.g. {@code "'my-fallback'"}
     * @return the lines, in order
     */
    public static List<Line> lines(Level level, String text) {
        return LINES.stream().filter(l -> l.level() == level && l.message().contains(text)).collect(Collectors.toList());
    }

    @Override
    public ILoggerFactory getLoggerFactory() {
        return factory;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markers;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdc;
    }

    @Override
    public String getRequestedApiVersion() {
        return "2.0.99";
    }

    @Override
    public void initialize() {}

    private static final class RecordingLogger extends LegacyAbstractLogger {
        private static final long serialVersionUID = 1L;

        RecordingLogger(String name) {
            this.name = name;
        }

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] args,
                Throwable error) {
            String message = MessageFormatter.basicArrayFormat(pattern, args);
            LINES.add(new Line(name, level, message, error));
        }

        @Override
        public boolean isTraceEnabled() {
            return false;
        }

        @Override
        public boolean isDebugEnabled() {
            return true;
        }

        @Override
        public boolean isInfoEnabled() {
            return true;
        }

        @Override
        public boolean isWarnEnabled() {
            return true;
        }

        @Override
        public boolean isErrorEnabled() {
            return true;
        }
    }
}
