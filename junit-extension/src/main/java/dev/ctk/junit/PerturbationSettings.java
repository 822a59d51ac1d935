package dev.ctk.junit;

import dev.ctk.harness.PerturbationConfig;
import dev.ctk.harness.internal.Resolved;
import dev.ctk.harness.internal.SettingNames;
import dev.ctk.harness.internal.perturb.FieldPath;
import dev.ctk.harness.internal.perturb.PerturbationPoint;
import dev.ctk.harness.values.Perturbation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The perturbation settings of one test, resolved in one place: the nearest {@link Perturbed @Perturbed} (the test
 * method, then its class, then the enclosing classes) or else {@code ControllerTestExtension.builder()
 * .withPerturbations(..)} supplies kinds, ignored fields and (when set) maxRuns and seed; then configuration
 * parameter, environment variable, default, as {@link ControllerTestConfig} resolves every ctk setting.
 *
 * @param origin who asked for perturbations, for messages: {@code @Perturbed on method m of com.x.FooTest}
 * @param enabled {@value Perturbed#ENABLED_PROPERTY_NAME}
 * @param replay the one point to run ({@value Perturbed#REPLAY_PROPERTY_NAME}); value {@code null}: the plan
 * @param maxRuns the bound
 * @param seed the seed of the sample
 * @param kinds the kinds to plan
 * @param ignoredFields the fields the end-state comparison ignores
 */
record PerturbationSettings(String origin, Resolved<Boolean> enabled, Resolved<PerturbationPoint> replay,
    Resolved<Integer> maxRuns, Resolved<Long> seed, Set<Perturbation> kinds, List<FieldPath> ignoredFields) {

  /** The bound when nothing sets one. */
  static final int DEFAULT_MAX_RUNS = SettingNames.DEFAULT_MAX_RUNS;

  PerturbationSettings {
    kinds = Collections.unmodifiableSet(EnumSet.copyOf(kinds));
    ignoredFields = List.copyOf(ignoredFields);
  }

  /**
   * The settings of a test method, or empty when nothing asks for perturbations.
   *
   * @param context the test method's context
   * @param explicit the builder's settings, {@code null} for {@code @ControllerTest}
   * @throws ExtensionConfigurationException for a bad value, naming it and where it came from
   */
  static Optional<PerturbationSettings> of(ExtensionContext context, BuilderSettings explicit) {
    return of(context, explicit, ControllerTestConfig.of(context));
  }

  static Optional<PerturbationSettings> of(ExtensionContext context, BuilderSettings explicit,
      ControllerTestConfig config) {
    Method method = context.getRequiredTestMethod();
    Optional<Perturbed> onMethod = AnnotationSupport.findAnnotation(method, Perturbed.class);
    if (onMethod.isPresent()) {
      return Optional.of(fromAnnotation(context, onMethod.get(), "@Perturbed on method " + method.getName()
          + " of " + context.getRequiredTestClass().getName(), config));
    }
    List<Class<?>> chain = ScopeResolution.classChain(context);
    for (int i = chain.size() - 1; i >= 0; i--) {
      Optional<Perturbed> onClass = AnnotationSupport.findAnnotation(chain.get(i), Perturbed.class);
      if (onClass.isPresent()) {
        return Optional.of(fromAnnotation(context, onClass.get(), "@Perturbed on " + chain.get(i).getName(),
            config));
      }
    }
    if (explicit != null && explicit.perturbations() != null) {
      PerturbationConfig given = explicit.perturbations();
      String origin = "ControllerTestExtension.builder().withPerturbations(..) for "
          + context.getRequiredTestClass().getName();
      List<FieldPath> fields = new ArrayList<>();
      for (String path : given.ignoredFields()) {
        fields.add(FieldPath.parse(path, origin, ExtensionConfigurationException::new));
      }
      return Optional.of(resolve(context.getUniqueId(), origin, config, given.kinds(),
          given.maxRuns().isPresent() ? given.maxRuns().getAsInt() : null,
          given.seed().isPresent() ? given.seed().getAsLong() : null, fields));
    }
    return Optional.empty();
  }

  private static PerturbationSettings fromAnnotation(ExtensionContext context, Perturbed annotation, String origin,
      ControllerTestConfig config) {
    if (annotation.kinds().length == 0) {
      throw new ExtensionConfigurationException("Invalid @Perturbed(kinds = {}) (" + origin + "): no kind of "
          + "perturbation to plan. Expected one or more of " + Arrays.toString(Perturbation.values())
          + ". Fix: list the kinds, or leave kinds out for all of them.");
    }
    if (annotation.maxRuns() < 1 && annotation.maxRuns() != -1) {
      throw new ExtensionConfigurationException("Invalid @Perturbed(maxRuns = " + annotation.maxRuns() + ") ("
          + origin + "): expected 1 or more perturbed runs per test, or -1 for the configuration parameter "
          + Perturbed.MAX_RUNS_PROPERTY_NAME + " (default " + DEFAULT_MAX_RUNS + "). Fix: pass a positive bound, "
          + "or leave maxRuns out.");
    }
    List<FieldPath> fields = new ArrayList<>();
    for (String path : annotation.ignoreFields()) {
      fields.add(FieldPath.parse(path, origin, ExtensionConfigurationException::new));
    }
    EnumSet<Perturbation> kinds = EnumSet.noneOf(Perturbation.class);
    kinds.addAll(Arrays.asList(annotation.kinds()));
    return resolve(context.getUniqueId(), origin, config, kinds, annotation.maxRuns() == -1 ? null : annotation.maxRuns(),
        annotation.seed() == -1 ? null : annotation.seed(), fields);
  }

  /**
   * Resolves the settings of one test.
   *
   * @param uniqueId the test's unique id (the default seed is derived from it)
   * @param origin who asked for perturbations, also the source of {@code maxRuns} and {@code seed}
   * @param config configuration parameters and environment
   * @param kinds the kinds
   * @param maxRuns the bound set by annotation or builder, or {@code null}
   * @param seed the seed set by annotation or builder, or {@code null}
   * @param fields the ignored fields
   * @throws ExtensionConfigurationException for a bad configuration value, naming it and its source
   */
  static PerturbationSettings resolve(String uniqueId, String origin, ControllerTestConfig config,
      Set<Perturbation> kinds, Integer maxRuns, Long seed, List<FieldPath> fields) {
    Resolved<Boolean> enabled = config.resolve(ControllerTestConfig.PERTURB, null, null);
    Resolved<PerturbationPoint> replay = config.resolve(ControllerTestConfig.PERTURB_REPLAY, null, null);
    Resolved<Integer> runs = config.resolve(ControllerTestConfig.PERTURB_MAX_RUNS, maxRuns, origin);
    Resolved<Long> resolvedSeed = config.resolve(ControllerTestConfig.PERTURB_SEED, seed, origin);
    if (resolvedSeed.value() == null) {
      resolvedSeed = new Resolved<>(defaultSeed(uniqueId), "derived from the test's unique id");
    }
    return new PerturbationSettings(origin, enabled, replay, runs, resolvedSeed, kinds, fields);
  }

  /** A seed that is the same for the same test in every run: a hash of its unique id, 0 or more. */
  static long defaultSeed(String uniqueId) {
    long hash = 1125899906842597L;
    for (int i = 0; i < uniqueId.length(); i++) {
      hash = 31 * hash + uniqueId.charAt(i);
    }
    return hash & Long.MAX_VALUE;
  }
}
