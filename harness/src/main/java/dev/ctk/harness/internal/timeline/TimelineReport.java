package dev.ctk.harness.internal.timeline;

import dev.ctk.controller.ControllerView;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.controller.Vocabulary;
import dev.ctk.harness.internal.SettingNames;
import dev.ctk.harness.values.FailureContext;
import dev.ctk.harness.values.TestCluster;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds and publishes the failure timeline of a failed test: every source read since the test's
 * scope began, merged in wall-clock order, published as the report entry {@code ctk.timeline} and on
 * standard error (the last {@value TimelineText#SHOWN} entries, a reconcile error by its first line),
 * and written in full as an HTML page (the test's failure and each reconcile error whole)
 * under {@code target/ctk-reports/<test class>/<test display name>[-<mode>].html} (the folder is the
 * configuration parameter {@value SettingNames#REPORT_DIR} or the environment variable {@code
 * CTK_REPORT_DIR}; relative paths resolve against the working directory).
 *
 * <p>Sources: in fake mode the cluster's request journal (API requests and injected events), the
 * fault firings and the watch deliveries; in every mode the work-queue changes and reconciles of the
 * controllers the harness started, and the reconcile logs of the other views it shows. A source that
 * throws while it is read becomes one note; anything else that goes wrong becomes one line instead
 * of the timeline. Nothing here ever changes the test's own failure.
 */
public final class TimelineReport {

  /** The note of a text timeline that shows reconcile errors by their summaries. */
  public static final String ERRORS_NOTE = "reconcile errors show only their first line here: the HTML "
      + "report gives each one whole (message, cause chain, stack trace), and the controller's report "
      + "the last error of each key that still fails";

  private TimelineReport() {}

  /**
   * Publishes the timeline of a failed test; never throws (but for a {@link VirtualMachineError}).
   *
   * @param context the failed test's context
   * @param cluster the cluster it ran against
   * @param views the controllers it started or observed ({@code ControllerHarness.views()})
   * @param recorder what the scope recorded
   */
  public static void publish(FailureContext context, TestCluster cluster, List<ControllerView> views, TimelineRecorder recorder) {
    String text;
    try {
      text = build(context, cluster, views, recorder);
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      text = "ctk timeline of " + context.displayName() + ": not available, building it threw "
          + describe(e) + " (the test's own failure is reported as it is)";
    }
    try {
      context.publish("ctk.timeline", text);
    } catch (RuntimeException e) {
      text += "\n(publishing it as a report entry threw " + describe(e) + ")";
    }
    System.err.println("[ctk] " + text);
  }

  /** Reads every source, writes the HTML page and returns the text. */
  private static String build(FailureContext context, TestCluster cluster, List<ControllerView> views, TimelineRecorder recorder) {
    Instant since = recorder.started();
    String mode = cluster.mode().configName() + " mode";
    List<String> notes = new ArrayList<>();
    List<TimelineEntry> entries = new ArrayList<>();
    if (cluster.fakeCluster().isPresent() && recorder.fakeMark() != null) {
      TimelineFakeSources.read(cluster.fakeCluster().get(), recorder.fakeMark(), since, entries,
          notes);
    } else {
      notes.add("API requests, injected events, fault firings and watch deliveries: not recorded "
          + "in " + mode + " (only ctk's fake API server keeps a request journal and a watch log)");
    }
    entries.addAll(recorder.controllerEntries(since, notes));
    for (ControllerView view : views) {
      if (!recorder.listensTo(view)) {
        readReconcileLog(view, since, entries, notes);
      }
    }
    entries.sort(TimelineEntry.IN_TIME_ORDER);

    String heading = context.displayName() + ", " + mode;
    Path file = context.reportFile();
    String htmlLine;
    try {
      List<String> where = new ArrayList<>();
      where.add("test: " + context.testClassName() + " > "
          + context.displayName());
      where.add("where: " + mode + ", " + cluster.description() + ", namespace "
          + cluster.namespace());
      where.add("started: " + since);
      TimelineHtml.write(file, heading, where, context.failure().orElse(null), since,
          entries, notes);
      htmlLine = "HTML report: " + file;
    } catch (Exception e) {
      htmlLine = "HTML report: not written, writing " + file + " threw " + describe(e);
    }
    if (entries.stream().anyMatch(e -> e.error() != null)) {
      notes.add(ERRORS_NOTE);
    }
    return TimelineText.render(heading, since, entries, notes, htmlLine);
  }

  /** The start and end of each reconcile in a view's log, by the record's own times. */
  private static void readReconcileLog(ControllerView view, Instant since,
      List<TimelineEntry> entries, List<String> notes) {
    String name = "(unnamed)";
    Vocabulary words = Vocabulary.CTK;
    try {
      name = view.name();
      words = view.vocabulary();
      String source = "reconcile " + name;
      for (ReconcileRecord record : view.reconcileLog()) {
        if (!record.start().isBefore(since)) {
          entries.add(new TimelineEntry(record.start(), TimelineEntry.Kind.RECONCILE, source,
              "start " + record.key(), null, 0));
        }
        if (!record.end().isBefore(since)) {
          entries.add(new TimelineEntry(record.end(), TimelineEntry.Kind.RECONCILE, source,
              TimelineLog.end(record, words), null, 0, record.error()));
        }
      }
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      notes.add("reconcile log of " + words.controller() + " \"" + name + "\": unreadable, "
          + "reading it threw " + describe(e));
    }
  }

  /**
   * {@code <dir>/<test class>/<display name><suffix>}, absolute.
   *
   * @param dir the report folder, or {@code null} for {@value SettingNames#DEFAULT_REPORT_DIR}
   * @param testClass the test class's name
   * @param displayName the test's display name
   * @param suffix e.g. {@code -envtest.html}
   * @return the file
   */
  public static Path reportFile(String dir, String testClass, String displayName, String suffix) {
    return FailureContext.reportFile(Path.of(dir == null ? SettingNames.DEFAULT_REPORT_DIR : dir), testClass,
        displayName, suffix);
  }

  /** {@code java.lang.IllegalStateException: message}, in one line. */
  public static String describe(Throwable e) {
    String text = e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    return text.replace("\r", "").replace('\n', ' ');
  }
}
