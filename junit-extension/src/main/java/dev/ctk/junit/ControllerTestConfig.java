package dev.ctk.junit;

import dev.ctk.envtest.LocalApiServer;
import dev.ctk.envtest.values.EnvtestException;
import dev.ctk.fake.FakeCluster;
import dev.ctk.harness.internal.Resolved;
import dev.ctk.harness.internal.perturb.PerturbationPoint;
import dev.ctk.harness.internal.realserver.ServerConfig;
import dev.ctk.harness.values.Isolation;
import dev.ctk.harness.values.Mode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Resolves ctk settings, in one place, with one precedence: an explicit value (annotation attribute or
 * builder) &gt; JUnit configuration parameter ({@code ctk.*}: {@code junit-platform.properties}, a
 * {@code -D} system property or the launcher) &gt; environment variable ({@code CTK_*}) &gt; default.
 *
 * <p>A new setting is one more {@link Setting} constant; nothing else changes.
 */
final class ControllerTestConfig {

  /** {@code ctk.isolation} / {@code CTK_ISOLATION}: {@code per_method} (default), {@code per_class}. */
  static final Setting<Isolation> ISOLATION = Setting.choice(
      ControllerTest.ISOLATION_PROPERTY_NAME, Isolation.PER_METHOD,
      values("per_method", Isolation.PER_METHOD, "per_class", Isolation.PER_CLASS));

  /** {@code ctk.mode} / {@code CTK_MODE}: fake (default), envtest, container, existing_cluster. */
  static final Setting<Mode> MODE = Setting.choice(ControllerTest.MODE_PROPERTY_NAME, Mode.FAKE,
      modeValues());

  /** {@code ctk.modes} / {@code CTK_MODES}: the modes of an {@code @AcrossModes} naming none. */
  static final Setting<List<Mode>> MODES = new Setting<>(ControllerTest.MODES_PROPERTY_NAME,
      List.of(Mode.FAKE, Mode.ENVTEST), Map.of(), ControllerTestConfig::parseModes,
      "a comma-separated list of distinct modes among: "
          + String.join(", ", modeValues().keySet()), "fake,envtest");

  /** {@code ctk.require-envtest} / {@code CTK_REQUIRE_ENVTEST}: fail instead of skip. */
  static final Setting<Boolean> REQUIRE_ENVTEST = Setting.choice(
      ControllerTest.REQUIRE_ENVTEST_PROPERTY_NAME, false, values("true", true, "false", false));

  /** {@code ctk.uninstall-crds} / {@code CTK_UNINSTALL_CRDS}: delete installed CRDs at JVM end. */
  static final Setting<Boolean> UNINSTALL_CRDS = Setting.choice(
      ControllerTest.UNINSTALL_CRDS_PROPERTY_NAME, false, values("true", true, "false", false));

  /**
   * {@code ctk.envtest.version} / {@code CTK_ENVTEST_VERSION}: {@code 1.20}, {@code 1.20.x}, {@code
   * 1.20.2}, checked here (as {@code LocalApiServer.Builder.withVersion} checks it) so that an
   * invalid value fails every class that reads it, naming the setting, instead of failing the first
   * server start.
   */
  static final Setting<String> ENVTEST_VERSION = new Setting<>(
      ControllerTest.ENVTEST_VERSION_PROPERTY_NAME, null, Map.of(),
      ControllerTestConfig::parseVersion, "a Kubernetes version such as 1.20, 1.20.x or 1.20.2",
      "any version: the first place in discovery order that has the binaries");

  /** {@code ctk.fake.kubernetes-version} / {@code CTK_FAKE_KUBERNETES_VERSION}: the minor the fake emulates. */
  static final Setting<String> FAKE_KUBERNETES_VERSION = new Setting<>(
      ControllerTest.FAKE_KUBERNETES_VERSION_PROPERTY_NAME, null, Map.of(),
      ControllerTestConfig::parseFakeVersion, "a Kubernetes minor the fake emulates: "
          + String.join(", ", FakeCluster.supportedKubernetesVersions()), "1.32");

  /** {@code ctk.envtest.assets} only: the environment variable is LocalApiServer's to read. */
  static final Setting<String> ENVTEST_ASSETS =
      Setting.text(ControllerTest.ENVTEST_ASSETS_PROPERTY_NAME);

  /**
   * {@code ctk.container.local-image} / {@code CTK_CONTAINER_LOCAL_IMAGE}: an assets folder, or
   * {@code auto} for the binaries envtest mode would use.
   */
  static final Setting<String> CONTAINER_LOCAL_IMAGE =
      Setting.text(ControllerTest.CONTAINER_LOCAL_IMAGE_PROPERTY_NAME);

  /** {@code ctk.container.apiserver-image} / {@code CTK_CONTAINER_APISERVER_IMAGE}. */
  static final Setting<String> CONTAINER_APISERVER_IMAGE =
      Setting.text(ControllerTest.CONTAINER_APISERVER_IMAGE_PROPERTY_NAME);

  /** {@code ctk.container.etcd-image} / {@code CTK_CONTAINER_ETCD_IMAGE}. */
  static final Setting<String> CONTAINER_ETCD_IMAGE =
      Setting.text(ControllerTest.CONTAINER_ETCD_IMAGE_PROPERTY_NAME);

  /** {@code ctk.container.k3s-image} / {@code CTK_CONTAINER_K3S_IMAGE}. */
  static final Setting<String> CONTAINER_K3S_IMAGE =
      Setting.text(ControllerTest.CONTAINER_K3S_IMAGE_PROPERTY_NAME);

  /** {@code ctk.kubeconfig} / {@code CTK_KUBECONFIG}. */
  static final Setting<String> KUBECONFIG = Setting.text(ControllerTest.KUBECONFIG_PROPERTY_NAME);

  /** {@code ctk.kube-context} / {@code CTK_KUBE_CONTEXT}. */
  static final Setting<String> KUBE_CONTEXT =
      Setting.text(ControllerTest.KUBE_CONTEXT_PROPERTY_NAME);

  /** {@code ctk.perturb} / {@code CTK_PERTURB}: {@code on} (default) or {@code off} (perturbed tests run once). */
  static final Setting<Boolean> PERTURB = Setting.choice(Perturbed.ENABLED_PROPERTY_NAME, true,
      values("on", true, "off", false, "true", true, "false", false));

  /** {@code ctk.perturb.replay} / {@code CTK_PERTURB_REPLAY}: the id of the one point to run. */
  static final Setting<PerturbationPoint> PERTURB_REPLAY = new Setting<>(Perturbed.REPLAY_PROPERTY_NAME, null,
      Map.of(), ControllerTestConfig::parsePoint, "a perturbation point id as a perturbation report prints it: "
          + "crash-restart:before-write-<n>, crash-restart:after-write-<n>, stale-restart:<Kind>:after-write-<n>, "
          + "stale-view:<Kind>:event-<n> or unobserved-states:<Kind>:event-<n>:burst-<m> (m >= 2)",
      "every planned point");

  /** {@code ctk.perturb.max-runs} / {@code CTK_PERTURB_MAX_RUNS}: the most perturbed runs per test. */
  static final Setting<Integer> PERTURB_MAX_RUNS = new Setting<>(Perturbed.MAX_RUNS_PROPERTY_NAME,
      PerturbationSettings.DEFAULT_MAX_RUNS, Map.of(), ControllerTestConfig::parsePositive,
      "a whole number of runs, 1 or more", String.valueOf(PerturbationSettings.DEFAULT_MAX_RUNS));

  /** {@code ctk.perturb.parallel-runs} / {@code CTK_PERTURB_PARALLEL_RUNS}: perturbed runs side by side. */
  static final Setting<Integer> PERTURB_PARALLEL_RUNS = new Setting<>(Perturbed.PARALLEL_RUNS_PROPERTY_NAME, 1,
      Map.of(), ControllerTestConfig::parsePositive, "a whole number of runs, 1 or more", "1");

  /** {@code ctk.perturb.stop-early} / {@code CTK_PERTURB_STOP_EARLY}: stop a perturbed run's waits once certain. */
  static final Setting<Boolean> PERTURB_STOP_EARLY = Setting.choice(Perturbed.STOP_EARLY_PROPERTY_NAME, true,
      values("true", true, "false", false));

  /** {@code ctk.perturb.seed} / {@code CTK_PERTURB_SEED}: the seed of the sample. */
  static final Setting<Long> PERTURB_SEED = new Setting<>(Perturbed.SEED_PROPERTY_NAME, null, Map.of(),
      ControllerTestConfig::parseLong, "a whole number (a 64-bit integer)", "derived from the test's unique id");

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

  /**
   * Resolves a setting that only configuration parameters set (no environment variable: another
   * component reads that one itself).
   *
   * @param setting the setting
   * @return the value and where it came from; the default when the parameter is unset
   */
  <T> Resolved<T> resolveParameterOnly(Setting<T> setting) {
    Optional<String> parameter = parameters.apply(setting.property()).filter(v -> !v.isBlank());
    if (parameter.isPresent()) {
      return new Resolved<>(setting.parse(parameter.get(), "the JUnit configuration parameter "
          + setting.property() + " (junit-platform.properties, -D or the launcher)"),
          "configuration parameter " + setting.property());
    }
    return new Resolved<>(setting.defaultValue(), "default");
  }

  static <T> Map<String, T> values(String firstName, T first, String secondName, T second) {
    Map<String, T> values = new LinkedHashMap<>();
    values.put(firstName, first);
    values.put(secondName, second);
    return Collections.unmodifiableMap(values);
  }

  private static Map<String, Mode> modeValues() {
    Map<String, Mode> values = new LinkedHashMap<>();
    for (Mode mode : Mode.values()) {
      if (mode != Mode.DEFAULT) {
        values.put(mode.configName(), mode);
      }
    }
    return Collections.unmodifiableMap(values);
  }

  /** Parses {@code fake,envtest}: each a mode, at most once; null (invalid) on any problem. */
  private static List<Mode> parseModes(String text) {
    Map<String, Mode> allowed = modeValues();
    List<Mode> modes = new ArrayList<>();
    for (String part : text.split(",", -1)) {
      Mode mode = allowed.get(Setting.normalize(part));
      if (mode == null || modes.contains(mode)) {
        return null;
      }
      modes.add(mode);
    }
    return List.copyOf(modes);
  }

  private static Map<String, Boolean> values(String a, Boolean av, String b, Boolean bv, String c, Boolean cv,
      String d, Boolean dv) {
    Map<String, Boolean> values = new LinkedHashMap<>(values(a, av, b, bv));
    values.put(c, cv);
    values.put(d, dv);
    return Collections.unmodifiableMap(values);
  }

  private static PerturbationPoint parsePoint(String text) {
    try {
      return PerturbationPoint.parse(text);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static Integer parsePositive(String text) {
    try {
      int value = Integer.parseInt(text);
      return value >= 1 ? value : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static Long parseLong(String text) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The version as written when envtest accepts it; null (invalid) otherwise. */
  private static String parseVersion(String text) {
    try {
      LocalApiServer.builder().withVersion(text);
      return text;
    } catch (IllegalArgumentException | EnvtestException e) {
      return null;   // not a version (envtest says so with one type or the other)
    }
  }

  /** The version as written when the fake emulates it; null (invalid) otherwise. */
  private static String parseFakeVersion(String text) {
    try {
      FakeCluster.builder().withKubernetesVersion(text);
      return text;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** The modes as {@code ctk.modes} writes them: {@code fake,envtest}. */
  static String modeNames(List<Mode> modes) {
    return modes.stream().map(Mode::configName).collect(Collectors.joining(","));
  }


  /**
   * One setting: its property name, its environment variable (the property upper-cased, dots and
   * dashes as underscores: {@code ctk.require-envtest} -> {@code CTK_REQUIRE_ENVTEST}), its default
   * and how a value is read: from a fixed set of names (written in lower case, read in any case, with
   * {@code -} and {@code _} the same), or by a function (free text, lists).
   *
   * @param property the configuration parameter name
   * @param defaultValue the value when nothing sets it ({@code null}: unset)
   * @param values the allowed values by name, in the order messages list them; empty for free text
   * @param freeForm reads a value that is not one of {@code values}; returns {@code null} if invalid
   * @param expected what an invalid value's message says is expected; {@code null}: the values
   * @param defaultName how that message names the default; {@code null}: the default's value name
   */
  record Setting<T>(String property, T defaultValue, Map<String, T> values,
      Function<String, T> freeForm, String expected, String defaultName) {

    static <T> Setting<T> choice(String property, T defaultValue, Map<String, T> values) {
      return new Setting<>(property, defaultValue, values, text -> null, null, null);
    }

    static Setting<String> text(String property) {
      return new Setting<>(property, null, Map.of(), text -> text, null, null);
    }

    /** The environment variable that sets this setting. */
    String environmentVariable() {
      return property.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /**
     * Reads a value.
     *
     * @param text the value as written
     * @param from where it was written, for the message: {@code the environment variable CTK_X}
     * @throws ExtensionConfigurationException for a value not allowed
     */
    T parse(String text, String from) {
      T value = values.isEmpty() ? freeForm.apply(text.trim()) : values.get(normalize(text));
      if (value == null) {
        throw new ExtensionConfigurationException("Invalid value \"" + text + "\" from " + from
            + ". Expected " + expectedText() + ". Fix the value, or remove it to get the default ("
            + defaultText() + ").");
      }
      return value;
    }

    private String expectedText() {
      return expected != null ? expected : "one of: " + String.join(", ", values.keySet());
    }

    private String defaultText() {
      if (defaultName != null) {
        return defaultName;
      }
      return values.entrySet().stream()
          .filter(e -> e.getValue().equals(defaultValue)).map(Map.Entry::getKey).findFirst()
          .orElse(String.valueOf(defaultValue));
    }

    static String normalize(String text) {
      return text.trim().toLowerCase(Locale.ROOT).replace('-', '_');
    }
  }

  /**
   * Resolves the settings of {@code mode}.
   *
   * @return the settings, or {@code null} for fake mode
   */
  ServerConfig serverConfig(Mode mode) {
    if (!mode.isReal()) {
      return null;
    }
    return new ServerConfig(mode,
        resolveParameterOnly(ENVTEST_ASSETS).value(),
        resolve(ENVTEST_VERSION, null, null).value(),
        resolve(CONTAINER_LOCAL_IMAGE, null, null).value(),
        resolve(CONTAINER_APISERVER_IMAGE, null, null).value(),
        resolve(CONTAINER_ETCD_IMAGE, null, null).value(),
        resolve(CONTAINER_K3S_IMAGE, null, null).value(),
        resolve(KUBECONFIG, null, null).value(),
        resolve(KUBE_CONTEXT, null, null).value(),
        resolve(UNINSTALL_CRDS, null, null).value(),
        resolve(REQUIRE_ENVTEST, null, null).value());
  }
}
