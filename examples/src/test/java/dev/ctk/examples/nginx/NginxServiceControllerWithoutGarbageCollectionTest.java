package dev.ctk.examples.nginx;

import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.junit.ControllerHarness;
import dev.ctk.junit.ControllerTest.Mode;
import dev.ctk.junit.ControllerTestExtension;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The fake garbage-collects dependents, as a real cluster's controller-manager does, so in
 * {@link NginxServiceControllerGarbageCollectionTest} a deleted Deployment takes its Service along whatever the
 * controller does. Here garbage collection is off (a bare API server), so only the controller's own delete can
 * remove the Service. Fake mode only, because it tunes the fake cluster itself (a customizer, which real modes do
 * not call); a bare kube-apiserver (envtest) has no garbage collector either, so the same body would hold there.
 */
class NginxServiceControllerWithoutGarbageCollectionTest {

  @RegisterExtension
  static ControllerTestExtension ctk = ControllerTestExtension.builder()
      .withMode(Mode.FAKE)
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
