package dev.ctk.examples.docs;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static dev.ctk.examples.docs.DocsFixtures.network;
import static java.time.Duration.ofSeconds;

import dev.ctk.controller.Controller;
import dev.ctk.controller.ObjectKey;
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

  @Test
  void a_change_to_a_network_reconciled_before_is_awaited_by_its_count(KubernetesClient client,
      ControllerHarness harness) {
    // GIVEN a network the controller has reconciled
    Controller controller = harness.start(NetworkController.create(client, new InMemoryNetworkBackend()));
    String blue = harness.namespace() + "/blue";
    client.resource(network("blue", "10.0.0.0/16", "10.0.0.1")).create();
    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully(blue);
    // WHEN it changes, THEN wait on the count: hasReconciled(blue) would pass at once on the first reconcile
    // region:reconciled-again
    long before = controller.stats().reconcilesPerKey().getOrDefault(ObjectKey.parse(blue), 0L);
    client.resources(Network.class).inNamespace(harness.namespace()).withName("blue").edit(n -> {
      n.getSpec().setGateway("10.0.0.2");
      return n;
    });
    assertThat(controller).within(ofSeconds(5)).hasReconciledAtLeast(blue, before + 1).isIdle();
    // endregion:reconciled-again
  }
}
