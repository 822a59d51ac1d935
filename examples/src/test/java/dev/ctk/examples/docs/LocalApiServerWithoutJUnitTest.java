package dev.ctk.examples.docs;

import static dev.ctk.examples.docs.DocsFixtures.network;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.envtest.CrdInstaller;
import dev.ctk.envtest.LocalApiServer;
import dev.ctk.examples.network.Network;
import dev.ctk.harness.values.Mode;
import dev.ctk.junit.EnabledIfEnvtestAvailable;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The envtest engines without ctk's JUnit extension: a real kube-apiserver and etcd from local binaries, and the
 * CRD installer, as plain {@code AutoCloseable}s (docs/envtest.md). Skipped, with the reason, where no binaries
 * are found (CI provides them), or when {@code ctk.modes} / {@code CTK_MODES} leave envtest out, as the README's
 * main job does ({@code -Pquick}: the examples on the fake only).
 */
@EnabledIf(value = "envtestIsAskedFor",
    disabledReason = "ctk.modes / CTK_MODES leave envtest out (the quick profile runs the examples on the fake only)")
@EnabledIfEnvtestAvailable(Mode.ENVTEST)
class LocalApiServerWithoutJUnitTest {

  /** Whether the run asks for envtest: {@code ctk.modes} (else {@code CTK_MODES}) unset, or naming it. */
  static boolean envtestIsAskedFor() {
    String modes = System.getProperty("ctk.modes", System.getenv().getOrDefault("CTK_MODES", ""));
    return modes.isBlank() || Arrays.stream(modes.split(",")).anyMatch(m -> m.strip().equalsIgnoreCase("envtest"));
  }

  @Test
  void a_local_api_server_and_a_crd_installer_are_plain_auto_closeables() {
    String gateway;
    // region:plain
    try (LocalApiServer server = LocalApiServer.builder().build().start();
         KubernetesClient client = server.newClient();
         CrdInstaller crds = CrdInstaller.builder(client)
             .withClasspathResources("crds/networks.samplecrd.k8s.io.yaml").withUninstallOnClose(true).build()) {
      crds.install();                                   // waits until the CRD is Established
      client.resource(network("blue", "10.0.0.0/16", "10.0.0.1")).inNamespace("default").create();
      gateway = client.resources(Network.class).inNamespace("default").withName("blue").get().getSpec().getGateway();
    }
    // endregion:plain
    assertThat(gateway).isEqualTo("10.0.0.1");
  }
}
