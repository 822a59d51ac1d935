package dev.ctk.harness.internal.timeline;

import dev.ctk.assertions.internal.StateFormat;
import dev.ctk.controller.ControllerView;
import dev.ctk.controller.internal.ThrowableText;
import dev.ctk.harness.values.FailureContext;
import dev.ctk.harness.values.TestCluster;
import java.util.List;

/**
 * What the extension reports when a test fails: where it ran (mode, server, namespace) as the report
 * entry {@code ctk.cluster}, and the state of every controller the harness shows ({@link
 * dev.ctk.harness.ControllerHarness#views()}: started or observed, ctk's or another framework's, in its
 * framework's words: {@link StateFormat#report}, with the whole last error of each failing key and
 * each key in flight far longer than its reconciles usually take) as {@code ctk.controller.<name>};
 * both also printed to standard error, prefixed {@code [ctk]}. A view that throws while it is read is
 * reported as unreadable, with what it threw, whole;
 * the other views are still reported and the test's own failure is left as it is. Then the failure
 * timeline ({@link TimelineReport}): the report entry {@code ctk.timeline}, standard error, and an
 * HTML page under {@code target/ctk-reports}.
 */
public final class FailureReport {

  private FailureReport() {}

  /**
   * Reports a failed test's scope; never throws for a view that cannot be read.
   *
   * @param context the failed test
   * @param cluster the cluster it ran against
   * @param views the controllers it started or observed ({@code ControllerHarness.views()})
   * @param timeline what the scope recorded
   */
  public static void publish(FailureContext context, TestCluster cluster, List<ControllerView> views, TimelineRecorder timeline) {
    String where = cluster.mode().configName() + " mode, " + cluster.description()
        + ", namespace " + cluster.namespace();
    context.publish("ctk.cluster", where);
    if (views.isEmpty()) {
      System.err.println("[ctk] " + context.displayName() + " failed (" + where + ")");
    }
    for (ControllerView view : views) {
      String name = nameOf(view);
      String report = reportOf(view, name, context.failure().orElse(null))
          .stripTrailing();
      context.publish("ctk.controller." + name, report);
      System.err.println("[ctk] " + context.displayName() + " failed (" + where + "); "
          + report);
    }
    TimelineReport.publish(context, cluster, views, timeline);
  }

  /** The view's report, or a line saying it is unreadable followed by what it threw, whole. */
  private static String reportOf(ControllerView view, String name, Throwable testFailure) {
    try {
      return StateFormat.report(view, testFailure);
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      return wordFor(view) + " \"" + name + "\": unreadable, reading its state threw:\n"
          + ThrowableText.indent(ThrowableText.full(e), "    ");
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
