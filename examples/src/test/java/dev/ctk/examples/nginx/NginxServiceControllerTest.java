package dev.ctk.examples.nginx;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.Controller;
import dev.ctk.junit.ControllerHarness;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import org.junit.jupiter.api.Test;

@ControllerTest
class NginxServiceControllerTest {

  @Test
  void creates_a_service_owned_by_an_nginx_deployment(KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    Controller controller = harness.start(NginxServiceController.create(client));
    // WHEN
    Deployment web = client.resource(nginxDeployment("web", 80)).create();
    // THEN
    Service service = awaitService(client, "web");
    assertThat(service.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(owner -> {
          assertThat(owner.getKind()).isEqualTo("Deployment");
          assertThat(owner.getUid()).isEqualTo(web.getMetadata().getUid());
          assertThat(owner.getController()).isTrue();
        });
    assertThat(service.getSpec().getSelector()).isEqualTo(Map.of("app", "nginx", "instance", "web"));
    assertThat(service.getSpec().getPorts()).extracting(ServicePort::getPort, ServicePort::getTargetPort)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(80, new IntOrString(80)));
    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/web");
  }

  @Test
  void leaves_deployments_without_the_nginx_label_alone(KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    Controller controller = harness.start(NginxServiceController.create(client));
    // WHEN
    client.resource(new DeploymentBuilder(nginxDeployment("redis", 6379))
        .editMetadata().withLabels(Map.of("app", "redis")).endMetadata().build()).create();
    // THEN
    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/redis");
    assertThat(controller).within(ofSeconds(5)).isIdle();
    assertThat(client.services().inNamespace("default").withName("redis").get()).isNull();
  }

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
    assertThat(client.services().inNamespace("default").withName("web").get()).isNull();
  }

  @Test
  void deletes_the_service_when_the_deployment_loses_the_label(KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    harness.start(NginxServiceController.create(client));
    client.resource(nginxDeployment("web", 80)).create();
    awaitService(client, "web");
    // WHEN
    client.apps().deployments().inNamespace("default").withName("web")
        .edit(d -> new DeploymentBuilder(d).editMetadata().withLabels(Map.of("app", "apache")).endMetadata().build());
    // THEN
    await("Service default/web deleted after its Deployment lost app=nginx").atMost(ofSeconds(5))
        .until(() -> client.services().inNamespace("default").withName("web").get() == null);
  }

  @Test
  void keeps_the_service_ports_in_line_with_the_deployment(KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    harness.start(NginxServiceController.create(client));
    client.resource(nginxDeployment("web", 80)).create();
    awaitService(client, "web");
    // WHEN the container port changes
    client.apps().deployments().inNamespace("default").withName("web").edit(d -> {
      d.getSpec().getTemplate().getSpec().getContainers().get(0).getPorts().get(0).setContainerPort(8080);
      return d;
    });
    // THEN
    await("Service default/web to expose 8080").atMost(ofSeconds(5))
        .untilAsserted(() -> assertThat(awaitService(client, "web").getSpec().getPorts())
            .extracting(ServicePort::getPort).containsExactly(8080));
  }

  @Test
  void puts_back_a_selector_edited_by_hand(KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    harness.start(NginxServiceController.create(client));
    client.resource(nginxDeployment("web", 80)).create();
    awaitService(client, "web");
    // WHEN someone points the Service elsewhere
    client.services().inNamespace("default").withName("web").edit(s -> {
      s.getSpec().setSelector(Map.of("app", "elsewhere"));
      return s;
    });
    // THEN the Service's own watch event brings the owner back in line
    await("Service default/web selector restored").atMost(ofSeconds(5))
        .untilAsserted(() -> assertThat(awaitService(client, "web").getSpec().getSelector())
            .isEqualTo(Map.of("app", "nginx", "instance", "web")));
  }

  private static Service awaitService(KubernetesClient client, String name) {
    return await("Service default/" + name + " to exist").atMost(ofSeconds(5))
        .until(() -> client.services().inNamespace("default").withName(name).get(), s -> s != null);
  }

  static Deployment nginxDeployment(String name, int port) {
    return new DeploymentBuilder()
        .withNewMetadata().withName(name).withNamespace("default").withLabels(Map.of("app", "nginx")).endMetadata()
        .withNewSpec()
          .withReplicas(1)
          .withNewSelector().withMatchLabels(Map.of("app", "nginx", "instance", name)).endSelector()
          .withNewTemplate()
            .withNewMetadata().withLabels(Map.of("app", "nginx", "instance", name)).endMetadata()
            .withNewSpec()
              .addNewContainer().withName("nginx").withImage("nginx:1.27")
                .addNewPort().withName("http").withContainerPort(port).endPort()
              .endContainer()
            .endSpec()
          .endTemplate()
        .endSpec()
        .build();
  }
}
