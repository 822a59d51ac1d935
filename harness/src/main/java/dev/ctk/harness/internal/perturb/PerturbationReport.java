package dev.ctk.harness.internal.perturb;

import dev.ctk.controller.internal.DurationText;
import dev.ctk.harness.internal.SettingNames;
import dev.ctk.harness.internal.perturb.PerturbationOracle.Finding;
import dev.ctk.harness.internal.perturb.PerturbationRuns.TimelineLine;
import dev.ctk.harness.internal.timeline.TimelineReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The text of a perturbation campaign: a header with the figures, one line per run, then for each failing run what
 * was done, the one line that replays it (or, when its point had no effect, that the difference is the test's own
 * nondeterminism: there is nothing to replay), its findings (a failure of the test whole: message, cause chain and
 * stack trace), the minimal timeline (the injections and the run's writes and held, released and dropped watch
 * events from the perturbation on, restricted to the objects the findings name when they name any) and the end-state
 * differences. Published as the report entry {@code ctk.perturbations}, written to {@code
 * <report dir>/<test class>/<display name>-perturbations.txt}, and, when a run failed, the test's failure message.
 */
public final class PerturbationReport {

  /** How many timeline lines a failing run shows. */
  public static final int SHOWN_TIMELINE = 30;

  private PerturbationReport() {}

  /** How a run ended. */
  public enum Status {
    /** The oracle found nothing. */
    PASS,
    /** The oracle found something. */
    FAIL,
    /** The point had no effect in the run (never reached, or nothing to perturb there), and it found nothing. */
    SKIP
  }

  /**
   * One run, judged.
   *
   * @param point the point
   * @param millis how long it took
   * @param status how it ended
   * @param findings what the oracle found
   * @param timeline the run's timeline (all of it; the report picks)
   * @param notFiredReason why the point had no effect, {@code null} when it had (or the run recorded nothing)
   */
  public record RunResult(PerturbationPoint point, long millis, Status status, List<Finding> findings,
      List<TimelineLine> timeline, String notFiredReason) {

    public RunResult {
      findings = List.copyOf(findings);
      timeline = List.copyOf(timeline);
    }
  }

  /**
   * The report.
   *
   * @param test {@code SimpleClassName#method}
   * @param plan the plan
   * @param runs the runs, in plan order
   * @param totalMillis how long the perturbed runs took together
   * @param referenceMillis how long the reference run took
   * @return the text, lines separated by {@code \n}
   */
  public static String render(String test, PerturbationPlan plan, List<RunResult> runs, long totalMillis,
      long referenceMillis) {
    long failed = runs.stream().filter(r -> r.status() == Status.FAIL).count();
    long skipped = runs.stream().filter(r -> r.status() == Status.SKIP).count();
    StringBuilder out = new StringBuilder("ctk perturbation: ").append(test).append(": ");
    if (plan.chosen().isEmpty()) {
      out.append("nothing to perturb: the reference run made no controller writes that can be crashed at (no "
          + "controller started from a factory) and no watch events of the kinds its controllers watch (seed ")
          .append(plan.seed()).append("; reference ").append(duration(referenceMillis)).append(')');
      return out.toString();
    }
    out.append(failed).append(" of ").append(runs.size()).append(runs.size() == 1 ? " run" : " runs")
        .append(" failed");
    if (skipped > 0) {
      out.append(", ").append(skipped).append(" had no effect");
    }
    out.append(" (");
    if (plan.replay()) {
      out.append("replay of ").append(plan.chosen().get(0).id());
    } else {
      out.append("seed ").append(plan.seed()).append(", ").append(plan.chosen().size()).append(" of ")
          .append(plan.planned().size()).append(" planned points run");
      if (plan.sampled()) {
        out.append(": a seeded sample, ").append(plan.planned().size() - plan.chosen().size()).append(" skipped");
      }
    }
    out.append(", ").append(duration(totalMillis)).append("; reference ").append(duration(referenceMillis))
        .append(')');
    int width = runs.stream().mapToInt(r -> r.point().id().length()).max().orElse(0);
    for (RunResult run : runs) {
      out.append("\n  ").append(run.status()).append(' ').append(pad(run.point().id(), width))
          .append(String.format(Locale.ROOT, " %6d ms", run.millis()));
      if (run.status() == Status.FAIL) {
        out.append("  ");
        if (run.notFiredReason() != null) {
          out.append(nondeterminism(run)).append(": ");
        }
        out.append(run.findings().get(0).summary());
        if (run.findings().size() > 1) {
          out.append(" (+").append(run.findings().size() - 1).append(" more)");
        }
      } else if (run.status() == Status.SKIP) {
        out.append("  no effect: ").append(run.notFiredReason());
      }
    }
    for (RunResult run : runs) {
      if (run.status() == Status.FAIL) {
        details(out, test, run);
      }
    }
    return out.toString();
  }

  private static void details(StringBuilder out, String test, RunResult run) {
    String id = run.point().id();
    out.append('\n').append(id).append(": ").append(run.point().describe());
    if (run.notFiredReason() != null) {
      // nothing to replay: the perturbation never happened
      out.append("\n  ").append(nondeterminism(run));
    } else {
      out.append("\n  replay: -D").append(SettingNames.PERTURB_REPLAY).append('=').append(id)
          .append(" (with -Dtest='").append(test).append("')");
    }
    for (Finding finding : run.findings()) {
      if (!finding.endState()) {
        out.append("\n  ").append(finding.summary());
        finding.details().forEach(line -> out.append("\n    ").append(line));
      }
    }
    List<String> timeline = minimalTimeline(run);
    if (!timeline.isEmpty()) {
      boolean injected = run.timeline().stream().anyMatch(line -> line.object() == null);
      out.append(injected ? "\n  timeline (from the perturbation on):" : "\n  timeline:");
      timeline.forEach(line -> out.append("\n    ").append(line));
    }
    for (Finding finding : run.findings()) {
      if (finding.endState()) {
        out.append("\n  end state vs reference:");
        finding.details().forEach(line -> out.append("\n    ").append(line));
      }
    }
  }

  /** {@code the point had no effect (<reason>): this difference is the test's own nondeterminism}. */
  private static String nondeterminism(RunResult run) {
    return "the point had no effect (" + run.notFiredReason() + "): this difference is the test's own "
        + "nondeterminism";
  }

  /**
   * The injections and the run's lines from the first injection on (all of them when nothing was injected), only
   * those about objects the findings name when they name any, at most {@value #SHOWN_TIMELINE}; the controller write
   * a crash point names is shown even when it came just before the crash.
   */
  public static List<String> minimalTimeline(RunResult run) {
    List<TimelineLine> lines = new ArrayList<>(run.timeline());
    lines.sort(Comparator.comparing(TimelineLine::time));
    String from = lines.stream().filter(l -> l.object() == null).map(TimelineLine::time).findFirst().orElse("");
    Set<String> objects = new HashSet<>();
    run.findings().forEach(f -> objects.addAll(f.objects()));
    List<String> shown = new ArrayList<>();
    int hidden = 0;
    String pointWrite = run.point().write() > 0 ? "write #" + run.point().write() + " " : null;
    for (TimelineLine line : lines) {
      boolean isPointWrite = pointWrite != null && line.text().startsWith(pointWrite);
      if (!isPointWrite && (line.time().compareTo(from) < 0
          || (line.object() != null && !objects.isEmpty() && !about(objects, line.object())))) {
        continue;
      }
      if (shown.size() < SHOWN_TIMELINE) {
        shown.add(line.time() + " " + line.text());
      } else {
        hidden++;
      }
    }
    if (hidden > 0) {
      shown.add("... and " + hidden + " more");
    }
    return shown;
  }

  /**
   * Whether a line's object is one of the findings' objects; a create, whose name the journal does not know
   * ({@code ConfigMap default/}), is about every object of its kind in its namespace.
   */
  private static boolean about(Set<String> objects, String object) {
    return object.endsWith("/") ? objects.stream().anyMatch(o -> o.startsWith(object)) : objects.contains(object);
  }

  /**
   * Writes the report to {@code file}, creating its folder.
   *
   * @param file the report file, see {@link #file}
   * @param text the report
   * @throws IOException if it cannot be written
   */
  public static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text + "\n", StandardCharsets.UTF_8);
  }

  /**
   * The report file of a test: {@code <report dir>/<test class>/<display name>-perturbations.txt} (file-name safe;
   * only fake mode runs campaigns, so the mode is not part of the name).
   *
   * @param dir the report folder, or {@code null} for the default
   * @param testClass the test class's name
   * @param displayName the test's display name
   * @return the file
   */
  public static Path file(String dir, String testClass, String displayName) {
    return TimelineReport.reportFile(dir, testClass, displayName, "-perturbations.txt");
  }

  /** A measured time ({@link DurationText#measured}): {@code 412ms}, {@code 6.2s}. */
  public static String duration(long millis) {
    return DurationText.measured(Duration.ofMillis(millis));
  }


  private static String pad(String text, int width) {
    return text.length() >= width ? text : text + " ".repeat(width - text.length());
  }
}
