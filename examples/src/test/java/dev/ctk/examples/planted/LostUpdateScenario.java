package dev.ctk.examples.planted;

import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.values.Mode;
import dev.ctk.junit.ControllerTest;
import dev.ctk.junit.Perturbed;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An ordinary test of {@link SecretVersionController}, perturbed: the test changes a ConfigMap's note, then rotates
 * the Secret it names, and expects both the note and the new version on the ConfigMap. It passes as a plain test in
 * both variants. Run by {@code PlantedBugsTest}.
 */
@ControllerTest(mode = Mode.FAKE)
abstract class LostUpdateScenario {

  abstract Variant variant();

  @Test
  @Perturbed
  void keeps_the_note_and_records_the_new_secret_version(KubernetesClient client, ControllerHarness harness) {
    // GIVEN a ConfigMap that names a Secret, recorded at version 1
    harness.start(() -> SecretVersionController.create(client, variant()));
    client.resource(new SecretBuilder().withNewMetadata().withName("db").endMetadata()
        .addToStringData("version", "1").build()).create();
    client.resource(new ConfigMapBuilder().withNewMetadata().withName("app")
        .addToLabels(SecretVersionController.USER_LABEL, "true").endMetadata()
        .addToData(Map.of("secret", "db", "note", "first")).build()).create();
    await("ConfigMap app to record Secret version 1").atMost(ofSeconds(5))
        .until(() -> version(client.configMaps().withName("app").get()), "1"::equals);
    // WHEN the note changes, then the Secret is rotated
    client.configMaps().withName("app").edit(c -> new ConfigMapBuilder(c).addToData("note", "second").build());
    await("the note to be stored").atMost(ofSeconds(5))
        .until(() -> client.configMaps().withName("app").get().getData().get("note"), "second"::equals);
    client.secrets().withName("db").edit(s -> new SecretBuilder(s).withData(null)
        .addToStringData("version", "2").build());
    // THEN the ConfigMap records version 2 and keeps the new note
    await("ConfigMap app to record Secret version 2").atMost(ofSeconds(5))
        .until(() -> version(client.configMaps().withName("app").get()), "2"::equals);
    assertThat(client.configMaps().withName("app").get().getData()).containsEntry("note", "second");
  }

  private static String version(ConfigMap configMap) {
    return configMap == null || configMap.getMetadata().getAnnotations() == null ? null
        : configMap.getMetadata().getAnnotations().get(SecretVersionController.VERSION_ANNOTATION);
  }

  /** With the planted bug. */
  static class Planted extends LostUpdateScenario {
    @Override
    Variant variant() {
      return Variant.PLANTED_BUG;
    }
  }

  /** The correct version. */
  static class Correct extends LostUpdateScenario {
    @Override
    Variant variant() {
      return Variant.CORRECT;
    }
  }
}
