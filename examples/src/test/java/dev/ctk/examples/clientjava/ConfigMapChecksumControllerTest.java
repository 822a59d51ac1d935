package dev.ctk.examples.clientjava;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static dev.ctk.examples.clientjava.ConfigMapChecksumController.CHECKSUM_ANNOTATION;
import static dev.ctk.examples.clientjava.ConfigMapChecksumController.ENABLED_LABEL;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.clientjava.ApiClients;
import dev.ctk.clientjava.ClientJavaProbe;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.junit.AcrossModes;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One body, every mode: {@code @AcrossModes} runs the class in fake mode and against a real
 * kube-apiserver. The controller is the production code, unchanged; ctk-client-java's {@link
 * ClientJavaProbe} is attached through its one seam (the work queue and a reconciler decorator) and
 * runs it for each test. Objects go into the test's namespace ({@code default} in fake mode, a fresh
 * one per test on a real server), which the controller watches.
 */
@ControllerTest
@AcrossModes
class ConfigMapChecksumControllerTest {

  private ClientJavaProbe probe;

  // region:start
  @BeforeEach
  void startController(ControllerHarness harness) {
    ApiClient apiClient = ApiClients.forHarness(harness);
    SharedInformerFactory informers = new SharedInformerFactory(apiClient);
    probe = ClientJavaProbe.create(ConfigMapChecksumController.NAME).watch(informers);
    probe.start(harness, ConfigMapChecksumController.create(apiClient, informers,
        harness.namespace(), probe.rateLimitingQueue(), probe::reconciler));
  }
  // endregion:start

  @Test
  void stamps_a_labelled_config_map_with_the_checksum_of_its_data(KubernetesClient client,
      ControllerHarness harness) {
    // WHEN
    client.resource(configMap("app", Map.of("greeting", "hello", "name", "world"))).create();
    // THEN
    assertThat(awaitChecksum(client, "app"))
        .isEqualTo("0f675a2820655c3ee478f121de654320f0cc8a9fe8acac9541722be978489b8f");
    assertThat(probe).hasSyncedCaches()
        .within(ofSeconds(5)).hasReconciledSuccessfully(harness.namespace() + "/app");
    assertThat(probe).within(ofSeconds(5)).isIdle();
  }

  @Test
  void stamps_the_new_checksum_when_the_data_changes(KubernetesClient client,
      ControllerHarness harness) {
    // GIVEN
    client.resource(configMap("app", Map.of("greeting", "hello"))).create();
    String first = awaitChecksum(client, "app");
    // WHEN
    client.configMaps().withName("app").edit(cm -> new ConfigMapBuilder(cm)
        .addToData("name", "world").build());
    // THEN
    await("ConfigMap app re-stamped after its data changed").atMost(ofSeconds(5))
        .until(() -> checksum(client, "app"),
            c -> "0f675a2820655c3ee478f121de654320f0cc8a9fe8acac9541722be978489b8f".equals(c));
    assertThat(first).isNotEqualTo(checksum(client, "app"));
    assertThat(probe).within(ofSeconds(5)).hasReconciledSuccessfully(harness.namespace() + "/app");
  }

  @Test
  void puts_back_a_checksum_edited_by_hand(KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    client.resource(configMap("app", Map.of("greeting", "hello"))).create();
    String stamped = awaitChecksum(client, "app");
    // WHEN someone overwrites the annotation
    client.configMaps().withName("app").edit(cm -> new ConfigMapBuilder(cm).editMetadata()
        .addToAnnotations(CHECKSUM_ANNOTATION, "tampered").endMetadata().build());
    // THEN
    await("checksum of ConfigMap app restored").atMost(ofSeconds(5))
        .until(() -> checksum(client, "app"), stamped::equals);
    assertThat(probe).within(ofSeconds(5)).hasReconciledSuccessfully(harness.namespace() + "/app");
  }

  @Test
  void leaves_config_maps_without_the_label_alone(KubernetesClient client,
      ControllerHarness harness) {
    // GIVEN a ConfigMap without the label, then a labelled one (the controller's next event)
    client.resource(new ConfigMapBuilder().withNewMetadata().withName("plain").endMetadata()
        .addToData("greeting", "hello").build()).create();
    client.resource(configMap("app", Map.of("greeting", "hello"))).create();
    // WHEN the labelled one is stamped
    awaitChecksum(client, "app");
    // THEN the informer never saw the other one: no reconcile, no annotation
    assertThat(probe).within(ofSeconds(5)).hasReconciledSuccessfully(harness.namespace() + "/app");
    assertThat(probe).hasReconcileCount(harness.namespace() + "/plain", 0);
    assertThat(checksum(client, "plain")).isNull();
  }

  /** A labelled ConfigMap without a namespace: created in the client's namespace (the test's). */
  static ConfigMap configMap(String name, Map<String, String> data) {
    return new ConfigMapBuilder()
        .withNewMetadata().withName(name).addToLabels(ENABLED_LABEL, "true").endMetadata()
        .withData(data)
        .build();
  }

  /** Waits until the controller stamped the ConfigMap, and returns the checksum. */
  static String awaitChecksum(KubernetesClient client, String name) {
    return await("ConfigMap " + client.getNamespace() + "/" + name + " stamped with "
        + CHECKSUM_ANNOTATION).atMost(ofSeconds(5))
        .until(() -> checksum(client, name), checksum -> checksum != null);
  }

  static String checksum(KubernetesClient client, String name) {
    ConfigMap configMap = client.configMaps().withName(name).get();
    Map<String, String> annotations = configMap == null ? null
        : configMap.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(CHECKSUM_ANNOTATION);
  }
}
