package dev.ctk.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.harness.internal.Resolved;
import dev.ctk.harness.values.Isolation;
import dev.ctk.harness.values.Mode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/** The precedence table: explicit > configuration parameter > environment > default. */
class ControllerTestConfigTest {

  private static ControllerTestConfig config(Map<String, String> parameters,
      Map<String, String> environment) {
    return new ControllerTestConfig(name -> Optional.ofNullable(parameters.get(name)),
        environment::get);
  }

  @Test
  void should_take_the_explicit_value_over_everything_else() {
    // GIVEN
    ControllerTestConfig config = config(Map.of("ctk.isolation", "per_method"),
        Map.of("CTK_ISOLATION", "per_method"));
    // WHEN
    Resolved<Isolation> resolved = config.resolve(ControllerTestConfig.ISOLATION,
        Isolation.PER_CLASS, "@ControllerTest on Foo");
    // THEN
    assertThat(resolved).isEqualTo(new Resolved<>(Isolation.PER_CLASS, "@ControllerTest on Foo"));
  }

  @Test
  void should_take_the_configuration_parameter_over_the_environment() {
    // GIVEN
    ControllerTestConfig config = config(Map.of("ctk.isolation", "PER_CLASS"),
        Map.of("CTK_ISOLATION", "per_method"));
    // WHEN
    Resolved<Isolation> resolved = config.resolve(ControllerTestConfig.ISOLATION, null, "unused");
    // THEN
    assertThat(resolved).isEqualTo(
        new Resolved<>(Isolation.PER_CLASS, "configuration parameter ctk.isolation"));
  }

  @Test
  void should_take_the_environment_over_the_default() {
    // GIVEN
    ControllerTestConfig config = config(Map.of(), Map.of("CTK_ISOLATION", " per_class "));
    // WHEN
    Resolved<Isolation> resolved = config.resolve(ControllerTestConfig.ISOLATION, null, "unused");
    // THEN
    assertThat(resolved).isEqualTo(
        new Resolved<>(Isolation.PER_CLASS, "environment variable CTK_ISOLATION"));
  }

  @Test
  void should_fall_back_to_per_method_and_skip_blank_values() {
    // GIVEN
    ControllerTestConfig config = config(Map.of("ctk.isolation", " "),
        Map.of("CTK_ISOLATION", ""));
    // WHEN
    Resolved<Isolation> resolved = config.resolve(ControllerTestConfig.ISOLATION, null, "unused");
    // THEN
    assertThat(resolved).isEqualTo(new Resolved<>(Isolation.PER_METHOD, "default"));
  }

  @Test
  void should_name_the_configuration_parameter_in_the_message_of_an_invalid_value() {
    // GIVEN
    ControllerTestConfig config = config(Map.of("ctk.isolation", "per_test"), Map.of());
    // WHEN
    ExtensionConfigurationException error = catchThrowableOfType(
        ExtensionConfigurationException.class,
        () -> config.resolve(ControllerTestConfig.ISOLATION, null, "unused"));
    // THEN
    assertThat(error).hasMessage("Invalid value \"per_test\" from the JUnit configuration "
        + "parameter ctk.isolation (junit-platform.properties, -D or the launcher). Expected one "
        + "of: per_method, per_class. Fix the value, or remove it to get the default "
        + "(per_method).");
  }

  @Test
  void should_name_the_environment_variable_in_the_message_of_an_invalid_value() {
    // GIVEN
    ControllerTestConfig config = config(Map.of(), Map.of("CTK_ISOLATION", "shared"));
    // WHEN
    ExtensionConfigurationException error = catchThrowableOfType(
        ExtensionConfigurationException.class,
        () -> config.resolve(ControllerTestConfig.ISOLATION, null, "unused"));
    // THEN
    assertThat(error).hasMessage("Invalid value \"shared\" from the environment variable "
        + "CTK_ISOLATION. Expected one of: per_method, per_class. Fix the value, or remove it to "
        + "get the default (per_method).");
  }

  @Test
  void should_derive_the_environment_variable_from_the_property() {
    assertThat(ControllerTestConfig.ISOLATION.environmentVariable()).isEqualTo("CTK_ISOLATION");
  }

  @Test
  void should_default_the_mode_to_fake() {
    // WHEN
    Resolved<Mode> resolved = config(Map.of(), Map.of())
        .resolve(ControllerTestConfig.MODE, null, "unused");
    // THEN
    assertThat(resolved).isEqualTo(new Resolved<>(Mode.FAKE, "default"));
  }

  @Test
  void should_read_the_mode_in_any_case_with_dashes_or_underscores() {
    // GIVEN
    ControllerTestConfig config = config(Map.of(), Map.of("CTK_MODE", "Existing-Cluster"));
    // WHEN
    Resolved<Mode> resolved = config.resolve(ControllerTestConfig.MODE, null, "unused");
    // THEN
    assertThat(resolved).isEqualTo(
        new Resolved<>(Mode.EXISTING_CLUSTER, "environment variable CTK_MODE"));
  }

  @Test
  void should_take_the_mode_property_over_the_environment() {
    // GIVEN
    ControllerTestConfig config = config(Map.of("ctk.mode", "container"),
        Map.of("CTK_MODE", "envtest"));
    // WHEN
    Resolved<Mode> resolved = config.resolve(ControllerTestConfig.MODE, null, "unused");
    // THEN
    assertThat(resolved).isEqualTo(
        new Resolved<>(Mode.CONTAINER, "configuration parameter ctk.mode"));
  }

  @Test
  void should_name_the_modes_allowed_in_the_message_of_an_invalid_mode() {
    // GIVEN
    ControllerTestConfig config = config(Map.of(), Map.of("CTK_MODE", "envtst"));
    // WHEN
    ExtensionConfigurationException error = catchThrowableOfType(
        ExtensionConfigurationException.class,
        () -> config.resolve(ControllerTestConfig.MODE, null, "unused"));
    // THEN
    assertThat(error).hasMessage("Invalid value \"envtst\" from the environment variable "
        + "CTK_MODE. Expected one of: fake, envtest, container, existing_cluster. Fix the value, "
        + "or remove it to get the default (fake).");
  }

  @Test
  void should_read_a_list_of_modes() {
    // GIVEN
    ControllerTestConfig config = config(Map.of("ctk.modes", " Fake , existing-cluster"),
        Map.of());
    // WHEN
    Resolved<List<Mode>> resolved = config.resolve(ControllerTestConfig.MODES, null, "unused");
    // THEN
    assertThat(resolved).isEqualTo(new Resolved<>(List.of(Mode.FAKE, Mode.EXISTING_CLUSTER),
        "configuration parameter ctk.modes"));
  }

  @Test
  void should_refuse_a_list_that_repeats_a_mode() {
    // GIVEN
    ControllerTestConfig config = config(Map.of("ctk.modes", "fake,fake"), Map.of());
    // WHEN
    ExtensionConfigurationException error = catchThrowableOfType(
        ExtensionConfigurationException.class,
        () -> config.resolve(ControllerTestConfig.MODES, null, "unused"));
    // THEN
    assertThat(error).hasMessage("Invalid value \"fake,fake\" from the JUnit configuration "
        + "parameter ctk.modes (junit-platform.properties, -D or the launcher). Expected a "
        + "comma-separated list of distinct modes among: fake, envtest, container, "
        + "existing_cluster. Fix the value, or remove it to get the default (fake,envtest).");
  }

  @Test
  void should_read_require_envtest_from_the_environment() {
    // GIVEN
    ControllerTestConfig config = config(Map.of(), Map.of("CTK_REQUIRE_ENVTEST", "TRUE"));
    // WHEN
    Resolved<Boolean> resolved =
        config.resolve(ControllerTestConfig.REQUIRE_ENVTEST, null, "unused");
    // THEN
    assertThat(resolved).isEqualTo(
        new Resolved<>(true, "environment variable CTK_REQUIRE_ENVTEST"));
  }

  @Test
  void should_derive_environment_variables_with_dashes_as_underscores() {
    assertThat(List.of(ControllerTestConfig.REQUIRE_ENVTEST, ControllerTestConfig.KUBE_CONTEXT,
        ControllerTestConfig.CONTAINER_LOCAL_IMAGE, ControllerTestConfig.ENVTEST_VERSION))
        .extracting(ControllerTestConfig.Setting::environmentVariable)
        .containsExactly("CTK_REQUIRE_ENVTEST", "CTK_KUBE_CONTEXT", "CTK_CONTAINER_LOCAL_IMAGE",
            "CTK_ENVTEST_VERSION");
  }

  @Test
  void should_keep_free_text_settings_as_written_and_leave_them_unset_by_default() {
    // GIVEN
    ControllerTestConfig config = config(Map.of("ctk.kube-context", " kind-ci "), Map.of());
    // WHEN / THEN
    assertThat(config.resolve(ControllerTestConfig.KUBE_CONTEXT, null, "unused"))
        .isEqualTo(new Resolved<>("kind-ci", "configuration parameter ctk.kube-context"));
    assertThat(config.resolve(ControllerTestConfig.KUBECONFIG, null, "unused"))
        .isEqualTo(new Resolved<>(null, "default"));
  }

  @Test
  void should_keep_a_valid_envtest_version_as_written_and_refuse_one_that_is_not_a_version() {
    // GIVEN
    ControllerTestConfig valid = config(Map.of("ctk.envtest.version", "v1.20.x"), Map.of());
    ControllerTestConfig invalid = config(Map.of(), Map.of("CTK_ENVTEST_VERSION", "latest"));
    // WHEN
    Resolved<String> resolved = valid.resolve(ControllerTestConfig.ENVTEST_VERSION, null, "unused");
    ExtensionConfigurationException error = catchThrowableOfType(
        ExtensionConfigurationException.class,
        () -> invalid.resolve(ControllerTestConfig.ENVTEST_VERSION, null, "unused"));
    // THEN
    assertThat(resolved).isEqualTo(
        new Resolved<>("v1.20.x", "configuration parameter ctk.envtest.version"));
    assertThat(error).hasMessage("Invalid value \"latest\" from the environment variable "
        + "CTK_ENVTEST_VERSION. Expected a Kubernetes version such as 1.20, 1.20.x or 1.20.2. Fix "
        + "the value, or remove it to get the default (any version: the first place in discovery "
        + "order that has the binaries).");
  }

  @Test
  void should_read_the_envtest_assets_only_from_the_configuration_parameter() {
    // GIVEN LocalApiServer reads CTK_ENVTEST_ASSETS itself, in its discovery order
    ControllerTestConfig config = config(Map.of(), Map.of("CTK_ENVTEST_ASSETS", "/opt/k8s"));
    // WHEN
    Resolved<String> resolved =
        config.resolveParameterOnly(ControllerTestConfig.ENVTEST_ASSETS);
    // THEN
    assertThat(resolved).isEqualTo(new Resolved<>(null, "default"));
  }
}
