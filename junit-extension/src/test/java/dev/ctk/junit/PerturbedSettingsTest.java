package dev.ctk.junit;

import static dev.ctk.junit.EngineRuns.assertAllPassed;
import static dev.ctk.junit.EngineRuns.onlyFailure;
import static dev.ctk.junit.EngineRuns.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.PerturbationConfig;
import dev.ctk.harness.internal.Resolved;
import dev.ctk.harness.internal.perturb.PerturbationPoint;
import dev.ctk.harness.values.Isolation;
import dev.ctk.harness.values.Perturbation;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/**
 * Perturbation settings: precedence (annotation or builder, configuration parameter, environment, default), bad
 * values, and the tests that are not perturbed: {@code ctk.perturb=off}, per-class isolation.
 */
class PerturbedSettingsTest {

  private static PerturbationSettings resolve(Integer maxRuns, Long seed, Map<String, String> parameters,
      Map<String, String> environment) {
    ControllerTestConfig config = new ControllerTestConfig(name -> Optional.ofNullable(parameters.get(name)),
        environment::get);
    return PerturbationSettings.resolve("[engine:junit-jupiter]/[class:T]/[method:m()]", "@Perturbed on T", config,
        EnumSet.allOf(Perturbation.class), maxRuns, seed, List.of());
  }

  @Test
  void should_take_the_annotation_over_configuration_and_environment() {
    // WHEN
    PerturbationSettings settings = resolve(3, 9L, Map.of("ctk.perturb.max-runs", "5", "ctk.perturb.seed", "6"),
        Map.of("CTK_PERTURB_MAX_RUNS", "7", "CTK_PERTURB_SEED", "8"));
    // THEN
    assertThat(settings.maxRuns()).isEqualTo(new Resolved<>(3, "@Perturbed on T"));
    assertThat(settings.seed()).isEqualTo(new Resolved<>(9L, "@Perturbed on T"));
  }

  @Test
  void should_take_the_configuration_parameter_over_the_environment() {
    // WHEN
    PerturbationSettings settings = resolve(null, null,
        Map.of("ctk.perturb.max-runs", "5", "ctk.perturb.seed", "-6", "ctk.perturb", "OFF"),
        Map.of("CTK_PERTURB_MAX_RUNS", "7", "CTK_PERTURB_SEED", "8", "CTK_PERTURB", "on"));
    // THEN
    assertThat(settings.maxRuns()).isEqualTo(new Resolved<>(5, "configuration parameter ctk.perturb.max-runs"));
    assertThat(settings.seed()).isEqualTo(new Resolved<>(-6L, "configuration parameter ctk.perturb.seed"));
    assertThat(settings.enabled()).isEqualTo(new Resolved<>(false, "configuration parameter ctk.perturb"));
  }

  @Test
  void should_take_the_environment_over_the_defaults() {
    // WHEN
    PerturbationSettings settings = resolve(null, null, Map.of(), Map.of("CTK_PERTURB_MAX_RUNS", "7",
        "CTK_PERTURB_SEED", "8", "CTK_PERTURB", "off", "CTK_PERTURB_REPLAY", "stale-view:ConfigMap:event-2"));
    // THEN
    assertThat(settings.maxRuns()).isEqualTo(new Resolved<>(7, "environment variable CTK_PERTURB_MAX_RUNS"));
    assertThat(settings.seed()).isEqualTo(new Resolved<>(8L, "environment variable CTK_PERTURB_SEED"));
    assertThat(settings.enabled()).isEqualTo(new Resolved<>(false, "environment variable CTK_PERTURB"));
    assertThat(settings.replay()).isEqualTo(new Resolved<>(PerturbationPoint.staleView("ConfigMap", 2),
        "environment variable CTK_PERTURB_REPLAY"));
  }

  @Test
  void should_default_to_24_runs_on_and_a_seed_from_the_unique_id() {
    // WHEN
    PerturbationSettings settings = resolve(null, null, Map.of(), Map.of());
    // THEN
    assertThat(settings.maxRuns()).isEqualTo(new Resolved<>(24, "default"));
    assertThat(settings.enabled()).isEqualTo(new Resolved<>(true, "default"));
    assertThat(settings.replay()).isEqualTo(new Resolved<>(null, "default"));
    assertThat(settings.seed()).isEqualTo(new Resolved<>(
        PerturbationSettings.defaultSeed("[engine:junit-jupiter]/[class:T]/[method:m()]"),
        "derived from the test's unique id"));
    assertThat(settings.seed().value()).isNotNegative()
        .isNotEqualTo(PerturbationSettings.defaultSeed("[engine:junit-jupiter]/[class:T]/[method:n()]"));
  }

  @Test
  void should_name_the_value_and_its_source_for_a_bad_bound() {
    // WHEN
    ExtensionConfigurationException error = catchThrowableOfType(ExtensionConfigurationException.class,
        () -> resolve(null, null, Map.of(), Map.of("CTK_PERTURB_MAX_RUNS", "0")));
    // THEN
    assertThat(error).hasMessage("Invalid value \"0\" from the environment variable CTK_PERTURB_MAX_RUNS. Expected "
        + "a whole number of runs, 1 or more. Fix the value, or remove it to get the default (24).");
  }

  @Test
  void should_name_the_accepted_forms_for_a_bad_replay_id() {
    // WHEN
    ExtensionConfigurationException error = catchThrowableOfType(ExtensionConfigurationException.class,
        () -> resolve(null, null, Map.of("ctk.perturb.replay", "crash:write-2"), Map.of()));
    // THEN
    assertThat(error).hasMessage("Invalid value \"crash:write-2\" from the JUnit configuration parameter "
        + "ctk.perturb.replay (junit-platform.properties, -D or the launcher). Expected a perturbation point id as "
        + "a perturbation report prints it: crash-restart:before-write-<n>, crash-restart:after-write-<n>, "
        + "stale-restart:<Kind>:after-write-<n>, stale-view:<Kind>:event-<n> or "
        + "unobserved-states:<Kind>:event-<n>:burst-<m> (m >= 2). Fix the value, or remove it to get the default "
        + "(every planned point).");
  }

  @Test
  void should_name_the_seed_setting_for_a_seed_that_is_not_a_number() {
    // WHEN
    ExtensionConfigurationException error = catchThrowableOfType(ExtensionConfigurationException.class,
        () -> resolve(null, null, Map.of("ctk.perturb.seed", "abc"), Map.of()));
    // THEN
    assertThat(error).hasMessage("Invalid value \"abc\" from the JUnit configuration parameter ctk.perturb.seed "
        + "(junit-platform.properties, -D or the launcher). Expected a whole number (a 64-bit integer). Fix the "
        + "value, or remove it to get the default (derived from the test's unique id).");
  }

  @Test
  void should_fail_a_test_whose_annotation_has_a_bad_bound_naming_the_method_annotation() {
    // WHEN
    EngineExecutionResults results = run(BadBoundOnMethod.class);
    // THEN the method's annotation is the one that applies
    assertThat(onlyFailure(results)).isInstanceOf(ExtensionConfigurationException.class).hasMessage(
        "Invalid @Perturbed(maxRuns = 0) (@Perturbed on method perturbed of "
            + BadBoundOnMethod.class.getName() + "): expected 1 or more perturbed runs per test, or -1 for the "
            + "configuration parameter ctk.perturb.max-runs (default 24). Fix: pass a positive bound, or leave "
            + "maxRuns out.");
  }

  @Test
  void should_fail_a_test_whose_ignored_field_cannot_be_read() {
    // WHEN
    EngineExecutionResults results = run(BadIgnoredField.class);
    // THEN
    assertThat(onlyFailure(results)).isInstanceOf(ExtensionConfigurationException.class).hasMessage(
        "Invalid field path \"data[x]\" in @Perturbed on " + BadIgnoredField.class.getName() + ": [x] is neither "
            + "[\"key\"], [<index>] nor [*]. Expected a path into the object such as status.lastUpdated, "
            + "metadata.annotations[\"example.com/seen\"], spec.items[*].stamp, optionally for one kind: "
            + "ConfigMap:data.generatedAt.");
  }

  @Test
  void should_refuse_to_perturb_a_test_that_shares_its_class_cluster() {
    // WHEN
    EngineExecutionResults results = run(PerClass.class);
    // THEN
    assertThat(onlyFailure(results)).isInstanceOf(ExtensionConfigurationException.class).hasMessage(
        "@Perturbed on " + PerClass.class.getName() + " cannot perturb perturbed: a perturbed test runs again once "
            + "per perturbation, each time on a fresh cluster, but " + PerClass.class.getName() + " shares one "
            + "cluster across its tests (isolation PER_CLASS, from @ControllerTest on " + PerClass.class.getName()
            + "). Fix: use per-method isolation for this class (the default), move the test into a class of its "
            + "own, or run without perturbations (-Dctk.perturb=off).");
  }

  @Test
  void should_run_a_perturbed_test_once_as_a_plain_test_when_perturbations_are_off() {
    // GIVEN
    Counted.RUNS.set(0);
    // WHEN
    EngineExecutionResults results = run(Counted.class, "ctk.perturb", "off");
    // THEN
    assertAllPassed(results, 1);
    assertThat(Counted.RUNS).hasValue(1);
    assertThat(results.allEvents().reportingEntryPublished().count()).isZero();
  }

  @Test
  void should_run_a_builder_perturbed_test_once_when_perturbations_are_off_in_the_environment() {
    // GIVEN
    Counted.RUNS.set(0);
    // WHEN
    EngineExecutionResults results = run(List.of(BuilderPerturbed.class),
        name -> name.equals("CTK_PERTURB") ? "off" : null);
    // THEN
    assertAllPassed(results, 1);
    assertThat(Counted.RUNS).hasValue(1);
  }

  @Test
  void should_refuse_misuse_of_the_perturbation_config_builder_at_once() {
    // GIVEN
    PerturbationConfig.Builder builder = PerturbationConfig.builder();
    // WHEN
    IllegalArgumentException zero = catchThrowableOfType(IllegalArgumentException.class,
        () -> builder.withMaxRuns(0));
    IllegalArgumentException none = catchThrowableOfType(IllegalArgumentException.class, builder::withKinds);
    PerturbationConfig config = builder.withSeed(4).withIgnoredFields("status.at").build();
    IllegalStateException twice = catchThrowableOfType(IllegalStateException.class, builder::build);
    // THEN
    assertThat(zero).hasMessage("PerturbationConfig.builder().withMaxRuns(0): expected 1 or more perturbed runs "
        + "per test. Fix: pass a positive bound, or leave it out for ctk.perturb.max-runs (default 24).");
    assertThat(none).hasMessage("PerturbationConfig.builder().withKinds(): no kind given. Expected one or more of "
        + "[CRASH_RESTART, STALE_RESTART, STALE_VIEW, UNOBSERVED_STATES]; to run a test without perturbations, "
        + "drop withPerturbations(..) or run with -Dctk.perturb=off.");
    assertThat(twice).hasMessage("This PerturbationConfig.Builder was already built. Fix: start a new one with "
        + "PerturbationConfig.builder() for each configuration.");
    assertThat(config.kinds()).containsExactlyInAnyOrder(Perturbation.values());
    assertThat(config.seed()).hasValue(4);
    assertThat(config.maxRuns()).isEmpty();
    assertThat(config.ignoredFields()).containsExactly("status.at");
  }

  @Fixture
  @ControllerTest
  @Perturbed(maxRuns = 5)
  static class BadBoundOnMethod {

    @Test
    @Perturbed(maxRuns = 0)
    void perturbed() {}
  }

  @Fixture
  @ControllerTest
  @Perturbed(ignoreFields = "data[x]")
  static class BadIgnoredField {

    @Test
    void perturbed() {}
  }

  @Fixture
  @ControllerTest(isolation = Isolation.PER_CLASS)
  @Perturbed
  static class PerClass {

    @Test
    void perturbed() {}
  }

  @Fixture
  @ControllerTest
  static class Counted {

    static final AtomicInteger RUNS = new AtomicInteger();

    @Test
    @Perturbed
    void perturbed(ControllerHarness harness) {
      RUNS.incrementAndGet();
    }
  }

  @Fixture
  static class BuilderPerturbed {

    @RegisterExtension
    static ControllerTestExtension ctk = ControllerTestExtension.builder()
        .withPerturbations(PerturbationConfig.builder().withMaxRuns(2).build())
        .build();

    @Test
    void perturbed(ControllerHarness harness) {
      Counted.RUNS.incrementAndGet();
    }
  }
}
