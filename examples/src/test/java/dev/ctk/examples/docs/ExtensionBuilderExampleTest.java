package dev.ctk.examples.docs;

import static dev.ctk.examples.docs.DocsFixtures.network;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.examples.network.Network;
import dev.ctk.junit.ControllerTestExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The builder form of {@code @ControllerTest}, for settings that need objects or lambdas (docs/fake-api-server.md). */
class ExtensionBuilderExampleTest {

  // region:builder
  @RegisterExtension
  static ControllerTestExtension ctk = ControllerTestExtension.builder()
      .withCrds("classpath:crds/networks.samplecrd.k8s.io.yaml")
      .withObjects(new NamespaceBuilder().withNewMetadata().withName("team-a").endMetadata().build())
      .build();
  // endregion:builder

  @Test
  void seeds_the_crd_and_the_objects_before_the_test(KubernetesClient client) {
    // THEN the namespace is there, and the CRD's kind is served
    assertThat(client.namespaces().withName("team-a").get()).isNotNull();
    client.resource(network("blue", "10.0.0.0/16", "10.0.0.1")).create();
    assertThat(client.resources(Network.class).withName("blue").get().getSpec().getGateway())
        .isEqualTo("10.0.0.1");
  }
}
