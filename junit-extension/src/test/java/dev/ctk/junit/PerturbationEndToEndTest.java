package dev.ctk.junit;

import static dev.ctk.junit.EngineRuns.assertAllPassed;
import static dev.ctk.junit.EngineRuns.onlyFailure;
import static dev.ctk.junit.EngineRuns.run;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.Result;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.values.Perturbation;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/**
 * A whole perturbation campaign through the JUnit engine: a correct controller passes every run; a controller with a
 * create that is not idempotent after a crash fails, with the report; a replay runs one point.
 */
class PerturbationEndToEndTest {

  @TempDir
  Path reports;

  @Test
  void should_pass_every_perturbed_run_of_a_correct_controller_and_report_each() throws Exception {
    // WHEN
    EngineExecutionResults results = run(CorrectController.class, "ctk.report-dir", reports.toString());
    // THEN
    assertAllPassed(results, 1);
    String report = EngineRuns.perturbationReport(results);
    List<String> lines = report.lines().collect(Collectors.toList());
    assertThat(lines.get(0)).matches("ctk perturbation: PerturbationEndToEndTest\\$CorrectController#"
        + "copies_the_config_map: 0 of (\\d+) runs failed, \\d+ had no effect \\(seed \\d+, \\1 of \\1 planned "
        + "points run, [\\d.]+(ms|s); reference \\d+ms\\)");
    assertThat(lines.subList(1, lines.size())).isNotEmpty()
        .allMatch(line -> line.matches("  (PASS|SKIP) [a-zA-Z:-]+\\d+(:burst-\\d+)? +\\d+ ms.*"));
    assertThat(lines).anyMatch(l -> l.startsWith("  PASS crash-restart:after-write-1 "))
        .anyMatch(l -> l.matches("  SKIP stale-view:ConfigMap:event-1 +\\d+ ms  no effect: no reconcile ran while "
            + "the view was stale"));
    Path file = reports.resolve("dev.ctk.junit.PerturbationEndToEndTest_CorrectController")
        .resolve("copies_the_config_map_KubernetesClient_ControllerHarness-perturbations.txt");
    assertThat(Files.readString(file)).isEqualTo(report + "\n");
  }

  @Test
  void should_find_a_create_that_is_not_idempotent_after_a_crash_and_fail_with_the_report() {
    // WHEN
    EngineExecutionResults results = run(PlantedNonIdempotentCreate.class, "ctk.report-dir", reports.toString(),
        "ctk.perturb.max-runs", "50");
    // THEN
    Throwable failure = onlyFailure(results);
    assertThat(failure).isInstanceOf(AssertionError.class);
    String message = failure.getMessage();
    assertThat(message).isEqualTo(EngineRuns.perturbationReport(results));
    List<String> lines = message.lines().collect(Collectors.toList());
    assertThat(lines.get(0)).matches("ctk perturbation: PerturbationEndToEndTest\\$PlantedNonIdempotentCreate#"
        + "creates_one_child: [1-9]\\d* of \\d+ runs failed \\(seed \\d+, .*\\)");
    assertThat(lines).anyMatch(l -> l.matches("  FAIL crash-restart:after-write-1 +\\d+ ms  end state differs: "
        + "extra: ConfigMap default/web-[a-z0-9]{5} \\(generateName web-\\)"))
        .anyMatch(l -> l.matches("  PASS crash-restart:after-write-2 +\\d+ ms"));
    int details = lines.indexOf("crash-restart:after-write-1: the controller crashes right after its write #1, "
        + "and a fresh instance starts");
    assertThat(details).isPositive();
    assertThat(lines.get(details + 1)).isEqualTo("  replay: -Dctk.perturb.replay=crash-restart:after-write-1 "
        + "(with -Dtest='PerturbationEndToEndTest$PlantedNonIdempotentCreate#creates_one_child')");
    assertThat(lines.get(details + 2)).isEqualTo("  timeline (from the perturbation on):");
    assertThat(lines.subList(details + 3, lines.size())).anyMatch(l -> l.matches(
        "    \\d\\d:\\d\\d:\\d\\d\\.\\d{3} write #1 create ConfigMap in default -> 201"))
        .anyMatch(l -> l.matches(
        "    \\d\\d:\\d\\d:\\d\\d\\.\\d{3} write #3 create ConfigMap in default -> 201   \\(instance 2\\)"))
        .anyMatch(l -> l.matches("    extra: ConfigMap default/web-[a-z0-9]{5} \\(generateName web-\\)"));
  }

  @Test
  void should_run_only_the_replayed_point() {
    // WHEN
    EngineExecutionResults results = run(PlantedNonIdempotentCreate.class, "ctk.report-dir", reports.toString(),
        "ctk.perturb.replay", "crash-restart:after-write-2");
    // THEN
    assertAllPassed(results, 1);
    List<String> lines = EngineRuns.perturbationReport(results).lines().collect(Collectors.toList());
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).matches("ctk perturbation: PerturbationEndToEndTest\\$PlantedNonIdempotentCreate#"
        + "creates_one_child: 0 of 1 run failed \\(replay of crash-restart:after-write-2, [\\d.]+(ms|s); reference "
        + "[\\d.]+(ms|s)\\)");
    assertThat(lines.get(1)).matches("  PASS crash-restart:after-write-2 +\\d+ ms");
  }

  @Test
  void should_perturb_the_fake_invocation_of_an_across_modes_class_whatever_its_number() {
    // GIVEN fake is the second mode; the existing-cluster invocation is skipped (no kubeconfig)
    String missing = Path.of("target", "no-such-kubeconfig").toAbsolutePath().toString();
    // WHEN
    EngineExecutionResults results = run(AcrossModesCopier.class, "ctk.report-dir", reports.toString(),
        "ctk.modes", "existing_cluster,fake", "ctk.kubeconfig", missing);
    // THEN the perturbed runs found the fake invocation (#1 when only fake runs) and passed
    assertAllPassed(results, 1);
    assertThat(results.testEvents().skipped().count()).isEqualTo(1);
    List<String> lines = EngineRuns.perturbationReport(results).lines().collect(Collectors.toList());
    assertThat(lines.get(0)).matches("ctk perturbation: PerturbationEndToEndTest\\$AcrossModesCopier#"
        + "copies_the_config_map: 0 of (\\d+) runs failed \\(seed \\d+, \\1 of \\1 planned points run, [\\d.]+"
        + "(ms|s); reference [\\d.]+(ms|s)\\)");
    assertThat(lines.subList(1, lines.size())).isNotEmpty().allMatch(l -> l.matches(
        "  PASS crash-restart:(before|after)-write-\\d +\\d+ ms"));
  }

  @Test
  void should_fail_once_naming_the_unique_id_when_the_perturbed_run_cannot_find_the_test_again() {
    // GIVEN a test template with 2 invocations in the reference run, 1 in perturbed runs
    // WHEN
    EngineExecutionResults results = run(TemplateVaries.class, "ctk.report-dir", reports.toString(),
        "ctk.perturb.replay", "crash-restart:before-write-1");
    // THEN invocation #1 passes its campaign; #2 fails once, with a configuration error
    assertThat(results.testEvents().succeeded().count()).isEqualTo(1);
    Throwable failure = onlyFailure(results);
    String id = results.testEvents().failed().list().get(0).getTestDescriptor().getUniqueId().toString();
    assertThat(id).endsWith("/[test-template-invocation:#2]");
    assertThat(failure).isInstanceOf(org.junit.jupiter.api.extension.ExtensionConfigurationException.class)
        .hasMessage("ctk perturbation: PerturbationEndToEndTest$TemplateVaries#copies: the campaign cannot run: the "
            + "nested JUnit launcher found no test with the unique id " + id + " (perturbed run "
            + "crash-restart:before-write-1; the reference run is " + id + "), so no perturbed run can run this "
            + "test. A test is selected again by its unique id, in fake mode only: an invocation of a class or test "
            + "template that exists only outside fake mode, or only in the reference run (a provider that gives "
            + "other invocations the second time), is not found again. Fix: perturb a test whose id is the same in "
            + "every run (a plain @Test, or @AcrossModes whose fake invocation is found again), or run it without "
            + "perturbations (-Dctk.perturb=off).");
  }

  private static ConfigMap parent(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("default")
        .addToLabels("role", "parent").endMetadata().addToData("v", "1").build();
  }

  /** Per parent ConfigMap: a Secret of the same name (create, 409 is fine), then marks the parent. */
  static Controller copier(KubernetesClient client) {
    return Controller.builder("copier")
        .watch(client.configMaps().inNamespace("default").withLabel("role", "parent").runnableInformer(0),
            EventHandlers.enqueueObject())
        .withReconciler(key -> {
          ConfigMap read = client.configMaps().inNamespace(key.namespace()).withName(key.name()).get();
          if (read == null) {
            return Result.done();
          }
          if (client.secrets().inNamespace(key.namespace()).withName(key.name()).get() == null) {
            try {
              client.secrets().resource(new SecretBuilder().withNewMetadata().withName(key.name())
                  .withNamespace(key.namespace()).endMetadata().addToStringData("v", "1").build()).create();
            } catch (KubernetesClientException e) {
              if (e.getCode() != 409) {
                throw e;
              }
            }
          }
          if (!"yes".equals(read.getMetadata().getAnnotations() == null ? null
              : read.getMetadata().getAnnotations().get("copied"))) {
            client.configMaps().inNamespace(key.namespace()).withName(key.name())
                .edit(c -> new ConfigMapBuilder(c).editMetadata().addToAnnotations("copied", "yes").endMetadata()
                    .build());
          }
          return Result.done();
        })
        .build();
  }

  /** Per parent ConfigMap: a child by generateName unless the parent names one (NOT idempotent after a crash). */
  static Controller childMaker(KubernetesClient client) {
    return Controller.builder("child-maker")
        .watch(client.configMaps().inNamespace("default").withLabel("role", "parent").runnableInformer(0),
            EventHandlers.enqueueObject())
        .withReconciler(key -> {
          ConfigMap read = client.configMaps().inNamespace(key.namespace()).withName(key.name()).get();
          Map<String, String> annotations = read == null ? null : read.getMetadata().getAnnotations();
          if (read == null || (annotations != null && annotations.containsKey("child"))) {
            return Result.done();
          }
          ConfigMap child = client.configMaps().resource(new ConfigMapBuilder().withNewMetadata()
              .withGenerateName(key.name() + "-").withNamespace(key.namespace())
              .addNewOwnerReference().withApiVersion("v1").withKind("ConfigMap").withName(key.name())
              .withUid(read.getMetadata().getUid()).endOwnerReference().endMetadata()
              .addToData("from", key.name()).build()).create();
          client.configMaps().inNamespace(key.namespace()).withName(key.name())
              .edit(c -> new ConfigMapBuilder(c).editMetadata()
                  .addToAnnotations("child", child.getMetadata().getName()).endMetadata().build());
          return Result.done();
        })
        .build();
  }

  @Fixture
  @ControllerTest
  static class CorrectController {

    @Test
    @Perturbed
    void copies_the_config_map(KubernetesClient client, ControllerHarness harness) {
      harness.start(() -> copier(client));
      client.configMaps().resource(parent("web")).create();
      await("the Secret web and the annotation copied=yes").atMost(ofSeconds(10)).until(() ->
          client.secrets().withName("web").get() != null
              && "yes".equals(client.configMaps().withName("web").get().getMetadata().getAnnotations() == null
                  ? null : client.configMaps().withName("web").get().getMetadata().getAnnotations().get("copied")));
    }
  }

  @Fixture
  @ControllerTest
  @AcrossModes
  static class AcrossModesCopier {

    @Test
    @Perturbed(kinds = Perturbation.CRASH_RESTART)
    void copies_the_config_map(KubernetesClient client, ControllerHarness harness) {
      harness.start(() -> copier(client));
      client.configMaps().resource(parent("web")).create();
      await("the Secret web").atMost(ofSeconds(10)).until(() -> client.secrets().withName("web").get() != null);
    }
  }

  /** Two invocations in the reference run, one in a perturbed run. */
  static final class TwiceThenOnce implements TestTemplateInvocationContextProvider {

    @Override
    public boolean supportsTestTemplate(ExtensionContext context) {
      return true;
    }

    @Override
    public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
      int invocations = context.getConfigurationParameter(PerturbationCampaign.RUN_PROPERTY_NAME).isPresent() ? 1 : 2;
      return IntStream.range(0, invocations).mapToObj(i -> new TestTemplateInvocationContext() {});
    }
  }

  @Fixture
  @ControllerTest
  static class TemplateVaries {

    @TestTemplate
    @ExtendWith(TwiceThenOnce.class)
    @Perturbed(kinds = Perturbation.CRASH_RESTART)
    void copies(KubernetesClient client, ControllerHarness harness) {
      harness.start(() -> copier(client));
      client.configMaps().resource(parent("web")).create();
      await("the Secret web").atMost(ofSeconds(10)).until(() -> client.secrets().withName("web").get() != null);
    }
  }

  @Fixture
  @ControllerTest
  static class PlantedNonIdempotentCreate {

    @Test
    @Perturbed(kinds = Perturbation.CRASH_RESTART)
    void creates_one_child(KubernetesClient client, ControllerHarness harness) {
      harness.start(() -> childMaker(client));
      client.configMaps().resource(parent("web")).create();
      await("the parent names its child").atMost(ofSeconds(10)).until(() -> {
        Map<String, String> annotations = client.configMaps().withName("web").get().getMetadata()
            .getAnnotations();
        return annotations != null && annotations.containsKey("child");
      });
    }
  }
}
