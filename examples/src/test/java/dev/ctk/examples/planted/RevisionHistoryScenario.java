package dev.ctk.examples.planted;

import static java.time.Duration.ofSeconds;
import static org.awaitility.Awaitility.await;

import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.values.Mode;
import dev.ctk.junit.ControllerTest;
import dev.ctk.junit.Perturbed;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.Test;

/**
 * An ordinary test of {@link RevisionHistoryController}, perturbed: three revisions written in a row, and the
 * history ends with the last one. Its writer keeps {@code data.revisions} (what the correct version reports). It
 * passes as a plain test in both variants. Run by {@code PlantedBugsTest}.
 */
@ControllerTest(mode = Mode.FAKE)
abstract class RevisionHistoryScenario {

  abstract Variant variant();

  @Test
  @Perturbed
  void reports_the_revisions_of_a_config_map(KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    harness.start(() -> RevisionHistoryController.create(client, variant()));
    // WHEN three revisions are written in a row (merge patches: no conflict with the controller's own writes)
    client.resource(new ConfigMapBuilder().withNewMetadata().withName("app")
        .addToLabels(RevisionHistoryController.TRACKED_LABEL, "true").endMetadata()
        .addToData("revision", "1").addToData("revisions", "1").build()).create();
    for (String revisions : new String[] {"1,2", "1,2,3"}) {
      String revision = revisions.substring(revisions.length() - 1);
      client.configMaps().withName("app").patch(PatchContext.of(PatchType.JSON_MERGE),
          "{\"data\":{\"revision\":\"" + revision + "\",\"revisions\":\"" + revisions + "\"}}");
    }
    // THEN the reported history ends with the last revision
    await("the history of ConfigMap app to end with revision 3").atMost(ofSeconds(5))
        .until(() -> history(client.configMaps().withName("app").get()), h -> h != null && h.endsWith("3"));
  }

  private static String history(ConfigMap configMap) {
    return configMap == null || configMap.getMetadata().getAnnotations() == null ? null
        : configMap.getMetadata().getAnnotations().get(RevisionHistoryController.HISTORY_ANNOTATION);
  }

  /** With the planted bug. */
  static class Planted extends RevisionHistoryScenario {
    @Override
    Variant variant() {
      return Variant.PLANTED_BUG;
    }
  }

  /** The correct version. */
  static class Correct extends RevisionHistoryScenario {
    @Override
    Variant variant() {
      return Variant.CORRECT;
    }
  }
}
