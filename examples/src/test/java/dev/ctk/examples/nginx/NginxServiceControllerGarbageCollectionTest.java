package dev.ctk.examples.nginx;

import static dev.ctk.examples.nginx.NginxServiceControllerTest.awaitService;
import static dev.ctk.examples.nginx.NginxServiceControllerTest.nginxDeployment;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.junit.ControllerHarness;
import dev.ctk.junit.ControllerTest;
import dev.ctk.junit.ControllerTest.Mode;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

/**
 * Fake mode only: this test needs a garbage collector that follows ownerReferences. The fake has one; a bare
 * kube-apiserver (envtest, or the apiserver + etcd containers) has none, since garbage collection is the work of
 * kube-controller-manager. k3s ({@code ctk.container.k3s-image}) and an existing cluster have one too: run it there
 * with {@code @ControllerTest(mode = Mode.CONTAINER)} or {@code EXISTING_CLUSTER}.
 */
@ControllerTest(mode = Mode.FAKE)
class NginxServiceControllerGarbageCollectionTest {

  @Test
  void the_service_is_garbage_collected_with_its_deployment(KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    harness.start(NginxServiceController.create(client));
    Deployment web = client.resource(nginxDeployment("web", 80)).create();
    awaitService(client, "web");
    // WHEN
    client.resource(web).delete();
    // THEN the fake's garbage collector follows the owner reference the controller set (a wrong uid would leave
    // the Service behind until the controller's own delete; see NginxServiceControllerWithoutGarbageCollectionTest)
    assertThat(client.services().withName("web").get()).isNull();
  }
}
