package dev.ctk.harness;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.Result;
import dev.ctk.harness.values.FailureContext;
import dev.ctk.harness.values.HarnessConfigurationException;
import dev.ctk.harness.values.Mode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ctk without its JUnit extension, as a Spock, TestNG or plain-{@code main} user has it: JUnit only runs these
 * methods; nothing here is registered with JUnit.
 */
class TestScopeTest {

  @Test
  void should_run_a_controller_against_a_seeded_fake_cluster_and_close_it_with_the_scope() {
    // GIVEN
    Controller controller;
    // region:without-junit
    try (TestScope scope = TestScope.builder().withObjects(configMap("web")).start()) {
      ControllerHarness harness = scope.harness();
      // WHEN
      controller = harness.start(labeller(harness));
      // THEN
      assertThat(controller).within(ofSeconds(10)).hasReconciledSuccessfully("default/web");
      await("the controller's label on default/web").atMost(ofSeconds(10)).untilAsserted(() ->
          assertThat(harness.client().configMaps().withName("web").get().getMetadata().getLabels())
              .containsEntry("seen", "yes"));
      assertThat(harness.mode()).isEqualTo(Mode.FAKE);
      assertThat(harness.namespace()).isEqualTo("default");
    }   // the controller is closed here, then the fake cluster
    // endregion:without-junit
    assertThat(controller.isRunning()).isFalse();
  }

  @Test
  void should_write_the_failure_timeline_where_the_failure_context_says(@TempDir Path reports) throws Exception {
    // GIVEN
    Path file;
    try (TestScope scope = TestScope.builder().start()) {
      ControllerHarness harness = scope.harness();
      harness.start(labeller(harness));
      harness.client().configMaps().resource(configMap("api")).create();
      assertThat(harness.controllers().get(0)).within(ofSeconds(10)).hasReconciledSuccessfully("default/api");
      FailureContext failed = FailureContext.of(TestScopeTest.class, "labels_api",
          new AssertionError("expected api to be labelled twice"), reports);
      file = failed.reportFile();
      // WHEN
      scope.reportFailure(failed);
    }
    // THEN
    assertThat(file).isEqualTo(reports.resolve("dev.ctk.harness.TestScopeTest").resolve("labels_api.html")
        .toAbsolutePath().normalize());
    String html = Files.readString(file, StandardCharsets.UTF_8);
    assertThat(html).contains("expected api to be labelled twice").contains("default/api");
  }

  @Test
  void should_fail_with_the_location_and_the_fix_for_a_crd_file_that_does_not_exist() {
    // WHEN / THEN
    assertThatThrownBy(() -> TestScope.builder().withCrds("classpath:crds/missing.yaml"))
        .isInstanceOf(HarnessConfigurationException.class)
        .hasMessage("TestScope.builder().withCrds lists \"classpath:crds/missing.yaml\", but there is no such "
            + "classpath resource. Fix: put the file at src/test/resources/crds/missing.yaml, or correct the name.");
  }

  @Test
  void should_refuse_the_default_mode_sentinel() {
    // WHEN / THEN
    assertThatThrownBy(() -> TestScope.builder().withMode(Mode.DEFAULT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a TestScope needs a mode: FAKE, ENVTEST, CONTAINER or EXISTING_CLUSTER");
  }

  private static Controller labeller(ControllerHarness harness) {
    return Controller.builder("labeller")
        .watch(harness.client().configMaps().inNamespace("default").runnableInformer(0),
            EventHandlers.enqueueObject())
        .withReconciler(key -> {
          harness.client().configMaps().inNamespace(key.namespace()).withName(key.name())
              .edit(cm -> new ConfigMapBuilder(cm).editMetadata().addToLabels("seen", "yes").endMetadata().build());
          return Result.done();
        })
        .build();
  }

  private static ConfigMap configMap(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().withData(Map.of("k", "v")).build();
  }
}
