package dev.ctk.examples.nginx;

import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.harness.ControllerHarness;
import dev.ctk.junit.AcrossModes;
import dev.ctk.junit.ControllerTestExtension;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The fake garbage-collects dependents, as a real cluster's controller-manager does, so in
 * {@link NginxServiceControllerGarbageCollectionTest} a deleted Deployment takes its Service along whatever the
 * controller does. Here, without a garbage collector, only the controller's own delete can remove the Service.
 *
 * <p>{@code @AcrossModes}: the same body runs in fake mode and in the real modes CI provides. The customizer turns
 * the fake's garbage collector off; it applies to the fake only (real modes have no fake cluster to customize and
 * never call it). A bare kube-apiserver (envtest, or apiserver + etcd containers) has no garbage collector in the
 * first place, so there the body holds as written. On k3s or an existing cluster the garbage collector may remove
 * the Service first: the test still passes, but no longer proves that the controller deleted it.
 */
@AcrossModes
class NginxServiceControllerWithoutGarbageCollectionTest {

  @RegisterExtension
  static ControllerTestExtension ctk = ControllerTestExtension.builder()
      .withClusterCustomizer(cluster -> cluster.withGarbageCollection(false))
      .build();

  @Test
  void the_controller_itself_deletes_the_service_of_a_deleted_deployment(KubernetesClient client,
      ControllerHarness harness) {
    // GIVEN
    harness.start(NginxServiceController.create(client));
    Deployment web = client.resource(NginxServiceControllerTest.nginxDeployment("web", 80)).create();
    NginxServiceControllerTest.awaitService(client, "web");
    // WHEN
    client.resource(web).delete();
    // THEN
    await("Service web deleted by the controller").atMost(ofSeconds(5))
        .until(() -> client.services().withName("web").get() == null);
    assertThat(client.apps().deployments().withName("web").get()).isNull();
  }
}
