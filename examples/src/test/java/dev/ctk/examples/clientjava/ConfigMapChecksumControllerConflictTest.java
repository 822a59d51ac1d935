package dev.ctk.examples.clientjava;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static dev.ctk.examples.clientjava.ConfigMapChecksumControllerTest.awaitChecksum;
import static dev.ctk.examples.clientjava.ConfigMapChecksumControllerTest.checksum;
import static dev.ctk.examples.clientjava.ConfigMapChecksumControllerTest.configMap;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.clientjava.ApiClients;
import dev.ctk.clientjava.ClientJavaProbe;
import dev.ctk.controller.ReconcileOutcome;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.fake.EventInjector;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.values.Mode;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Fake mode only: a watch stream that lies ({@code EventInjector.emitModified} with an old
 * resourceVersion) leaves the controller's informer cache behind the API server, something a real
 * kube-apiserver cannot be made to do on demand. The controller's replace then gets 409 Conflict and
 * it requeues, until a real change brings the cache up to date.
 */
@ControllerTest(mode = Mode.FAKE)
class ConfigMapChecksumControllerConflictTest {

  @Test
  void requeues_on_409_while_its_cache_is_stale_and_stamps_once_it_caught_up(
      KubernetesClient client, EventInjector events, ControllerHarness harness) {
    // GIVEN a stamped ConfigMap
    ApiClient apiClient = ApiClients.forHarness(harness);
    SharedInformerFactory informers = new SharedInformerFactory(apiClient);
    ClientJavaProbe probe = ClientJavaProbe.create(ConfigMapChecksumController.NAME)
        .watch(informers);
    probe.start(harness, ConfigMapChecksumController.create(apiClient, informers, "default",
        probe.rateLimitingQueue(), probe::reconciler));
    ConfigMap created = client.resource(configMap("app", Map.of("greeting", "hello"))).create();
    String stamped = awaitChecksum(client, "app");
    assertThat(probe).within(ofSeconds(5)).hasReconciledSuccessfully("default/app");
    // WHEN the watch stream delivers an old version of it, with other data
    events.emitModified(new ConfigMapBuilder(created).addToData("greeting", "stale").build(),
        created.getMetadata().getResourceVersion());
    // THEN every replace from the stale cache gets 409 Conflict: the controller requeues
    assertThat(probe).within(ofSeconds(5)).hasRequeued("default/app");
    assertThat(checksum(client, "app")).isEqualTo(stamped);
    // WHEN a real change reaches the informer
    client.configMaps().withName("app").edit(cm -> new ConfigMapBuilder(cm)
        .addToData("name", "world").build());
    // THEN its cache caught up and the new checksum is stamped
    await("ConfigMap app stamped with the checksum of its new data").atMost(ofSeconds(5))
        .until(() -> checksum(client, "app"),
            c -> "0f675a2820655c3ee478f121de654320f0cc8a9fe8acac9541722be978489b8f".equals(c));
    assertThat(probe).within(ofSeconds(5)).hasReconciledSuccessfully("default/app");
    assertThat(probe.reconcileLog()).extracting(ReconcileRecord::outcome)
        .startsWith(ReconcileOutcome.SUCCESS).contains(ReconcileOutcome.REQUEUE)
        .doesNotContain(ReconcileOutcome.ERROR);
  }
}
