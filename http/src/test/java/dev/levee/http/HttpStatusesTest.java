package dev.levee.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.BulkheadFullException;
import dev.levee.core.Classifier;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.Outcome;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class HttpStatusesTest {

    @Test
    void transientAndPermanentPartitionTheErrorStatuses() {
        for (int status = 100; status < 600; status++) {
            boolean isTransient = HttpStatuses.isTransient(status);
            boolean permanent = HttpStatuses.isPermanent(status);
            assertThat(isTransient && permanent).as("status %d", status).isFalse();
            assertThat(isTransient || permanent).as("status %d", status).isEqualTo(status >= 400);
        }
        for (int status : new int[] {408, 425, 429, 500, 502, 503, 504}) {
            assertThat(HttpStatuses.isTransient(status)).as("%d", status).isTrue();
        }
        for (int status : new int[] {400, 401, 403, 404, 409, 422, 501, 505}) {
            assertThat(HttpStatuses.isPermanent(status)).as("%d", status).isTrue();
        }
    }

    @Test
    void predicatesReadResponses() {
        assertThat(HttpStatuses.TRANSIENT_RESPONSE.test(FakeResponse.of(503))).isTrue();
        assertThat(HttpStatuses.TRANSIENT_RESPONSE.test(FakeResponse.of(404))).isFalse();
        assertThat(HttpStatuses.TRANSIENT_RESPONSE.test("503")).isFalse();
        assertThat(HttpStatuses.TRANSIENT_RESPONSE.test(null)).isFalse();
        assertThat(HttpStatuses.PERMANENT_RESPONSE.test(FakeResponse.of(404))).isTrue();
        assertThat(HttpStatuses.PERMANENT_RESPONSE.test(FakeResponse.of(200))).isFalse();
    }

    @Test
    void breakerClassifierCountsTransientResponsesAndKeepsTheBreakerDefaults() {
        Classifier classifier = HttpStatuses.breakerClassifier();
        assertThat(classifier.classifyResult(FakeResponse.of(503))).isEqualTo(Outcome.FAILURE);
        assertThat(classifier.classifyResult(FakeResponse.of(429))).isEqualTo(Outcome.FAILURE);
        assertThat(classifier.classifyResult(FakeResponse.of(404))).isEqualTo(Outcome.SUCCESS);
        assertThat(classifier.classifyResult(FakeResponse.of(200))).isEqualTo(Outcome.SUCCESS);
        assertThat(classifier.classify(new IOException("reset"))).isEqualTo(Outcome.FAILURE);
        assertThat(classifier.classify(new DeadlineExceededException("t", "late", 0))).isEqualTo(Outcome.FAILURE);
        assertThat(classifier.classify(new BulkheadFullException("b", "full", 0))).isEqualTo(Outcome.IGNORED);
        assertThat(classifier.classify(new StackOverflowError())).isEqualTo(Outcome.IGNORED);
    }
}
