package dev.ctk.examples.docs;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static dev.ctk.examples.docs.DocsFixtures.network;
import static java.time.Duration.ofSeconds;

import dev.ctk.controller.Controller;
import dev.ctk.examples.network.InMemoryNetworkBackend;
import dev.ctk.examples.network.Network;
import dev.ctk.examples.network.NetworkBackendException;
import dev.ctk.examples.network.NetworkController;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.junit.AcrossModes;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.junit.jupiter.api.Test;

/** A tour of the assertions on a controller, its work queue and an informer (docs/assertions.md). */
@ControllerTest(crds = "classpath:crds/networks.samplecrd.k8s.io.yaml")
@AcrossModes
class AssertionsExampleTest {

  @Test
  void a_reconcile_that_fails_once_then_succeeds(KubernetesClient client, ControllerHarness harness) {
    // GIVEN a backend that fails its first call, and an informer of the test's own
    InMemoryNetworkBackend backend = new InMemoryNetworkBackend();
    backend.failNextCalls(1);
    Controller controller = harness.start(NetworkController.create(client, backend));
    SharedIndexInformer<Network> informer = harness.closeAfterTest(client.resources(Network.class).inform());
    String blue = harness.namespace() + "/blue";
    // WHEN
    client.resource(network("blue", "10.0.0.0/16", "10.0.0.1")).create();
    // THEN
    // region:tour
    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully(blue);
    assertThat(controller).hasReconcileCount(blue, 2);
    assertThat(controller).hasFailedToReconcile(blue, NetworkBackendException.class).hasRequeued(blue);
    assertThat(controller).within(ofSeconds(5)).isIdle();
    assertThat(controller.workQueue()).hasDepth(0).hasRetried(1);
    assertThat(informer).within(ofSeconds(5)).hasSynced().containsKey(blue);
    // endregion:tour
  }
}
