package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.configMap;
import static dev.ctk.fake.testing.Fixtures.network;
import static dev.ctk.fake.testing.Fixtures.networkCrd;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** FakeCluster.objects(): every stored object, copied and sorted, for end-state comparisons. */
class ClusterObjectsTest {

  private static List<String> describe(List<GenericKubernetesResource> objects) {
    return objects.stream().map(o -> o.getApiVersion() + "/" + o.getKind() + " "
        + (o.getMetadata().getNamespace() == null ? "" : o.getMetadata().getNamespace() + "/")
        + o.getMetadata().getName()
        + (o.getMetadata().getDeletionTimestamp() == null ? "" : " deleting")).toList();
  }

  @Test
  void objects_areEveryStoredObjectOfEveryKind_sortedByApiVersionKindNamespaceName_deletingOnesIncluded() {
    try (FakeCluster cluster = FakeCluster.builder().withCrds(networkCrd()).build()) {
      cluster.create(new NamespaceBuilder().withNewMetadata().withName("shop").endMetadata().build());
      cluster.create(configMap("web", Map.of("v", "1")));
      var held = configMap("held", Map.of());
      held.getMetadata().setFinalizers(List.of("example.com/keep"));
      cluster.create(held);
      cluster.client().configMaps().inNamespace("default").withName("held").delete();
      var shopMap = configMap("api", Map.of());
      shopMap.getMetadata().setNamespace("shop");
      cluster.create(shopMap);
      cluster.create(network("net-b", "10.0.1.0/24"));
      cluster.create(network("net-a", "10.0.0.0/24"));

      List<GenericKubernetesResource> objects = cluster.objects();

      assertThat(describe(objects)).containsExactly(
          "apiextensions.k8s.io/v1/CustomResourceDefinition networks.samplecrd.k8s.io",
          "samplecrd.k8s.io/v1/Network default/net-a",
          "samplecrd.k8s.io/v1/Network default/net-b",
          "v1/ConfigMap default/held deleting",
          "v1/ConfigMap default/web",
          "v1/ConfigMap shop/api",
          "v1/Namespace default",
          "v1/Namespace kube-node-lease",
          "v1/Namespace kube-public",
          "v1/Namespace kube-system",
          "v1/Namespace shop");
      assertThat(objects.get(1).getAdditionalProperties()).containsEntry("spec",
          Map.of("cidr", "10.0.0.0/24", "gateway", "10.0.0.1"));
    }
  }

  @Test
  void objects_areCopies() {
    try (FakeCluster cluster = FakeCluster.start()) {
      cluster.create(configMap("web", Map.of("v", "1")));
      GenericKubernetesResource web = cluster.objects().stream()
          .filter(o -> o.getMetadata().getName().equals("web")).findFirst().orElseThrow();

      web.getMetadata().setName("changed");
      web.getAdditionalProperties().put("data", Map.of("v", "2"));

      GenericKubernetesResource again = cluster.objects().stream()
          .filter(o -> "ConfigMap".equals(o.getKind())).findFirst().orElseThrow();
      assertThat(again.getMetadata().getName()).isEqualTo("web");
      assertThat(again.getAdditionalProperties()).containsEntry("data", Map.of("v", "1"));
      assertThat(cluster.client().configMaps().inNamespace("default").withName("web").get().getData())
          .containsEntry("v", "1");
      cluster.close();
      assertThat(cluster.objects()).as("readable after close").hasSize(5);
    }
  }
}
