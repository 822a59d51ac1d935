package dev.ctk.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.junit.ControllerTest.Isolation;
import dev.ctk.junit.ControllerTestConfig.Resolved;
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
}
