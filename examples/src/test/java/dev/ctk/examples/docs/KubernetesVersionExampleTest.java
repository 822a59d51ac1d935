package dev.ctk.examples.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctk.fake.FakeCluster;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The fake's Kubernetes version is a choice (docs/kubernetes-versions.md). */
class KubernetesVersionExampleTest {

  @Test
  void a_fake_emulating_1_34_words_errors_as_kube_1_34_does() {
    // region:choose
    try (FakeCluster cluster = FakeCluster.builder().withKubernetesVersion("1.34").build()) {
      KubernetesClient client = cluster.client();
      assertThat(client.getKubernetesVersion().getMinor()).isEqualTo("34");
      // endregion:choose
      client.resource(deployment(Map.of("app", "web"))).inNamespace("default").create();
      Deployment changed = deployment(Map.of("app", "web", "tier", "front"));
      assertThatThrownBy(() -> client.resource(changed).inNamespace("default").update())
          .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getStatus().getMessage())
              .isEqualTo("Deployment.apps \"web\" is invalid: spec.selector: Invalid value: "
                  + "{\"matchLabels\":{\"app\":\"web\",\"tier\":\"front\"}}: field is immutable"));
    }
  }

  private static Deployment deployment(Map<String, String> labels) {
    return new DeploymentBuilder().withNewMetadata().withName("web").endMetadata()
        .withNewSpec().withSelector(new LabelSelectorBuilder().withMatchLabels(labels).build())
          .withNewTemplate().withNewMetadata().withLabels(labels).endMetadata()
            .withNewSpec().addNewContainer().withName("main").withImage("nginx:1.27").endContainer().endSpec()
          .endTemplate()
        .endSpec().build();
  }
}
