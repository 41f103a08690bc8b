package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class ClassifierTest {

    @Test
    void defaultsCountExceptionsAndIgnoreErrors() {
        Classifier c = Classifier.defaults();
        assertThat(c.classify(new IOException())).isEqualTo(Outcome.FAILURE);
        assertThat(c.classify(new IllegalStateException())).isEqualTo(Outcome.FAILURE);
        assertThat(c.classify(new OutOfMemoryError())).isEqualTo(Outcome.IGNORED);
        assertThat(c.classifyResult("anything")).isEqualTo(Outcome.SUCCESS);
        assertThat(c.classifiesResults()).isFalse();
    }

    @Test
    void firstMatchingRuleWinsAndMatchesSubclasses() {
        Classifier c = Classifier.builder()
                .failOn(DeadlineExceededException.class)
                .ignore(RejectedException.class, IllegalArgumentException.class)
                .build();

        assertThat(c.classify(new DeadlineExceededException("t", "late", 0))).isEqualTo(Outcome.FAILURE);
        assertThat(c.classify(new BulkheadFullException("b", "full", 0))).isEqualTo(Outcome.IGNORED);
        assertThat(c.classify(new NumberFormatException())).isEqualTo(Outcome.IGNORED);
        assertThat(c.classify(new UncheckedIOException(new IOException()))).isEqualTo(Outcome.FAILURE);
    }

    @Test
    void predicatesAndResultsAndErrors() {
        Classifier c = Classifier.builder()
                .ignoreWhen(t -> t.getMessage() != null && t.getMessage().contains("benign"))
                .failWhen(t -> t instanceof AssertionError)
                .failOnResult(r -> r instanceof Integer && (Integer) r >= 500)
                .recordErrors(true)
                .build();

        assertThat(c.classify(new IllegalStateException("benign glitch"))).isEqualTo(Outcome.IGNORED);
        assertThat(c.classify(new AssertionError("x"))).isEqualTo(Outcome.FAILURE);
        assertThat(c.classify(new StackOverflowError())).isEqualTo(Outcome.FAILURE);
        assertThat(c.classifyResult(503)).isEqualTo(Outcome.FAILURE);
        assertThat(c.classifyResult(200)).isEqualTo(Outcome.SUCCESS);
        assertThat(c.classifyResult(null)).isEqualTo(Outcome.SUCCESS);
        assertThat(c.classifiesResults()).isTrue();
    }

    @Test
    void toBuilderExtendsWithoutChangingTheOriginal() {
        Classifier base = Classifier.builder().ignore(IllegalArgumentException.class).build();
        Classifier extended = base.toBuilder().ignore(IOException.class).build();

        assertThat(base.classify(new IOException())).isEqualTo(Outcome.FAILURE);
        assertThat(extended.classify(new IOException())).isEqualTo(Outcome.IGNORED);
        assertThat(extended.classify(new IllegalArgumentException())).isEqualTo(Outcome.IGNORED);
    }

    @Test
    void resultPredicatesAccumulate() {
        Classifier c = Classifier.builder()
                .failOnResult(r -> "bad".equals(r))
                .failOnResult(r -> r == null)
                .build();
        assertThat(c.classifyResult("bad")).isEqualTo(Outcome.FAILURE);
        assertThat(c.classifyResult(null)).isEqualTo(Outcome.FAILURE);
        assertThat(c.classifyResult("good")).isEqualTo(Outcome.SUCCESS);
    }
}
