package dev.ctk.junit;

import dev.ctk.assertions.internal.StateFormat;
import dev.ctk.controller.Controller;
import java.util.List;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What the extension reports when a test fails: where it ran (mode, server, namespace) as the report
 * entry {@code ctk.cluster}, and the state of every harnessed controller as {@code
 * ctk.controller.<name>}; both also printed to standard error, prefixed {@code [ctk]}.
 */
final class FailureReport {

  private FailureReport() {}

  static void publish(ExtensionContext context, TestScope scope) {
    TestCluster cluster = scope.cluster();
    String where = cluster.mode().configName() + " mode, " + cluster.description()
        + ", namespace " + cluster.namespace();
    context.publishReportEntry("ctk.cluster", where);
    List<Controller> controllers = scope.harness().controllers();
    if (controllers.isEmpty()) {
      System.err.println("[ctk] " + context.getDisplayName() + " failed (" + where + ")");
    }
    for (Controller controller : controllers) {
      String report;
      try {
        report = StateFormat.report(controller);
      } catch (RuntimeException e) {
        report = "controller \"" + controller.name() + "\": its state could not be read: " + e;
      }
      report = report.stripTrailing();
      context.publishReportEntry("ctk.controller." + controller.name(), report);
      System.err.println("[ctk] " + context.getDisplayName() + " failed (" + where + "); "
          + report);
    }
  }
}
