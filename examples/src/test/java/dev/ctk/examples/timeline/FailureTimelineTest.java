package dev.ctk.examples.timeline;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.ctk.controller.Controller;
import dev.ctk.examples.nginx.NginxServiceController;
import dev.ctk.fake.ApiFault;
import dev.ctk.fake.FakeCluster;
import dev.ctk.fake.values.RequestPattern;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.EventType;

/**
 * What a failing {@code @ControllerTest} leaves behind: a timeline of what the test injected, the requests the
 * API server answered (and the faults it injected), the watch events it delivered, and every work-queue change and
 * reconcile, as text in the test output and as an HTML page under {@code target/ctk-reports}. The failing test
 * is {@link FailingNginxTest}, run here through the JUnit engine so that this build stays green.
 */
class FailureTimelineTest {

  @Test
  void a_failing_controller_test_prints_a_timeline_and_writes_an_html_report(@TempDir Path reports)
      throws IOException {
    // WHEN
    var results = EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(FailingNginxTest.class))
        .configurationParameter("ctk.report-dir", reports.toString())
        .execute();
    // THEN the test failed, with its own message
    results.testEvents().assertStatistics(stats -> stats.started(1).failed(1));
    String timeline = results.allEvents().stream()
        .filter(e -> e.getType() == EventType.REPORTING_ENTRY_PUBLISHED)
        .map(e -> e.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs())
        .filter(entry -> entry.containsKey("ctk.timeline"))
        .map(entry -> entry.get("ctk.timeline"))
        .findFirst().orElseThrow(() -> new AssertionError("no ctk.timeline report entry"));
    // the text names the injected event, the watch delivery, the reconcile, the fault and the refused create,
    // the retry and the create that worked, in that order of cause and effect
    List<String> lines = timeline.lines().map(String::strip).toList();
    assertThat(indexOf(lines, "injected", "#5 add deployments default/web [injected]"))
        .isLessThan(indexOf(lines, "watch", "Deployment in all namespaces: ADDED default/web"))
        .isLessThan(indexOf(lines, "reconcile nginx-service", "start default/web"));
    assertThat(indexOf(lines, "reconcile nginx-service", "start default/web"))
        .isLessThan(indexOf(lines, "request", "create services in default -> 503 [fault: 503 ServiceUnavailable]"));
    assertThat(indexOf(lines, "request", "create services in default -> 503"))
        .isLessThan(indexOf(lines, "reconcile nginx-service", "end default/web: ERROR 503 ServiceUnavailable"));
    assertThat(indexOf(lines, "reconcile nginx-service", "end default/web: ERROR"))
        .isLessThan(indexOf(lines, "request", "create services in default -> 201 changed"));
    assertThat(lines).anyMatch(line -> line.matches("\\d+ +fault +#6 create services in default <- 503 "
        + "ServiceUnavailable \\[when create Service: once -> 503 ServiceUnavailable\\]"));
    List<Path> html;
    try (Stream<Path> files = Files.walk(reports)) {
      html = files.filter(f -> f.toString().endsWith(".html")).toList();
    }
    assertThat(html).singleElement().satisfies(file -> {
      assertThat(timeline).contains(file.toAbsolutePath().toString());
      assertThat(Files.readString(file)).contains("<table").contains("reconcile nginx-service");
    });
  }

  /** The index of the first line with that source column and text, failing when there is none. */
  private static int indexOf(List<String> lines, String source, String text) {
    for (int i = 0; i < lines.size(); i++) {
      String[] columns = lines.get(i).split(" {2,}", 3);
      if (columns.length == 3 && columns[1].equals(source) && columns[2].contains(text)) {
        return i;
      }
    }
    throw new AssertionError("no timeline line from \"" + source + "\" containing \"" + text + "\" in:\n"
        + String.join("\n", lines));
  }

  /** A test that fails on purpose: it expects a port the controller never sets. Run only by the test above. */
  @ControllerTest
  static class FailingNginxTest {

    @Test
    void expects_the_wrong_port(KubernetesClient client, ControllerHarness harness, FakeCluster cluster) {
      cluster.faults().when(RequestPattern.create("Service")).once().answer(ApiFault.serviceUnavailable());
      Controller controller = harness.start(NginxServiceController.create(client));
      cluster.events().add(nginxDeployment("web"));
      assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/web");
      assertThat(client.services().withName("web").get().getSpec().getPorts().get(0).getPort())
          .as("Service port").isEqualTo(8080);
    }
  }

  static Deployment nginxDeployment(String name) {
    return new DeploymentBuilder()
        .withNewMetadata().withName(name).withNamespace("default").withLabels(Map.of("app", "nginx")).endMetadata()
        .withNewSpec()
          .withNewSelector().withMatchLabels(Map.of("app", "nginx", "instance", name)).endSelector()
          .withNewTemplate()
            .withNewMetadata().withLabels(Map.of("app", "nginx", "instance", name)).endMetadata()
            .withNewSpec()
              .addNewContainer().withName("nginx").withImage("nginx:1.27")
                .addNewPort().withContainerPort(80).endPort()
              .endContainer()
            .endSpec()
          .endTemplate()
        .endSpec()
        .build();
  }
}
