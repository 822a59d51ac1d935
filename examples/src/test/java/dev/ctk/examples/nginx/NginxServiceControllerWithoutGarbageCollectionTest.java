package dev.ctk.examples.nginx;

import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.junit.ControllerHarness;
import dev.ctk.junit.ControllerTestExtension;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The fake garbage-collects dependents, as a real cluster's controller-manager does, so in
 * {@link NginxServiceControllerTest} a deleted Deployment takes its Service along whatever the controller does.
 * Here garbage collection is off (a bare API server), so only the controller's own delete can remove the Service.
 */
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
    await("Service default/web to exist").atMost(ofSeconds(5))
        .until(() -> client.services().inNamespace("default").withName("web").get() != null);
    // WHEN
    client.resource(web).delete();
    // THEN
    await("Service default/web deleted by the controller").atMost(ofSeconds(5))
        .until(() -> client.services().inNamespace("default").withName("web").get() == null);
    assertThat(client.apps().deployments().inNamespace("default").withName("web").get()).isNull();
  }
}
