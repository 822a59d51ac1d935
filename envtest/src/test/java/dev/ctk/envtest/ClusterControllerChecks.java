package dev.ctk.envtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.UUID;

/**
 * What a server with kube-controller-manager's garbage collector and namespace controller must do, checked the same
 * way for local processes and containers.
 */
final class ClusterControllerChecks {

  private static final Duration COLLECTED_WITHIN = Duration.ofSeconds(60);

  private ClusterControllerChecks() {}

  /** An object whose owner never existed is deleted by the collector. */
  static void collectsAnObjectWhoseOwnerNeverExisted(ApiServer server) {
    try (KubernetesClient client = server.newClient()) {
      // GIVEN
      client.configMaps().inNamespace("default").resource(new ConfigMapBuilder()
          .withNewMetadata().withName("dangling").addNewOwnerReference()
            .withApiVersion("v1").withKind("ConfigMap").withName("ghost").withUid(UUID.randomUUID().toString())
          .endOwnerReference().endMetadata().build()).create();
      // WHEN the collector runs / THEN
      await("the collector to delete default/dangling").atMost(COLLECTED_WITHIN)
          .until(() -> client.configMaps().inNamespace("default").withName("dangling").get() == null);
    }
  }

  /** A deleted namespace is Terminating right after the delete, then emptied and removed. */
  static void deletedNamespaceIsTerminatingThenGone(ApiServer server) {
    try (KubernetesClient client = server.newClient()) {
      // GIVEN
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("doomed").endMetadata().build())
          .create();
      client.configMaps().inNamespace("doomed").resource(new ConfigMapBuilder()
          .withNewMetadata().withName("content").endMetadata().build()).create();
      // WHEN
      client.namespaces().withName("doomed").delete();
      // THEN a GET right after still sees it, Terminating
      Namespace terminating = client.namespaces().withName("doomed").get();
      assertThat(terminating).isNotNull();
      assertThat(terminating.getStatus().getPhase()).isEqualTo("Terminating");
      await("the namespace controller to remove namespace doomed").atMost(COLLECTED_WITHIN)
          .until(() -> client.namespaces().withName("doomed").get() == null);
    }
  }
}
