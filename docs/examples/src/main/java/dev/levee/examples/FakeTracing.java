package dev.levee.examples;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * A tiny stand-in for an OpenTelemetry-style tracing API, so the span listener of
 * {@code docs/metrics.md} compiles without an OpenTelemetry dependency. The shapes match the real
 * API's: a tracer starts spans, a span takes attributes, timestamped events and a status, and ends;
 * the current span is per thread. With OpenTelemetry, {@code Tracer}, {@code Span} and
 * {@code Span.current()} take their place one for one.
 */
public final class FakeTracing {
    private FakeTracing() {}

    /** An event on a span: a name, a timestamp on the policy's ticker, attributes. */
    public record SpanEvent(String name, long atNanos, Map<String, Object> attributes) {}

    /** A span: started by {@link Tracer#start(String)}, ended once. */
    public static final class Span {
        private final String name;
        private final Map<String, Object> attributes = new ConcurrentHashMap<>();
        private final List<SpanEvent> events = new CopyOnWriteArrayList<>();
        private volatile boolean error;
        private volatile boolean ended;

        Span(String name) {
            this.name = name;
        }

        /**
         * Sets an attribute.
         *
         * @param key the key
         * @param value the value
         * @return this span
         */
        public Span setAttribute(String key, Object value) {
            attributes.put(key, value);
            return this;
        }

        /**
         * Adds an event.
         *
         * @param event the event name
         * @param atNanos when it happened, on the policy's ticker
         * @param eventAttributes its attributes
         * @return this span
         */
        public Span addEvent(String event, long atNanos, Map<String, Object> eventAttributes) {
            events.add(new SpanEvent(event, atNanos, Map.copyOf(eventAttributes)));
            return this;
        }

        /** Marks the span as failed. */
        public void setError() {
            error = true;
        }

        /** Ends the span. */
        public void end() {
            ended = true;
        }

        /**
         * The span's name.
         *
         * @return the name
         */
        public String name() {
            return name;
        }

        /**
         * The attributes set so far.
         *
         * @return a copy
         */
        public Map<String, Object> attributes() {
            return Map.copyOf(attributes);
        }

        /**
         * The events added so far.
         *
         * @return a copy
         */
        public List<SpanEvent> events() {
            return List.copyOf(events);
        }

        /**
         * Whether the span was marked failed.
         *
         * @return true if failed
         */
        public boolean isError() {
            return error;
        }

        /**
         * Whether the span has ended.
         *
         * @return true once ended
         */
        public boolean isEnded() {
            return ended;
        }
    }

    /** Starts spans and keeps the current one per thread; records every span it started. */
    public static final class Tracer {
        private final ThreadLocal<@Nullable Span> current = new ThreadLocal<>();
        private final List<Span> started = new CopyOnWriteArrayList<>();

        /**
         * Starts a span and makes it current on this thread until {@link #close(Span, Span)}.
         *
         * @param name the span name
         * @return the span
         */
        public Span start(String name) {
            Span span = new Span(name);
            started.add(span);
            current.set(span);
            return span;
        }

        /**
         * Ends a span and restores the span that was current before it.
         *
         * @param span the span to end
         * @param previous the span current before it, or null
         */
        public void close(Span span, @Nullable Span previous) {
            span.end();
            if (previous == null) {
                current.remove();
            } else {
                current.set(previous);
            }
        }

        /**
         * The span current on this thread.
         *
         * @return the span, or null
         */
        public @Nullable Span current() {
            return current.get();
        }

        /**
         * Every span started, in order.
         *
         * @return a copy
         */
        public List<Span> spans() {
            return List.copyOf(started);
        }
    }
}
