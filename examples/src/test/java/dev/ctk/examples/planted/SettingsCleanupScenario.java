package dev.ctk.examples.planted;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.RestartableController;
import dev.ctk.harness.values.Mode;
import dev.ctk.junit.ControllerTest;
import dev.ctk.junit.Perturbed;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.junit.jupiter.api.Test;

/**
 * An ordinary test of {@link SettingsCleanupController}, perturbed: settings whose Secret exists are checked and
 * kept. It waits until the controller's Secret cache holds the Secret before it creates the settings, so it passes
 * as a plain test in both variants, every time. Run by {@code PlantedBugsTest}.
 */
@ControllerTest(mode = Mode.FAKE)
abstract class SettingsCleanupScenario {

  abstract Variant variant();

  @Test
  @Perturbed
  void keeps_settings_whose_secret_exists(KubernetesClient client, ControllerHarness harness) {
    // GIVEN a Secret the controller has seen
    RestartableController controller = harness.start(() -> SettingsCleanupController.create(client, variant()));
    client.resource(new SecretBuilder().withNewMetadata().withName("db").endMetadata()
        .addToStringData("password", "s3cret").build()).create();
    @SuppressWarnings("unchecked")
    SharedIndexInformer<Secret> secrets = (SharedIndexInformer<Secret>) controller.current().informers().get(1);
    assertThat(secrets).within(ofSeconds(5)).containsKey(harness.namespace() + "/db");
    // WHEN settings that require it are created
    client.resource(new ConfigMapBuilder().withNewMetadata().withName("db-settings")
        .addToLabels(SettingsCleanupController.REQUIRES_SECRET_LABEL, "db").endMetadata()
        .addToData("pool", "10").build()).create();
    // THEN they are checked and kept
    await("db-settings to be marked as checked").atMost(ofSeconds(5)).until(() -> {
      ConfigMap settings = client.configMaps().withName("db-settings").get();
      return settings != null && settings.getMetadata().getAnnotations() != null
          && "db".equals(settings.getMetadata().getAnnotations().get(SettingsCleanupController.CHECKED_ANNOTATION));
    });
    assertThat(controller).within(ofSeconds(5)).isIdle();
    assertThat(client.configMaps().withName("db-settings").get()).isNotNull();
  }

  /** With the planted bug. */
  static class Planted extends SettingsCleanupScenario {
    @Override
    Variant variant() {
      return Variant.PLANTED_BUG;
    }
  }

  /** The correct version. */
  static class Correct extends SettingsCleanupScenario {
    @Override
    Variant variant() {
      return Variant.CORRECT;
    }
  }
}
