package dev.ctk.junit;

import dev.ctk.junit.ControllerTest.Isolation;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Resolves ctk settings, in one place, with one precedence: an explicit value (annotation attribute or
 * builder) &gt; JUnit configuration parameter ({@code ctk.*}: {@code junit-platform.properties}, a
 * {@code -D} system property or the launcher) &gt; environment variable ({@code CTK_*}) &gt; default.
 *
 * <p>A new setting (issue 4 adds {@code ctk.mode}) is one more {@link Setting} constant; nothing else
 * changes.
 */
final class ControllerTestConfig {

  /** {@code ctk.isolation} / {@code CTK_ISOLATION}: {@code per_method} (default) or {@code per_class}. */
  static final Setting<Isolation> ISOLATION = new Setting<>(
      ControllerTest.ISOLATION_PROPERTY_NAME, Isolation.PER_METHOD,
      values("per_method", Isolation.PER_METHOD, "per_class", Isolation.PER_CLASS));

  /** How {@link #of} reads environment variables; ctk's own tests replace it. */
  private static volatile Function<String, String> environmentLookup = System::getenv;

  private final Function<String, Optional<String>> parameters;
  private final Function<String, String> environment;

  /**
   * Reads configuration parameters and environment variables through the given functions (tests pass
   * their own environment).
   *
   * @param parameters configuration parameter by name
   * @param environment environment variable by name, {@code null} when unset
   */
  ControllerTestConfig(Function<String, Optional<String>> parameters,
      Function<String, String> environment) {
    this.parameters = parameters;
    this.environment = environment;
  }

  /** The configuration of a test: its JUnit configuration parameters and the process environment. */
  static ControllerTestConfig of(ExtensionContext context) {
    return new ControllerTestConfig(context::getConfigurationParameter, environmentLookup);
  }

  /**
   * For ctk's own tests: replaces how {@link #of} reads environment variables, so that a test's result
   * never depends on the machine's {@code CTK_*} variables.
   *
   * @param lookup environment variable by name, {@code null} when unset
   * @return the lookup it replaced, to restore afterwards
   */
  static Function<String, String> replaceEnvironment(Function<String, String> lookup) {
    Function<String, String> previous = environmentLookup;
    environmentLookup = Objects.requireNonNull(lookup, "lookup");
    return previous;
  }

  /**
   * Resolves a setting.
   *
   * @param setting the setting
   * @param explicit the value set by annotation or builder, {@code null} when not set there
   * @param explicitSource where {@code explicit} was set, for diagnostics
   * @return the value and where it came from
   * @throws ExtensionConfigurationException if the winning source holds an invalid value
   */
  <T> Resolved<T> resolve(Setting<T> setting, T explicit, String explicitSource) {
    if (explicit != null) {
      return new Resolved<>(explicit, explicitSource);
    }
    Optional<String> parameter = parameters.apply(setting.property()).filter(v -> !v.isBlank());
    if (parameter.isPresent()) {
      return new Resolved<>(setting.parse(parameter.get(), "the JUnit configuration parameter "
          + setting.property() + " (junit-platform.properties, -D or the launcher)"),
          "configuration parameter " + setting.property());
    }
    String variable = environment.apply(setting.environmentVariable());
    if (variable != null && !variable.isBlank()) {
      return new Resolved<>(setting.parse(variable, "the environment variable "
          + setting.environmentVariable()), "environment variable " + setting.environmentVariable());
    }
    return new Resolved<>(setting.defaultValue(), "default");
  }

  private static <T> Map<String, T> values(String firstName, T first, String secondName, T second) {
    Map<String, T> values = new LinkedHashMap<>();
    values.put(firstName, first);
    values.put(secondName, second);
    return Collections.unmodifiableMap(values);
  }

  /**
   * A resolved value.
   *
   * @param value the value
   * @param source where it came from: {@code "@ControllerTest on ..."}, {@code "configuration
   *     parameter ctk.isolation"}, {@code "environment variable CTK_ISOLATION"} or {@code "default"}
   */
  record Resolved<T>(T value, String source) {}

  /**
   * One setting: its property name, its environment variable (the property upper-cased, dots as
   * underscores: {@code ctk.isolation} -> {@code CTK_ISOLATION}), its default and the values allowed,
   * written in lower case and read in any case.
   *
   * @param property the configuration parameter name
   * @param defaultValue the value when nothing sets it
   * @param values the allowed values by name, in the order messages list them
   */
  record Setting<T>(String property, T defaultValue, Map<String, T> values) {

    /** The environment variable that sets this setting. */
    String environmentVariable() {
      return property.toUpperCase(Locale.ROOT).replace('.', '_');
    }

    /**
     * Reads a value in any case.
     *
     * @param text the value as written
     * @param from where it was written, for the message: {@code the environment variable CTK_X}
     * @throws ExtensionConfigurationException for a value not allowed
     */
    T parse(String text, String from) {
      T value = values.get(text.trim().toLowerCase(Locale.ROOT));
      if (value == null) {
        String defaultName = values.entrySet().stream()
            .filter(e -> e.getValue().equals(defaultValue)).map(Map.Entry::getKey).findFirst()
            .orElse(String.valueOf(defaultValue));
        throw new ExtensionConfigurationException("Invalid value \"" + text + "\" from " + from
            + ". Expected one of: " + String.join(", ", values.keySet())
            + ". Fix the value, or remove it to get the default (" + defaultName + ").");
      }
      return value;
    }
  }
}
