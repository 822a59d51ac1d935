package dev.ctk.examples.nginx;

import static dev.ctk.examples.nginx.NginxServiceControllerTest.awaitService;
import static dev.ctk.examples.nginx.NginxServiceControllerTest.nginxDeployment;
import static java.time.Duration.ofSeconds;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.Controller;
import dev.ctk.junit.ControllerHarness;
import dev.ctk.junit.ControllerTest;
import dev.ctk.junit.ControllerTest.Mode;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

/**
 * Needs a garbage collector that follows ownerReferences. The fake has one, and so have k3s ({@code
 * ctk.container.k3s-image}) and an existing cluster; a bare kube-apiserver (envtest, or the apiserver + etcd
 * containers, the real modes CI runs) has none, since garbage collection is the work of kube-controller-manager.
 * So the class is pinned to fake mode rather than skipping in the others; to check the same on k3s or an existing
 * cluster, change the pin to {@code Mode.CONTAINER} (with {@code ctk.container.k3s-image}) or {@code
 * Mode.EXISTING_CLUSTER}.
 */
@ControllerTest(mode = Mode.FAKE)
class NginxServiceControllerGarbageCollectionTest {

  @Test
  void the_service_is_garbage_collected_with_its_deployment(KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    Controller controller = harness.start(NginxServiceController.create(client));
    Deployment web = client.resource(nginxDeployment("web", 80)).create();
    awaitService(client, "web");
    controller.close();   // from here on, only the garbage collector can delete the Service
    // WHEN
    client.resource(web).delete();
    // THEN the garbage collector follows the owner reference the controller set (a wrong uid would leave the
    // Service behind for good). The fake collects at once; a real cluster's garbage collector within seconds.
    await("Service web garbage-collected with its Deployment").atMost(ofSeconds(30))
        .until(() -> client.services().withName("web").get() == null);
  }
}
