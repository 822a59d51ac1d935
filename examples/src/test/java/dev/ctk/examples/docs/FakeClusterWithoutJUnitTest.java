package dev.ctk.examples.docs;

import static dev.ctk.examples.docs.DocsFixtures.network;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.examples.network.Network;
import dev.ctk.fake.FakeCluster;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

/**
 * The fake API server without ctk's JUnit extension: a plain {@code AutoCloseable}, for Spock, TestNG or
 * {@code main} (docs/fake-api-server.md).
 */
class FakeClusterWithoutJUnitTest {

  @Test
  void a_fake_cluster_is_a_plain_auto_closeable() {
    String gateway;
    // region:plain
    try (FakeCluster cluster = FakeCluster.builder()
        .withClasspathResources("crds/networks.samplecrd.k8s.io.yaml").build()) {
      KubernetesClient client = cluster.client();
      client.resource(network("blue", "10.0.0.0/16", "10.0.0.1")).inNamespace("default").create();
      gateway = client.resources(Network.class).inNamespace("default").withName("blue").get().getSpec().getGateway();
    }
    // endregion:plain
    assertThat(gateway).isEqualTo("10.0.0.1");
  }
}
