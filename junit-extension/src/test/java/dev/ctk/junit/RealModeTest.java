package dev.ctk.junit;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static dev.ctk.junit.EngineRuns.assertAllPassed;
import static dev.ctk.junit.EngineRuns.onlyFailure;
import static dev.ctk.junit.EngineRuns.run;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.Result;
import dev.ctk.envtest.ApiServer;
import dev.ctk.fake.EventInjector;
import dev.ctk.fake.FakeCluster;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.values.Isolation;
import dev.ctk.harness.values.Mode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EventType;

/**
 * {@code @ControllerTest(mode = ENVTEST)} against the real kube-apiserver of this machine: a fresh
 * namespace per test (or class), seeding into it, injection and event injection through the API,
 * controllers, and the failure report.
 */
class RealModeTest {

  /** Namespaces the fixtures ran in, by test. */
  static final Map<String, String> NAMESPACE = new ConcurrentHashMap<>();
  /** Messages the fixtures caught. */
  static final List<String> CAUGHT = new CopyOnWriteArrayList<>();

  private ApiServer server;

  @BeforeEach
  void setUp() {
    NAMESPACE.clear();
    CAUGHT.clear();
    server = RealServerFixtures.serverOrSkip(Mode.ENVTEST);
  }

  @Test
  void should_give_each_test_a_fresh_namespace_and_delete_it_afterwards() {
    // WHEN
    var results = run(TwoTestsPerMethod.class);
    // THEN
    assertAllPassed(results, 2);
    assertThat(NAMESPACE).containsOnlyKeys("first", "second");
    assertThat(NAMESPACE.get("first")).isNotEqualTo(NAMESPACE.get("second"))
        .matches("ctk-[a-z0-9-]+");
    try (KubernetesClient admin = server.newClient()) {
      await("the namespaces of both tests to be deleted").atMost(ofSeconds(30))
          .untilAsserted(() -> assertThat(NAMESPACE.values())
              .allMatch(ns -> admin.namespaces().withName(ns).get() == null));
    }
  }

  @Test
  void should_share_one_namespace_across_the_class_with_per_class_isolation() {
    // WHEN
    var results = run(PerClassNamespace.class);
    // THEN
    assertAllPassed(results, 2);
    assertThat(NAMESPACE.get("beforeAll")).isEqualTo(NAMESPACE.get("first"))
        .isEqualTo(NAMESPACE.get("second")).matches("ctk-[a-z0-9-]+");
    try (KubernetesClient admin = server.newClient()) {
      await("the class's namespace " + NAMESPACE.get("first") + " to be deleted after the class")
          .atMost(ofSeconds(30))
          .until(() -> admin.namespaces().withName(NAMESPACE.get("first")).get() == null);
    }
  }

  @Test
  void should_seed_crds_and_resources_into_the_test_namespace() {
    // WHEN
    var results = run(Seeded.class);
    // THEN
    assertAllPassed(results, 1);
  }

  @Test
  void should_seed_builder_objects_without_a_namespace_into_the_test_namespace() {
    // WHEN
    var results = run(SeededByBuilder.class);
    // THEN
    assertAllPassed(results, 1);
  }

  @Test
  void should_run_in_envtest_mode_when_the_configuration_parameter_says_so() {
    // WHEN
    var results = run(NoModeSet.class, "ctk.mode", "envtest");
    // THEN
    assertAllPassed(results, 1);
    assertThat(NAMESPACE.get("test")).startsWith("envtest ctk-");
  }

  @Test
  void should_run_in_envtest_mode_when_the_environment_says_so() {
    // WHEN
    var results = run(List.of(NoModeSet.class), Map.of("CTK_MODE", "ENVTEST")::get);
    // THEN
    assertAllPassed(results, 1);
    assertThat(NAMESPACE.get("test")).startsWith("envtest ctk-");
  }

  @Test
  void should_refuse_to_inject_a_fake_cluster_naming_the_mode_and_what_to_use_instead() {
    // WHEN
    var results = run(AsksForFakeCluster.class);
    // THEN
    assertThat(onlyFailure(results)).isInstanceOf(ParameterResolutionException.class)
        .hasMessage("Cannot inject FakeCluster into method test(..) of "
            + AsksForFakeCluster.class.getName() + ": it runs in envtest mode (from "
            + "@ControllerTest on " + AsksForFakeCluster.class.getName() + "), against "
            + server.description() + ", where there is no fake cluster. Fix: use "
            + "KubernetesClient to read and write objects and EventInjector to add, update and "
            + "delete them (both work in every mode), or run this class in fake mode only "
            + "(@ControllerTest(mode = Mode.FAKE)).");
  }

  @Test
  void should_write_injected_events_through_the_api_and_refuse_synthetic_ones() {
    // WHEN
    var results = run(InjectsEvents.class);
    // THEN
    assertAllPassed(results, 1);
    assertThat(CAUGHT).containsExactly("emitAdded is fake-mode only: a real kube-apiserver "
        + "cannot send a watch event for an object it does not store; this test runs in envtest "
        + "mode, against " + server.description() + ". Fix: use add, update or delete (they write "
        + "through the API in every mode), or move this test to a class that runs in fake mode "
        + "only (@ControllerTest(mode = Mode.FAKE)).",
        "ControllerHarness.cluster() has no FakeCluster to return: this test runs in envtest "
        + "mode, against " + server.description() + ". Fix: use client() and namespace(), which "
        + "work in every mode, or run this test in fake mode only (@ControllerTest(mode = "
        + "Mode.FAKE)).");
  }

  @Test
  void should_run_a_controller_against_the_real_server() {
    // WHEN
    var results = run(RunsAController.class);
    // THEN
    assertAllPassed(results, 1);
  }

  @Test
  void should_name_the_mode_the_server_and_the_namespace_when_a_test_fails() {
    // WHEN
    var results = run(Fails.class);
    // THEN
    assertThat(onlyFailure(results)).hasMessage("the test's own failure");
    List<Map<String, String>> entries = results.allEvents().stream()
        .filter(e -> e.getType() == EventType.REPORTING_ENTRY_PUBLISHED)
        .map(e -> e.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs())
        .filter(entry -> !entry.containsKey("ctk.timeline"))   // TimelineTest checks the timeline
        .collect(Collectors.toList());
    assertThat(entries).containsExactly(Map.of("ctk.cluster", "envtest mode, "
        + server.description() + ", namespace " + NAMESPACE.get("fails")));
  }

  @Test
  void should_uninstall_the_crds_it_installed_when_the_test_run_ends_with_uninstall_crds() {
    // WHEN
    var results = run(InstallsAWidgetCrd.class, "ctk.uninstall-crds", "true");
    // THEN the run is over, the server still runs, and the CRD is gone
    assertAllPassed(results, 1);
    try (KubernetesClient admin = server.newClient()) {
      await("CRD " + WIDGET_CRD_NAME + " to be uninstalled at the end of the run")
          .atMost(ofSeconds(30)).until(() -> admin.apiextensions().v1()
              .customResourceDefinitions().withName(WIDGET_CRD_NAME).get() == null);
    }
  }

  static final String WIDGET_CRD_NAME = "widgets.uninstall.ctk.dev";

  /** A CRD no other test installs: ctk creates it, so ctk.uninstall-crds=true deletes it. */
  static CustomResourceDefinition widgetCrd() {
    return new CustomResourceDefinitionBuilder().withNewMetadata().withName(WIDGET_CRD_NAME)
        .endMetadata().withNewSpec().withGroup("uninstall.ctk.dev").withScope("Namespaced")
        .withNewNames().withKind("Widget").withPlural("widgets").withSingular("widget")
        .endNames()
        .addNewVersion().withName("v1").withServed(true).withStorage(true).withNewSchema()
        .withNewOpenAPIV3Schema().withType("object").withXKubernetesPreserveUnknownFields(true)
        .endOpenAPIV3Schema().endSchema().endVersion().endSpec().build();
  }

  static ConfigMap configMap(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata()
        .addToData("key", "value").build();
  }

  @Fixture
  @ControllerTest(mode = Mode.ENVTEST)
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class TwoTestsPerMethod {

    @Test
    @Order(1)
    void first(KubernetesClient client, ControllerHarness harness) {
      NAMESPACE.put("first", harness.namespace());
      assertThat(client.getNamespace()).isEqualTo(harness.namespace());
      assertThat(client.getConfiguration().getRequestRetryBackoffLimit())
          .as("the test's client retries nothing by itself, as in fake mode").isZero();
      client.configMaps().resource(configMap("from-first")).create();
      assertThat(client.configMaps().inNamespace(harness.namespace()).withName("from-first")
          .get()).isNotNull();
    }

    @Test
    @Order(2)
    void second(KubernetesClient client, ControllerHarness harness) {
      NAMESPACE.put("second", harness.namespace());
      assertThat(client.configMaps().withName("from-first").get()).isNull();
    }
  }

  @Fixture
  @ControllerTest(mode = Mode.ENVTEST, isolation = Isolation.PER_CLASS)
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class PerClassNamespace {

    @BeforeAll
    static void setUp(ControllerHarness harness) {
      NAMESPACE.put("beforeAll", harness.namespace());
    }

    @Test
    @Order(1)
    void first(KubernetesClient client, ControllerHarness harness) {
      NAMESPACE.put("first", harness.namespace());
      client.configMaps().resource(configMap("from-first")).create();
    }

    @Test
    @Order(2)
    void second(KubernetesClient client, ControllerHarness harness) {
      NAMESPACE.put("second", harness.namespace());
      assertThat(client.configMaps().withName("from-first").get()).isNotNull();
    }
  }

  @Fixture
  @ControllerTest(mode = Mode.ENVTEST, crds = "classpath:crds/network.yaml",
      resources = {"classpath:seed/configmaps.yaml", "classpath:seed/networks.yaml"})
  static class Seeded {

    @Test
    void test(KubernetesClient client, ControllerHarness harness) {
      String namespace = harness.namespace();
      assertThat(client.configMaps().inNamespace(namespace).withName("seeded").get()
          .getData()).containsEntry("source", "file");
      assertThat(client.configMaps().inNamespace(namespace).withName("seeded-too").get())
          .isNotNull();
      assertThat(client.configMaps().inNamespace("default").withName("seeded").get()).isNull();
      GenericKubernetesResource blue = client.genericKubernetesResources("samplecrd.k8s.io/v1",
          "Network").inNamespace(namespace).withName("blue").get();
      assertThat(blue.get("spec", "cidr").toString()).isEqualTo("10.0.0.0/24");
    }
  }

  @Fixture
  static class SeededByBuilder {

    @RegisterExtension
    static ControllerTestExtension ctk = ControllerTestExtension.builder()
        .withMode(Mode.ENVTEST)
        .withCrds(SeedingTest.NETWORK_CRD)
        .withObjects(configMap("no-namespace"), new GenericKubernetesResourceBuilder()
            .withApiVersion("samplecrd.k8s.io/v1").withKind("Network")
            .withNewMetadata().withName("green").endMetadata()
            .addToAdditionalProperties("spec", Map.of("cidr", "10.1.0.0/24")).build())
        .build();

    @Test
    void test(KubernetesClient client, ControllerHarness harness) {
      assertThat(client.configMaps().inNamespace(harness.namespace()).withName("no-namespace")
          .get()).isNotNull();
      GenericKubernetesResource green = client.genericKubernetesResources("samplecrd.k8s.io/v1",
          "Network").inNamespace(harness.namespace()).withName("green").get();
      assertThat(green.get("spec", "cidr").toString()).isEqualTo("10.1.0.0/24");
    }
  }

  @Fixture
  static class InstallsAWidgetCrd {

    @RegisterExtension
    static ControllerTestExtension ctk = ControllerTestExtension.builder()
        .withMode(Mode.ENVTEST).withCrds(widgetCrd()).build();

    @Test
    void test(KubernetesClient client) {
      assertThat(client.apiextensions().v1().customResourceDefinitions()
          .withName(WIDGET_CRD_NAME).get()).isNotNull();
    }
  }

  @Fixture
  @ControllerTest
  static class NoModeSet {

    @Test
    void test(ControllerHarness harness) {
      NAMESPACE.put("test", harness.mode().configName() + " " + harness.namespace());
    }
  }

  @Fixture
  @ControllerTest(mode = Mode.ENVTEST)
  static class AsksForFakeCluster {

    @Test
    void test(FakeCluster cluster) {
      assertThat(cluster).isNotNull();
    }
  }

  @Fixture
  @ControllerTest(mode = Mode.ENVTEST)
  static class InjectsEvents {

    @Test
    void test(KubernetesClient client, EventInjector events, ControllerHarness harness) {
      ConfigMap added = events.add(configMap("web"));
      assertThat(added.getMetadata().getNamespace()).isEqualTo(harness.namespace());
      assertThat(client.configMaps().withName("web").get().getData())
          .containsEntry("key", "value");
      added.setData(Map.of("key", "changed"));
      added.getMetadata().setResourceVersion("1");   // ignored, as in the fake
      events.update(added);
      assertThat(client.configMaps().withName("web").get().getData())
          .containsEntry("key", "changed");
      events.delete(added);
      assertThat(client.configMaps().withName("web").get()).isNull();
      CAUGHT.add(catchThrowableOfType(UnsupportedOperationException.class,
          () -> events.emitAdded(added)).getMessage());
      CAUGHT.add(catchThrowableOfType(IllegalStateException.class, harness::cluster)
          .getMessage());
    }
  }

  @Fixture
  @ControllerTest(mode = Mode.ENVTEST)
  static class RunsAController {

    @Test
    void test(KubernetesClient client, ControllerHarness harness) {
      Controller controller = harness.start(Controller.builder("copier")
          .watch(client.configMaps().runnableInformer(0), EventHandlers.enqueueObject())
          .withReconciler(key -> {
            ConfigMap source = client.configMaps().withName(key.name()).get();
            if (source != null && !key.name().endsWith("-copy")) {
              client.configMaps().resource(new ConfigMapBuilder().withNewMetadata()
                  .withName(key.name() + "-copy").endMetadata().withData(source.getData())
                  .build()).createOr(op -> op.update());
            }
            return Result.done();
          }).build());
      client.configMaps().resource(configMap("web")).create();
      assertThat(controller).within(ofSeconds(10))
          .hasReconciledSuccessfully(harness.namespace() + "/web");
      assertThat(client.configMaps().withName("web-copy").get().getData())
          .containsEntry("key", "value");
    }
  }

  @Fixture
  @ControllerTest(mode = Mode.ENVTEST)
  static class Fails {

    @Test
    void fails(ControllerHarness harness) {
      NAMESPACE.put("fails", harness.namespace());
      throw new AssertionError("the test's own failure");
    }
  }
}
