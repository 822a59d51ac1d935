package dev.ctk.examples.ttl;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofHours;
import static java.time.Duration.ofMinutes;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.Controller;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.ReconcileOutcome;
import dev.ctk.controller.VirtualTime;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Virtual time: an hour-long time to live, tested in milliseconds. The fake stamps {@code creationTimestamp} from
 * the test's virtual clock, and the controller's {@code requeueAfter} waits on the same clock, so nothing happens
 * until the test moves the clock.
 */
@ControllerTest(virtualTime = true)
class ConfigMapTtlControllerTest {

  // region:virtual-time
  @Test
  void deletes_a_config_map_when_its_hour_is_up_and_not_a_minute_before(KubernetesClient client,
      ControllerHarness harness, VirtualTime time) {
    // GIVEN
    Controller controller = harness.start(ConfigMapTtlController.create(client, harness.time()));
    ObjectKey key = ObjectKey.of("default", "session");
    // WHEN
    ConfigMap created = client.resource(configMap("session", "3600")).create();
    // THEN the fake stamped it on the virtual clock, and the first reconcile asked to come back in an hour
    assertThat(Instant.parse(created.getMetadata().getCreationTimestamp())).isEqualTo(time.now());
    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully(key);
    assertThat(controller.reconcileLog(key)).last()
        .satisfies(r -> {
          assertThat(r.outcome()).isEqualTo(ReconcileOutcome.REQUEUE_AFTER);
          assertThat(r.requeueAfter()).isEqualTo(ofHours(1));
        });
    // WHEN 59 minutes pass
    time.advance(ofMinutes(59));
    // THEN nothing was due: one minute left on the clock, no second reconcile, the ConfigMap stays
    assertThat(time.untilNextTask()).contains(ofMinutes(1));
    assertThat(controller.reconcileLog(key)).hasSize(1);
    assertThat(client.configMaps().withName("session").get()).isNotNull();
    // WHEN the last minute passes
    time.advance(ofMinutes(1));
    // THEN
    await("ConfigMap default/session deleted after its hour").atMost(ofSeconds(5))
        .until(() -> client.configMaps().withName("session").get() == null);
  }
  // endregion:virtual-time

  @Test
  void leaves_config_maps_without_a_ttl_alone_however_long_it_waits(KubernetesClient client,
      ControllerHarness harness, VirtualTime time) {
    // GIVEN
    Controller controller = harness.start(ConfigMapTtlController.create(client, harness.time()));
    client.resource(configMap("settings", null)).create();
    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/settings");
    // WHEN a year passes
    time.advance(java.time.Duration.ofDays(365));
    // THEN
    assertThat(controller).within(ofSeconds(5)).isIdle();
    assertThat(controller.reconcileLog(ObjectKey.of("default", "settings"))).hasSize(1);
    assertThat(client.configMaps().withName("settings").get()).isNotNull();
    assertThat(time.pendingTasks()).isZero();
  }

  private static ConfigMap configMap(String name, String ttlSeconds) {
    ConfigMapBuilder builder = new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata();
    if (ttlSeconds != null) {
      builder.editMetadata().addToAnnotations(ConfigMapTtlController.TTL_ANNOTATION, ttlSeconds).endMetadata();
    }
    return builder.build();
  }
}
