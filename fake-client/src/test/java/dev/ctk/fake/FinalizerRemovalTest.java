package dev.ctk.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.WatchLines;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Removing the last finalizer of an object being deleted, in the same update as other changes. */
class FinalizerRemovalTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  @Test
  void lastFinalizerRemovedWithRelabel_deletesTheLastStoredState_andAnswersTheUpdatedObject() {
    try (FakeCluster cluster = FakeCluster.start()) {
      KubernetesClient client = cluster.client();
      client.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("web").addToLabels("app", "web")
          .addToFinalizers("example.com/hold").endMetadata().build()).create();
      try (WatchLines watch = new RawApi(cluster.url())
          .watch("/api/v1/namespaces/default/configmaps?watch=true&labelSelector=app%3Dweb")) {
        await().atMost(WAIT).until(() -> watch.summary().size() == 1);
        client.configMaps().withName("web").delete();
        ConfigMap marked = client.configMaps().withName("web").get();
        marked.getMetadata().setFinalizers(List.of());
        marked.getMetadata().setLabels(Map.of("app", "gone"));

        ConfigMap answer = client.configMaps().resource(marked).update();

        assertThat(client.configMaps().withName("web").get()).as("GET after the update").isNull();
        await("ADDED, MODIFIED (deletionTimestamp), DELETED").atMost(WAIT).untilAsserted(() ->
            assertThat(watch.summary()).containsExactly("ADDED web", "MODIFIED web", "DELETED web"));
        var deleted = watch.events().get(2).path("object").path("metadata");
        assertThat(deleted.path("labels").path("app").asText()).as("DELETED carries the last stored labels")
            .isEqualTo("web");
        assertThat(deleted.path("finalizers").get(0).asText()).as("and the last stored finalizers")
            .isEqualTo("example.com/hold");
        assertThat(deleted.path("resourceVersion").asText()).isEqualTo(cluster.resourceVersion());
        assertThat(answer.getMetadata().getLabels()).as("the answer is the object as the update asked for it")
            .containsExactly(Map.entry("app", "gone"));
        assertThat(answer.getMetadata().getFinalizers()).as("without finalizers").isEmpty();
        assertThat(answer.getMetadata().getResourceVersion()).as("at the resourceVersion it had")
            .isEqualTo(marked.getMetadata().getResourceVersion());
      }
    }
  }
}
