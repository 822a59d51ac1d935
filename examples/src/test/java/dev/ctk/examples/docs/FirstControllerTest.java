package dev.ctk.examples.docs;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static dev.ctk.examples.docs.DocsFixtures.nginxDeployment;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.controller.Controller;
import dev.ctk.examples.nginx.NginxServiceController;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.junit.AcrossModes;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

/** The README's opening example: one controller test, run on the fake and on a real kube-apiserver. */
// region:front-page
@ControllerTest
@AcrossModes          // fake, then a real kube-apiserver: one body
class FirstControllerTest {
  @Test
  void creates_a_service_owned_by_an_nginx_deployment(KubernetesClient client, ControllerHarness harness) {
    Controller controller = harness.start(NginxServiceController.create(client));

    client.resource(nginxDeployment("web", 80)).create();

    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully(harness.namespace() + "/web");
    assertThat(client.services().withName("web").get()).isNotNull();
  }
}
// endregion:front-page
