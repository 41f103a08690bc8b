package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.bulkhead.ShuffleSharding;
import dev.levee.retry.ReplicaSet;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ReplicasExamplesTest {
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void theHedgeGoesToAnotherReplicaAndItAnswers() throws Exception {
        try (ReplicasExamples.LoopbackReplicas servers = new ReplicasExamples.LoopbackReplicas(3, 0, Duration.ofSeconds(20))) {
            ReplicaSet<URI> replicas = ReplicasExamples.roundRobin(servers.uris()); // the first attempt goes to replica 0, the slow one
            String answer = ReplicasExamples.hedgeToAnotherReplica(replicas, client);
            assertThat(answer).isIn("replica-1", "replica-2");
            assertThat(replicas.metrics().picks()).isEqualTo(2);
        }
    }

    @Test
    void theOtherExamplesRun() throws Exception {
        try (ReplicasExamples.LoopbackReplicas servers = new ReplicasExamples.LoopbackReplicas(3, 0, Duration.ofMillis(1))) {
            ReplicaSet<URI> replicas = ReplicasExamples.catalogReplicas(servers.uris());
            assertThat(ReplicasExamples.retryOnAnotherReplica(replicas, client)).startsWith("replica-");
            assertThat(ReplicasExamples.withinATenantsShard(replicas, ShuffleSharding.of(3, 2), "tenant-a", client))
                    .startsWith("replica-");
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            ReplicasExamples.bindMetrics(replicas, registry);
            assertThat(registry.find("levee.replicas.calls").functionCounters()).hasSize(6);
        }
    }
}
