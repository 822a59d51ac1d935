package dev.ctk.junit;

import dev.ctk.harness.internal.ClusterSpec;
import dev.ctk.harness.internal.SettingNames;
import dev.ctk.harness.internal.perturb.PerturbationReport;
import dev.ctk.harness.internal.realserver.RealServers;
import dev.ctk.harness.internal.timeline.TimelineReport;
import dev.ctk.harness.values.FailureContext;
import dev.ctk.harness.values.HarnessConfigurationException;
import dev.ctk.harness.values.TestCluster;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Where JUnit meets the harness: an {@link ExtensionContext} as the harness's {@link FailureContext}, a real-server
 * run held by the root context's store, availability as a {@link ConditionEvaluationResult}, and the harness's
 * configuration errors as JUnit's.
 */
final class JUnitAdapter {

  /** The root store entry that holds this engine execution's real-server run until JUnit closes it. */
  private static final Namespace RUNS = Namespace.create(JUnitAdapter.class);

  /** {@value SettingNames#REPORT_DIR}, or {@code CTK_REPORT_DIR}. */
  static final ControllerTestConfig.Setting<String> REPORT_DIR =
      ControllerTestConfig.Setting.text(SettingNames.REPORT_DIR);

  private JUnitAdapter() {}

  /**
   * Starts the cluster of a scope; in a real mode the test run (engine execution) of {@code context} holds the real
   * server's admin client until it ends.
   *
   * @throws ExtensionConfigurationException for a seed the harness cannot use
   */
  static TestCluster start(ClusterSpec spec, String scopeName, ExtensionContext context) {
    try {
      return spec.start(scopeName, () -> context.getRoot().getStore(RUNS)
          .computeIfAbsent(RealServers.Run.class, type -> RealServers.openRun(), RealServers.Run.class));
    } catch (HarnessConfigurationException e) {
      throw new ExtensionConfigurationException(e.getMessage(), e);
    }
  }

  /** A real mode's availability as JUnit's condition result. */
  static ConditionEvaluationResult condition(RealServers.Availability availability) {
    return availability.enabled() ? ConditionEvaluationResult.enabled(availability.reason())
        : ConditionEvaluationResult.disabled(availability.reason());
  }

  /** The failed test of {@code context}, for the harness's failure report. */
  static FailureContext failureContext(ExtensionContext context) {
    return new FailureContext() {
      @Override
      public String displayName() {
        return context.getDisplayName();
      }

      @Override
      public String testClassName() {
        return context.getRequiredTestClass().getName();
      }

      @Override
      public Optional<Throwable> failure() {
        return context.getExecutionException();
      }

      @Override
      public Path reportFile() {
        String suffix = ModeInvocation.enclosing(context).map(m -> "-" + m.mode().configName()).orElse("")
            + ".html";
        return TimelineReport.reportFile(reportDir(context), testClassName(), displayName(), suffix);
      }

      @Override
      public void publish(String key, String value) {
        context.publishReportEntry(key, value);
      }
    };
  }

  /** The perturbation report file of the test of {@code context}. */
  static Path perturbationReportFile(ExtensionContext context) {
    return PerturbationReport.file(reportDir(context), context.getRequiredTestClass().getName(),
        context.getDisplayName());
  }

  private static String reportDir(ExtensionContext context) {
    return ControllerTestConfig.of(context).resolve(REPORT_DIR, null, null).value();
  }
}
