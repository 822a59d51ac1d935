package dev.ctk.examples.nginx;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.RestartableController;
import dev.ctk.junit.AcrossModes;
import dev.ctk.junit.ControllerTest;
import dev.ctk.junit.Perturbed;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One body, every mode: {@code @AcrossModes} runs the class in fake mode and against a real kube-apiserver
 * (envtest; {@code ctk.modes} / {@code CTK_MODES} choose others). Objects go into the client's namespace:
 * {@code default} in fake mode, a fresh one per test on a real server. The garbage-collection test needs a
 * garbage collector, which a bare kube-apiserver lacks: it lives in {@link NginxServiceControllerGarbageCollectionTest}.
 *
 * <p>{@code @Perturbed}: in fake mode each test is also a perturbation campaign (crash-restarts inside reconciles,
 * stale informers, restarts on stale lists, unobserved intermediate states), and must end as its reference run
 * does. The controllers start from a factory ({@code harness.start(() -> ...)}) so that they can be restarted.
 */
// region:perturbed
@ControllerTest
@AcrossModes
@Perturbed
class NginxServiceControllerTest {

  @Test
  void creates_a_service_owned_by_an_nginx_deployment(KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    RestartableController controller = harness.start(() -> NginxServiceController.create(client));
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
    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully(harness.namespace() + "/web");
  }
  // endregion:perturbed

  @Test
  void leaves_deployments_without_the_nginx_label_alone(KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    RestartableController controller = harness.start(() -> NginxServiceController.create(client));
    // WHEN
    client.resource(new DeploymentBuilder(nginxDeployment("redis", 6379))
        .editMetadata().withLabels(Map.of("app", "redis")).endMetadata().build()).create();
    // THEN
    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully(harness.namespace() + "/redis");
    assertThat(controller).within(ofSeconds(5)).isIdle();
    assertThat(client.services().withName("redis").get()).isNull();
  }

  @Test
  void deletes_the_service_when_the_deployment_loses_the_label(KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    harness.start(() -> NginxServiceController.create(client));
    client.resource(nginxDeployment("web", 80)).create();
    awaitService(client, "web");
    // WHEN
    client.apps().deployments().withName("web")
        .edit(d -> new DeploymentBuilder(d).editMetadata().withLabels(Map.of("app", "apache")).endMetadata().build());
    // THEN
    await("Service web deleted after its Deployment lost app=nginx").atMost(ofSeconds(5))
        .until(() -> client.services().withName("web").get() == null);
  }

  @Test
  void keeps_the_service_ports_in_line_with_the_deployment(KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    harness.start(() -> NginxServiceController.create(client));
    client.resource(nginxDeployment("web", 80)).create();
    awaitService(client, "web");
    // WHEN the container port changes
    client.apps().deployments().withName("web").edit(d -> {
      d.getSpec().getTemplate().getSpec().getContainers().get(0).getPorts().get(0).setContainerPort(8080);
      return d;
    });
    // THEN
    await("Service web to expose 8080").atMost(ofSeconds(5))
        .untilAsserted(() -> assertThat(awaitService(client, "web").getSpec().getPorts())
            .extracting(ServicePort::getPort).containsExactly(8080));
  }

  @Test
  void puts_back_a_selector_edited_by_hand(KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    harness.start(() -> NginxServiceController.create(client));
    client.resource(nginxDeployment("web", 80)).create();
    awaitService(client, "web");
    // WHEN someone points the Service elsewhere
    client.services().withName("web").edit(s -> {
      s.getSpec().setSelector(Map.of("app", "elsewhere"));
      return s;
    });
    // THEN the Service's own watch event brings the owner back in line
    await("Service web selector restored").atMost(ofSeconds(5))
        .untilAsserted(() -> assertThat(awaitService(client, "web").getSpec().getSelector())
            .isEqualTo(Map.of("app", "nginx", "instance", "web")));
  }

  /** Waits for a Service in the client's namespace (the test's). */
  static Service awaitService(KubernetesClient client, String name) {
    return await("Service " + client.getNamespace() + "/" + name + " to exist").atMost(ofSeconds(5))
        .until(() -> client.services().withName(name).get(), s -> s != null);
  }

  /** An nginx Deployment without a namespace: created in the client's namespace. */
  static Deployment nginxDeployment(String name, int port) {
    return NginxDeployments.nginxDeployment(name, port);
  }
}
