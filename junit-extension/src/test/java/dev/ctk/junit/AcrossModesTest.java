package dev.ctk.junit;

import static dev.ctk.junit.EngineRuns.assertAllPassed;
import static dev.ctk.junit.EngineRuns.onlyFailure;
import static dev.ctk.junit.EngineRuns.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.values.Isolation;
import dev.ctk.harness.values.Mode;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.Event;

/**
 * {@code @AcrossModes}: one class body run once per mode as a JUnit class template, with the mode in
 * the display name, its own scope per mode, and the refusals of combinations that cannot work. The
 * envtest invocations start a real kube-apiserver from the binaries on this machine: a test that
 * needs them is skipped without them, or fails when {@code CTK_REQUIRE_ENVTEST=true}.
 */
class AcrossModesTest {

  /** What each fixture test saw: "display name of the invocation | test | mode | namespace". */
  static final List<String> SEEN = new CopyOnWriteArrayList<>();

  @BeforeEach
  void forget() {
    SEEN.clear();
  }

  @Test
  void should_run_the_class_once_per_listed_mode_with_the_mode_in_the_display_name() {
    // GIVEN this machine has the envtest binaries (else skipped; failed when required)
    RealServerFixtures.serverOrSkip(Mode.ENVTEST);
    // WHEN
    var results = run(FakeAndEnvtest.class);
    // THEN
    assertAllPassed(results, 4);
    assertThat(invocationNames(results))
        .containsExactly("[fake] AcrossModesTest$FakeAndEnvtest",
            "[envtest] AcrossModesTest$FakeAndEnvtest");
    assertThat(SEEN).hasSize(4);
    assertThat(SEEN.subList(0, 2)).containsExactlyInAnyOrder(
        "first fake default", "second fake default");
    assertThat(SEEN.subList(2, 4)).allSatisfy(seen ->
        assertThat(seen).matches("(first|second) envtest ctk-[a-z0-9-]+"));
    assertThat(SEEN.get(2).split(" ")[2]).isNotEqualTo(SEEN.get(3).split(" ")[2]);
  }

  @Test
  void should_take_the_modes_from_the_environment_when_the_annotation_lists_none() {
    // WHEN
    var results = run(List.of(ModesFromConfiguration.class), environment("CTK_MODES", "FAKE"));
    // THEN
    assertAllPassed(results, 1);
    assertThat(invocationNames(results))
        .containsExactly("[fake] AcrossModesTest$ModesFromConfiguration");
  }

  @Test
  void should_let_the_configuration_parameter_win_over_the_environment_for_the_modes() {
    // WHEN
    var results = run(List.of(ModesFromConfiguration.class), environment("CTK_MODES", "envtest"),
        "ctk.modes", "fake");
    // THEN
    assertAllPassed(results, 1);
    assertThat(SEEN).containsExactly("test fake default");
  }

  @Test
  void should_default_to_fake_and_envtest() {
    // GIVEN this machine has the envtest binaries (else skipped; failed when required)
    RealServerFixtures.serverOrSkip(Mode.ENVTEST);
    // WHEN
    var results = run(ModesFromConfiguration.class);
    // THEN
    assertAllPassed(results, 2);
    assertThat(invocationNames(results)).containsExactly(
        "[fake] AcrossModesTest$ModesFromConfiguration",
        "[envtest] AcrossModesTest$ModesFromConfiguration");
  }

  @Test
  void should_pair_fake_with_the_real_mode_of_ctk_mode_when_no_list_is_given() {
    // GIVEN a kubeconfig that does not exist: the existing-cluster invocation is skipped
    String missing = java.nio.file.Path.of("target", "no-such-kubeconfig").toAbsolutePath()
        .toString();
    // WHEN
    var results = run(List.of(ModesFromConfiguration.class),
        environment("CTK_MODE", "existing-cluster"), "ctk.kubeconfig", missing);
    // THEN
    assertThat(invocationNames(results)).containsExactly(
        "[fake] AcrossModesTest$ModesFromConfiguration",
        "[existing_cluster] AcrossModesTest$ModesFromConfiguration");
    assertThat(SEEN).containsExactly("test fake default");
    assertThat(results.testEvents().skipped().count()).isEqualTo(1);
  }

  @Test
  void should_fail_with_a_clear_message_for_an_invalid_list_of_modes() {
    // WHEN
    var results = run(List.of(ModesFromConfiguration.class),
        environment("CTK_MODES", "fake,envtst"));
    // THEN
    assertThat(onlyFailure(results)).isInstanceOf(ExtensionConfigurationException.class)
        .hasMessage("Invalid value \"fake,envtst\" from the environment variable CTK_MODES. "
            + "Expected a comma-separated list of distinct modes among: fake, envtest, container, "
            + "existing_cluster. Fix the value, or remove it to get the default (fake,envtest).");
  }

  @Test
  void should_override_the_mode_of_ctk_mode_in_each_invocation() {
    // WHEN ctk.mode says envtest, but the class lists fake only
    var results = run(FakeOnly.class, "ctk.mode", "envtest");
    // THEN
    assertAllPassed(results, 1);
    assertThat(SEEN).containsExactly("test fake default");
  }

  @Test
  void should_give_each_mode_its_own_per_class_scope_shared_with_nested_classes() {
    // GIVEN this machine has the envtest binaries (else skipped; failed when required)
    RealServerFixtures.serverOrSkip(Mode.ENVTEST);
    // WHEN
    var results = run(PerClassAcrossModes.class);
    // THEN in each mode, the second test and the nested one saw the first test's object
    assertAllPassed(results, 6);
    assertThat(SEEN).filteredOn(s -> s.startsWith("fake ")).containsExactly(
        "fake first default", "fake second saw it", "fake nested saw it");
    List<String> envtest = SEEN.stream().filter(s -> s.startsWith("envtest ")).toList();
    assertThat(envtest).hasSize(3);
    assertThat(envtest.get(0)).matches("envtest first ctk-[a-z0-9-]+");
    assertThat(envtest.subList(1, 3)).containsExactly("envtest second saw it",
        "envtest nested saw it");
  }

  @Test
  void should_run_in_the_modes_of_the_invocation_with_a_builder_made_extension() {
    // WHEN
    var results = run(BuilderAcrossModes.class);
    // THEN
    assertAllPassed(results, 1);
    assertThat(SEEN).containsExactly("test fake default");
  }

  @Test
  void should_refuse_injection_into_before_all_of_the_class_template() {
    // WHEN
    var results = run(InjectsIntoTemplateBeforeAll.class);
    // THEN
    assertThat(onlyFailure(results)).isInstanceOf(ParameterResolutionException.class)
        .hasMessage("Cannot inject KubernetesClient into method setUp(..) of "
            + InjectsIntoTemplateBeforeAll.class.getName() + ": it runs once for all modes of "
            + "@AcrossModes on " + InjectsIntoTemplateBeforeAll.class.getName() + ", before any "
            + "mode's cluster exists. Fix: inject it into a @Test, @BeforeEach or @AfterEach "
            + "method, or into the @BeforeAll of a @Nested class (it runs in each mode).");
  }

  @Test
  void should_refuse_a_mode_fixed_by_the_annotation() {
    // WHEN
    var results = run(FixedModeAndAcrossModes.class);
    // THEN
    assertThat(onlyFailure(results)).isInstanceOf(ExtensionConfigurationException.class)
        .hasMessage("@AcrossModes on " + FixedModeAndAcrossModes.class.getName() + " runs the "
            + "class in several modes, but @ControllerTest(mode = ENVTEST) on "
            + FixedModeAndAcrossModes.class.getName() + " fixes one mode. Fix: remove one of them "
            + "(list the modes in @AcrossModes, or drop @AcrossModes to run in one mode).");
    assertThat(results.testEvents().started().count()).isZero();
  }

  @Test
  void should_refuse_a_mode_fixed_by_the_builder() {
    // WHEN
    var results = run(FixedByBuilderAndAcrossModes.class);
    // THEN
    assertThat(onlyFailure(results)).isInstanceOf(ExtensionConfigurationException.class)
        .hasMessage("@AcrossModes on " + FixedByBuilderAndAcrossModes.class.getName() + " runs "
            + "the class in several modes, but ControllerTestExtension.builder().withMode(FAKE) "
            + "in " + FixedByBuilderAndAcrossModes.class.getName() + ".ctk fixes one mode. Fix: "
            + "remove one of them (list the modes in @AcrossModes, or drop @AcrossModes to run in "
            + "one mode).");
  }

  @Test
  void should_refuse_across_modes_without_a_ctk_extension() {
    // WHEN
    var results = run(AcrossModesAlone.class);
    // THEN
    assertThat(onlyFailure(results)).isInstanceOf(ExtensionConfigurationException.class)
        .hasMessage("@AcrossModes on " + AcrossModesAlone.class.getName() + " chooses modes, but "
            + "no ctk extension runs the tests: neither @ControllerTest nor a @RegisterExtension "
            + "ControllerTestExtension is on " + AcrossModesAlone.class.getName() + " or a class "
            + "enclosing it. Fix: add @ControllerTest to the class.");
  }

  @Test
  void should_refuse_a_mode_listed_twice() {
    // WHEN
    var results = run(ModeTwice.class);
    // THEN
    assertThat(onlyFailure(results)).isInstanceOf(ExtensionConfigurationException.class)
        .hasMessage("@AcrossModes on " + ModeTwice.class.getName() + " lists [FAKE, FAKE], with "
            + "FAKE twice. Fix: list each of FAKE, ENVTEST, CONTAINER, EXISTING_CLUSTER at most "
            + "once, or write @AcrossModes alone to take the modes from ctk.modes / CTK_MODES.");
  }

  @Test
  void should_refuse_across_modes_nested_in_across_modes() {
    // WHEN
    var results = run(OuterAcrossModes.class);
    // THEN the outer invocation ran its own test; the nested template failed in it
    assertThat(onlyFailure(results)).isInstanceOf(ExtensionConfigurationException.class)
        .hasMessage("@AcrossModes on " + OuterAcrossModes.InnerAcrossModes.class.getName()
            + " is nested in " + OuterAcrossModes.class.getName() + ", which carries "
            + "@AcrossModes too: the modes would multiply. Fix: keep @AcrossModes on one class "
            + "of the chain.");
  }

  static List<String> invocationNames(EngineExecutionResults results) {
    return results.containerEvents().started().stream().map(Event::getTestDescriptor)
        .filter(d -> d.getUniqueId().getLastSegment().getType()
            .equals("class-template-invocation"))
        .map(d -> d.getDisplayName()).toList();
  }

  static Function<String, String> environment(String name, String value) {
    return Map.of(name, value)::get;
  }

  @Fixture
  @ControllerTest
  @AcrossModes({Mode.FAKE, Mode.ENVTEST})
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class FakeAndEnvtest {

    @Test
    @Order(1)
    void first(KubernetesClient client, ControllerHarness harness) {
      assertThat(client.getNamespace()).isEqualTo(harness.namespace());
      SEEN.add("first " + harness.mode().configName() + " " + harness.namespace());
    }

    @Test
    @Order(2)
    void second(ControllerHarness harness) {
      SEEN.add("second " + harness.mode().configName() + " " + harness.namespace());
    }
  }

  /** Records the mode and the namespace of its one test. */
  abstract static class RecordsMode {

    @Test
    void test(ControllerHarness harness) {
      SEEN.add("test " + harness.mode().configName() + " " + harness.namespace());
    }
  }

  @Fixture
  @ControllerTest
  @AcrossModes
  static class ModesFromConfiguration extends RecordsMode {}

  @Fixture
  @ControllerTest
  @AcrossModes(Mode.FAKE)
  static class FakeOnly extends RecordsMode {}

  @Fixture
  @AcrossModes(Mode.FAKE)
  static class BuilderAcrossModes extends RecordsMode {

    @RegisterExtension
    static ControllerTestExtension ctk = ControllerTestExtension.builder().build();
  }

  @Fixture
  @ControllerTest(isolation = Isolation.PER_CLASS)
  @AcrossModes({Mode.FAKE, Mode.ENVTEST})
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class PerClassAcrossModes {

    @Test
    @Order(1)
    void first(KubernetesClient client, ControllerHarness harness) {
      client.configMaps().resource(new ConfigMapBuilder().withNewMetadata()
          .withName("from-first-test").endMetadata().build()).create();
      SEEN.add(harness.mode().configName() + " first " + harness.namespace());
    }

    @Test
    @Order(2)
    void second(KubernetesClient client, ControllerHarness harness) {
      SEEN.add(harness.mode().configName() + " second "
          + (client.configMaps().withName("from-first-test").get() != null ? "saw it" : "not"));
    }

    @Nested
    class Inner {

      @Test
      void nested(KubernetesClient client, ControllerHarness harness) {
        SEEN.add(harness.mode().configName() + " nested "
            + (client.configMaps().withName("from-first-test").get() != null ? "saw it" : "not"));
      }
    }
  }

  @Fixture
  @ControllerTest
  @AcrossModes(Mode.FAKE)
  static class InjectsIntoTemplateBeforeAll {

    @BeforeAll
    static void setUp(KubernetesClient client) {
      assertThat(client).isNotNull();
    }

    @Test
    void test() {
      assertThat(SEEN).isNotNull();
    }
  }

  @Fixture
  @ControllerTest(mode = Mode.ENVTEST)
  @AcrossModes(Mode.FAKE)
  static class FixedModeAndAcrossModes extends RecordsMode {}

  @Fixture
  @AcrossModes(Mode.ENVTEST)
  static class FixedByBuilderAndAcrossModes extends RecordsMode {

    @RegisterExtension
    static ControllerTestExtension ctk = ControllerTestExtension.builder()
        .withMode(Mode.FAKE).build();
  }

  @Fixture
  @AcrossModes(Mode.FAKE)
  static class AcrossModesAlone {

    @Test
    void test() {
      assertThat(SEEN).isNotNull();
    }
  }

  @Fixture
  @ControllerTest
  @AcrossModes({Mode.FAKE, Mode.FAKE})
  static class ModeTwice extends RecordsMode {}

  @Fixture
  @ControllerTest
  @AcrossModes(Mode.FAKE)
  static class OuterAcrossModes {

    @Test
    void outer() {
      assertThat(SEEN).isNotNull();
    }

    @Nested
    @AcrossModes(Mode.FAKE)
    class InnerAcrossModes {

      @Test
      void inner() {
        assertThat(SEEN).isNotNull();
      }
    }
  }
}
