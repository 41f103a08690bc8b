package dev.levee.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Decides which outcomes of a call count as failures: shared by the circuit breaker (what it
 * records), retry (what it retries) and degradation (what triggers a fallback), so one vocabulary
 * configures all three.
 *
 * <p><b>Rules.</b> Exception rules are checked in the order they were added and the first match
 * wins; a rule matches a class and its subclasses. When no rule matches:
 * <ul>
 *   <li>an {@link Error} ({@code OutOfMemoryError}, {@code StackOverflowError}, ...) is
 *       {@link Outcome#IGNORED} — it says nothing about the dependency and is never something to
 *       retry or fall back from — unless {@link Builder#recordErrors(boolean)} is set; either way
 *       it is always rethrown unchanged;</li>
 *   <li>any other throwable is a {@link Outcome#FAILURE}.</li>
 * </ul>
 * A returned value is a {@link Outcome#SUCCESS} unless the result predicate says it is a failure.
 *
 * <p>Example: count timeouts and I/O errors, ignore validation errors and local rejections.
 * <pre>{@code
 * Classifier classifier = Classifier.builder()
 *         .failOn(DeadlineExceededException.class)
 *         .ignore(RejectedException.class, IllegalArgumentException.class)
 *         .failOnResult(response -> ((HttpResponse<?>) response).statusCode() >= 500)
 *         .build();
 * }</pre>
 *
 * <p>Immutable and thread-safe. Classification runs only on the failure path and on results when a
 * result predicate is set, so it costs nothing on a plain success.
 */
public final class Classifier {
    private static final Classifier DEFAULT = builder().build();

    private final Rule[] rules;
    private final @Nullable Predicate<Object> resultIsFailure;
    private final boolean recordErrors;

    private Classifier(Builder b) {
        this.rules = b.rules.toArray(new Rule[0]);
        this.resultIsFailure = b.resultIsFailure;
        this.recordErrors = b.recordErrors;
    }

    /**
     * Every exception a failure, every error ignored, every result a success.
     *
     * @return the default classifier
     */
    public static Classifier defaults() {
        return DEFAULT;
    }

    /**
     * Starts a classifier.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Classifies a thrown exception.
     *
     * @param error what the call threw (unwrap {@code CompletionException} first)
     * @return the outcome
     */
    public Outcome classify(Throwable error) {
        for (Rule rule : rules) {
            if (rule.test.test(error)) {
                return rule.outcome;
            }
        }
        if (error instanceof Error) {
            return recordErrors ? Outcome.FAILURE : Outcome.IGNORED;
        }
        return Outcome.FAILURE;
    }

    /**
     * Classifies a returned value.
     *
     * @param result what the call returned, possibly null
     * @return {@link Outcome#FAILURE} if the result predicate says so, else {@link Outcome#SUCCESS}
     */
    public Outcome classifyResult(@Nullable Object result) {
        return resultIsFailure != null && resultIsFailure.test(result) ? Outcome.FAILURE : Outcome.SUCCESS;
    }

    /**
     * Whether any result can be a failure; lets a gate skip {@link #classifyResult} entirely.
     *
     * @return true if a result predicate is set
     */
    public boolean classifiesResults() {
        return resultIsFailure != null;
    }

    /**
     * A builder that starts with this classifier's rules, to extend them.
     *
     * @return a builder holding a copy of these rules
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.rules.addAll(List.of(rules));
        b.resultIsFailure = resultIsFailure;
        b.recordErrors = recordErrors;
        return b;
    }

    private static final class Rule {
        final Predicate<? super Throwable> test;
        final Outcome outcome;

        Rule(Predicate<? super Throwable> test, Outcome outcome) {
            this.test = test;
            this.outcome = outcome;
        }
    }

    /** Builds a {@link Classifier}. Not thread-safe. */
    public static final class Builder {
        private final List<Rule> rules = new ArrayList<>();
        private @Nullable Predicate<Object> resultIsFailure;
        private boolean recordErrors;

        private Builder() {}

        /**
         * Counts these exception types (and subclasses) as failures.
         *
         * @param types the types
         * @return this builder
         */
        @SafeVarargs
        @SuppressWarnings("varargs") // the array is only read, never stored or exposed
        public final Builder failOn(Class<? extends Throwable>... types) {
            return add(types, Outcome.FAILURE);
        }

        /**
         * Ignores these exception types (and subclasses): not counted, not retried, no fallback.
         *
         * @param types the types
         * @return this builder
         */
        @SafeVarargs
        @SuppressWarnings("varargs") // the array is only read, never stored or exposed
        public final Builder ignore(Class<? extends Throwable>... types) {
            return add(types, Outcome.IGNORED);
        }

        /**
         * Counts exceptions matching {@code predicate} as failures.
         *
         * @param predicate the test
         * @return this builder
         */
        public Builder failWhen(Predicate<? super Throwable> predicate) {
            rules.add(new Rule(Objects.requireNonNull(predicate, "predicate"), Outcome.FAILURE));
            return this;
        }

        /**
         * Ignores exceptions matching {@code predicate}.
         *
         * @param predicate the test
         * @return this builder
         */
        public Builder ignoreWhen(Predicate<? super Throwable> predicate) {
            rules.add(new Rule(Objects.requireNonNull(predicate, "predicate"), Outcome.IGNORED));
            return this;
        }

        /**
         * Counts returned values matching {@code predicate} as failures (an HTTP 503, an empty
         * answer). Results are untyped because one classifier serves every call of a policy. Calling
         * it again adds a predicate: a result is a failure if any of them matches.
         *
         * @param predicate the test; receives the result, possibly null
         * @return this builder
         */
        public Builder failOnResult(Predicate<Object> predicate) {
            Objects.requireNonNull(predicate, "predicate");
            this.resultIsFailure = resultIsFailure == null ? predicate : resultIsFailure.or(predicate);
            return this;
        }

        /**
         * Whether an {@link Error} with no matching rule counts as a failure (default false: ignored).
         * Errors are rethrown either way.
         *
         * @param recordErrors true to count errors as failures
         * @return this builder
         */
        public Builder recordErrors(boolean recordErrors) {
            this.recordErrors = recordErrors;
            return this;
        }

        private Builder add(Class<? extends Throwable>[] types, Outcome outcome) {
            Objects.requireNonNull(types, "types");
            for (Class<? extends Throwable> type : types) {
                Objects.requireNonNull(type, "exception type");
                rules.add(new Rule(type::isInstance, outcome));
            }
            return this;
        }

        /**
         * Builds the classifier.
         *
         * @return the immutable classifier
         */
        public Classifier build() {
            return new Classifier(this);
        }
    }
}
