package dev.ctk.junit;

import dev.ctk.assertions.internal.StateFormat;
import dev.ctk.controller.ControllerView;
import java.util.List;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What the extension reports when a test fails: where it ran (mode, server, namespace) as the report
 * entry {@code ctk.cluster}, and the state of every controller the harness shows ({@link
 * ControllerHarness#views()}: started or observed, ctk's or another framework's, in its
 * framework's words) as {@code ctk.controller.<name>}; both also printed to standard error, prefixed
 * {@code [ctk]}. A view that throws while it is read is reported as unreadable, with what it threw;
 * the other views are still reported and the test's own failure is left as it is. Then the failure
 * timeline ({@link TimelineReport}): the report entry {@code ctk.timeline}, standard error, and an
 * HTML page under {@code target/ctk-reports}.
 */
final class FailureReport {

  private FailureReport() {}

  static void publish(ExtensionContext context, TestScope scope) {
    TestCluster cluster = scope.cluster();
    String where = cluster.mode().configName() + " mode, " + cluster.description()
        + ", namespace " + cluster.namespace();
    context.publishReportEntry("ctk.cluster", where);
    List<ControllerView> views = scope.harness().views();
    if (views.isEmpty()) {
      System.err.println("[ctk] " + context.getDisplayName() + " failed (" + where + ")");
    }
    for (ControllerView view : views) {
      String name = nameOf(view);
      String report = reportOf(view, name).stripTrailing();
      context.publishReportEntry("ctk.controller." + name, report);
      System.err.println("[ctk] " + context.getDisplayName() + " failed (" + where + "); "
          + report);
    }
    TimelineReport.publish(context, scope);
  }

  /** The view's report, or one line saying it is unreadable and what it threw. */
  private static String reportOf(ControllerView view, String name) {
    try {
      return StateFormat.report(view);
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      return wordFor(view) + " \"" + name + "\": unreadable, reading its state threw "
          + e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
  }

  private static String nameOf(ControllerView view) {
    try {
      String name = view.name();
      return name == null ? "(no name)" : name;
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      return "(unnamed " + view.getClass().getName() + ")";
    }
  }

  private static String wordFor(ControllerView view) {
    try {
      return view.vocabulary().controller();
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      return "controller";
    }
  }
}
