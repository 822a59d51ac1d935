package dev.ctk.examples.webapp;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.ControllerView;
import dev.ctk.controller.ObjectKey;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.josdk.OperatorProbe;
import dev.ctk.junit.AcrossModes;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.function.Predicate;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The unmodified Java Operator SDK operator (default configuration: server-side apply, finalizer,
 * retries), one body in every mode: {@code @AcrossModes} runs the class on ctk's fake API server and
 * on a real kube-apiserver. The CRD comes from the build ({@code crd-generator-maven-plugin}). A bare
 * kube-apiserver runs no controller-manager: Deployments never get ready pods and owner references
 * are not garbage collected, so no assertion here depends on either.
 */
// region:start
@ControllerTest(crds = "classpath:META-INF/fabric8/webapps.examples.ctk.dev-v1.yml")
@AcrossModes
class WebAppOperatorTest {

  /** JOSDK's default finalizer name: the CRD's name and {@code /finalizer}. */
  private static final String FINALIZER = "webapps.examples.ctk.dev/finalizer";

  private final OperatorProbe probe = OperatorProbe.create();
  private ControllerView webapps;

  @BeforeEach
  void start_the_operator(KubernetesClient client, ControllerHarness harness) {
    probe.start(WebAppOperator.create(o -> o.withKubernetesClient(client)
        .withCloseClientOnStop(false).withMetrics(probe)), harness);
    webapps = probe.controller(WebAppReconciler.NAME);
  }
  // endregion:start

  @Test
  void creates_a_deployment_a_service_and_a_config_map_owned_by_the_web_app(
      KubernetesClient client, ControllerHarness harness) {
    // WHEN
    WebApp web = client.resource(WebApp.of("web", "nginx:1.27", 2, "Hello")).create();
    // THEN
    assertThat(webapps).within(ofSeconds(10)).hasReconciledSuccessfully(harness.namespace() + "/web");
    Deployment deployment = client.apps().deployments().withName("web").get();
    assertThat(deployment.getSpec()).extracting(DeploymentSpec::getReplicas).isEqualTo(2);
    assertThat(deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
        .isEqualTo("nginx:1.27");
    assertThat(deployment.getSpec().getTemplate().getSpec().getVolumes().get(0).getConfigMap().getName())
        .isEqualTo("web-content");
    Service service = client.services().withName("web").get();
    assertThat(service.getSpec().getSelector()).isEqualTo(
        Map.of("app.kubernetes.io/name", "webapp", "app.kubernetes.io/instance", "web"));
    assertThat(service.getSpec().getPorts()).extracting(ServicePort::getPort, ServicePort::getTargetPort)
        .containsExactly(Tuple.tuple(80, new IntOrString("http")));
    ConfigMap content = client.configMaps().withName("web-content").get();
    assertThat(content.getData()).containsEntry(WebAppConfigMap.PAGE, "<h1>Hello</h1>\n");
    for (HasMetadata child : new HasMetadata[] {deployment, service, content}) {
      assertThat(child.getMetadata().getOwnerReferences())
          .extracting(OwnerReference::getKind, OwnerReference::getName, OwnerReference::getUid)
          .containsExactly(Tuple.tuple("WebApp", "web", web.getMetadata().getUid()));
    }
  }

  @Test
  void reports_the_generation_and_the_service_url_in_the_status_and_the_directory(
      KubernetesClient client, ControllerHarness harness) {
    // WHEN
    client.resource(WebApp.of("web", "nginx:1.27", 1, "Hello")).create();
    // THEN
    assertThat(webapps).within(ofSeconds(10)).hasReconciledSuccessfully(harness.namespace() + "/web");
    String url = "http://" + client.services().withName("web").get().getSpec().getClusterIP() + ":80";
    WebApp web = awaitWebApp(client, "status.observedGeneration set",
        w -> w.getStatus() != null && w.getStatus().getObservedGeneration() != null);
    assertThat(web.getStatus().getObservedGeneration()).isEqualTo(web.getMetadata().getGeneration());
    assertThat(web.getStatus().getUrl()).isEqualTo(url);
    assertThat(web.getStatus().getReadyReplicas()).isNotNull();
    assertThat(client.configMaps().withName(WebAppDirectory.NAME).get().getData())
        .isEqualTo(Map.of("web", url));
  }

  @Test
  void applies_a_changed_spec_to_the_children_by_server_side_apply(KubernetesClient client,
      ControllerHarness harness) {
    // GIVEN
    client.resource(WebApp.of("web", "nginx:1.27", 1, "Hello")).create();
    assertThat(webapps).within(ofSeconds(10)).hasReconciledSuccessfully(harness.namespace() + "/web");
    // WHEN
    WebApp changed = client.resources(WebApp.class).withName("web").edit(w -> {
      w.getSpec().setReplicas(3);
      w.getSpec().setGreeting("Goodbye");
      return w;
    });
    // THEN
    await("Deployment web scaled to 3 and page web-content rewritten").atMost(ofSeconds(10))
        .untilAsserted(() -> {
          assertThat(client.apps().deployments().withName("web").get().getSpec().getReplicas())
              .isEqualTo(3);
          assertThat(client.configMaps().withName("web-content").get().getData())
              .containsEntry(WebAppConfigMap.PAGE, "<h1>Goodbye</h1>\n");
        });
    awaitWebApp(client, "status.observedGeneration " + changed.getMetadata().getGeneration(),
        w -> w.getStatus() != null
            && changed.getMetadata().getGeneration().equals(w.getStatus().getObservedGeneration()));
    assertThat(webapps).within(ofSeconds(10)).hasReconciledSuccessfully(harness.namespace() + "/web");
    assertThat(client.apps().deployments().withName("web").get().getMetadata().getManagedFields())
        .extracting(ManagedFieldsEntry::getManager, ManagedFieldsEntry::getOperation)
        .contains(Tuple.tuple(WebAppReconciler.NAME, "Apply"));
  }

  @Test
  void runs_the_cleaner_on_deletion_and_lets_the_finalizer_go(KubernetesClient client,
      ControllerHarness harness) {
    // GIVEN two web apps in the directory
    client.resource(WebApp.of("web", "nginx:1.27", 1, "Hello")).create();
    client.resource(WebApp.of("shop", "nginx:1.27", 1, "Buy")).create();
    String web = harness.namespace() + "/web";
    assertThat(webapps).within(ofSeconds(10))
        .hasReconciledSuccessfully(web)
        .hasReconciledSuccessfully(harness.namespace() + "/shop");
    assertThat(awaitWebApp(client, "the operator's finalizer", w -> w.hasFinalizer(FINALIZER))
        .getMetadata().getFinalizers()).containsExactly(FINALIZER);
    long reconcilesBefore = webapps.stats().reconcilesPerKey().get(ObjectKey.parse(web));
    // WHEN
    client.resources(WebApp.class).withName("web").delete();
    // THEN the cleanup ran as one more reconcile of web, removed its entry, and the finalizer went
    await("WebApp web deleted once the finalizer is removed").atMost(ofSeconds(10))
        .until(() -> client.resources(WebApp.class).withName("web").get() == null);
    assertThat(webapps).within(ofSeconds(10)).hasReconcileCount(web, reconcilesBefore + 1)
        .hasReconciledSuccessfully(web);
    assertThat(client.configMaps().withName(WebAppDirectory.NAME).get().getData())
        .containsOnlyKeys("shop");
    assertThat(webapps).within(ofSeconds(10)).isIdle();
  }

  /** Waits until web app {@code web} of the client's namespace matches. */
  private static WebApp awaitWebApp(KubernetesClient client, String what, Predicate<WebApp> matching) {
    return await("WebApp " + client.getNamespace() + "/web: " + what).atMost(ofSeconds(10))
        .until(() -> client.resources(WebApp.class).withName("web").get(),
            w -> w != null && matching.test(w));
  }
}
