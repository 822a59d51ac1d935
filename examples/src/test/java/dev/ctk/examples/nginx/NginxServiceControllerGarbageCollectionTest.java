package dev.ctk.examples.nginx;

import static dev.ctk.examples.nginx.NginxServiceControllerTest.awaitService;
import static dev.ctk.examples.nginx.NginxServiceControllerTest.nginxDeployment;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.controller.Controller;
import dev.ctk.fake.FakeCluster;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.values.Mode;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

/**
 * Needs a garbage collector that follows ownerReferences. The fake has one, and so have k3s ({@code
 * ctk.container.k3s-image}) and an existing cluster; a bare kube-apiserver (envtest, or the apiserver + etcd
 * containers, the real modes CI runs) has none, since garbage collection is the work of kube-controller-manager.
 * So the class is pinned to fake mode rather than skipping in the others, and waits for the fake's collector with
 * {@link FakeCluster#awaitGarbageCollection}, which returns once the collector has done what the delete gave it (no
 * polling). To check the same on k3s or an existing cluster, change the pin to {@code Mode.CONTAINER} (with {@code
 * ctk.container.k3s-image}) or {@code Mode.EXISTING_CLUSTER}, and wait for the Service to go with Awaitility instead
 * (a real cluster's collector has no such signal).
 */
@ControllerTest(mode = Mode.FAKE)
class NginxServiceControllerGarbageCollectionTest {

  @Test
  void the_service_is_garbage_collected_with_its_deployment(KubernetesClient client, ControllerHarness harness,
      FakeCluster cluster) {
    // GIVEN
    Controller controller = harness.start(NginxServiceController.create(client));
    Deployment web = client.resource(nginxDeployment("web", 80)).create();
    awaitService(client, "web");
    controller.close();   // from here on, only the garbage collector can delete the Service
    // WHEN
    client.resource(web).delete();
    // THEN the garbage collector follows the owner reference the controller set (a wrong uid would leave the
    // Service behind for good). As a real cluster's, it works after the delete is answered: wait until it settles.
    cluster.awaitGarbageCollection(ofSeconds(30));
    assertThat(client.services().withName("web").get()).isNull();
  }
}
