package dev.ctk.examples.docs;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static dev.ctk.examples.docs.DocsFixtures.nginxDeployment;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.ctk.examples.nginx.NginxServiceController;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.PerturbationConfig;
import dev.ctk.harness.RestartableController;
import dev.ctk.harness.values.Perturbation;
import dev.ctk.junit.ControllerTestExtension;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.EventType;

/**
 * Perturbation campaigns for every test of a class, set up with the builder instead of {@code @Perturbed}
 * (docs/perturbation.md). {@link Campaign} is run here through the JUnit engine, so that its report can be read.
 */
class PerturbationConfigExampleTest {

  @Test
  void the_builder_plans_only_the_kinds_it_names_within_its_bound(@TempDir Path reportDir) {
    // WHEN
    EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(Campaign.class))
        .configurationParameter("ctk.report-dir", reportDir.toString())
        .execute();
    // THEN every perturbed run ended as the reference run did
    results.testEvents().assertStatistics(stats -> stats.started(1).succeeded(1));
    List<String> reports = results.allEvents().stream()
        .filter(e -> e.getType() == EventType.REPORTING_ENTRY_PUBLISHED)
        .map(e -> e.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs())
        .filter(entry -> entry.containsKey("ctk.perturbations"))
        .map(entry -> entry.get("ctk.perturbations"))
        .toList();
    assertThat(reports).hasSize(1);
    List<String> runs = reports.get(0).lines().filter(l -> l.matches("  (PASS|SKIP|FAIL) .*")).toList();
    assertThat(runs).as("runs of the campaign:\n%s", reports.get(0))
        .isNotEmpty()
        .hasSizeLessThanOrEqualTo(10)
        .allSatisfy(run -> assertThat(run.substring("  PASS ".length()))
            .satisfiesAnyOf(id -> assertThat(id).startsWith("crash-restart:"),
                id -> assertThat(id).startsWith("stale-view:")))
        .noneSatisfy(run -> assertThat(run).startsWith("  FAIL"));
  }

  /** The class the docs show. Run only by the test above. */
  static class Campaign {

    // region:builder
    @RegisterExtension
    static ControllerTestExtension ctk = ControllerTestExtension.builder()
        .withPerturbations(PerturbationConfig.builder()
            .withKinds(Perturbation.CRASH_RESTART, Perturbation.STALE_VIEW)
            .withMaxRuns(10)
            .withIgnoredFields("ConfigMap:data.generatedAt")
            .build())
        .build();
    // endregion:builder

    @Test
    void creates_a_service_however_it_is_perturbed(KubernetesClient client, ControllerHarness harness) {
      RestartableController controller = harness.start(() -> NginxServiceController.create(client));
      client.resource(nginxDeployment("web", 80)).create();
      await("Service web").atMost(ofSeconds(5)).until(() -> client.services().withName("web").get() != null);
      assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully(harness.namespace() + "/web");
    }
  }
}
