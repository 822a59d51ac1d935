package dev.ctk.harness.internal.timeline;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * The text form of a failure timeline: a heading, notes, and the last {@link #SHOWN} entries in
 * aligned columns ({@code ms} after the test's start, the virtual clock when a controller runs on
 * one, the source, what happened).
 *
 * <pre>
 * ctk timeline of fails(KubernetesClient), fake mode: 4 entries since the test started, times in ms
 * HTML report: /work/app/target/ctk-reports/com.example.WebTest/fails_KubernetesClient.html
 *   ms  source          what
 *    2  injected        #7 add configmaps default/web [injected]
 *   14  queue web       add default/web
 *   15  queue web       hand out default/web
 *   15  reconcile web   start default/web on web-worker-1
 * </pre>
 */
public final class TimelineText {

  /** How many entries the text shows at most: the last ones. */
  public static final int SHOWN = 200;

  private TimelineText() {}

  /**
   * Renders the timeline.
   *
   * @param heading what the first line names: the test and the mode
   * @param since time 0 of the timeline
   * @param entries every entry, oldest first
   * @param notes lines about what the timeline could not show
   * @param htmlLine the line naming the HTML report (or why it was not written)
   * @return the text, lines separated by {@code \n}, no trailing newline
   */
  public static String render(String heading, Instant since, List<TimelineEntry> entries,
      List<String> notes, String htmlLine) {
    StringBuilder out = new StringBuilder("ctk timeline of ").append(heading).append(": ")
        .append(entries.size()).append(entries.size() == 1 ? " entry" : " entries")
        .append(" since the test started, times in ms\n").append(htmlLine);
    for (String note : notes) {
      out.append('\n').append(note);
    }
    List<TimelineEntry> shown = entries.size() <= SHOWN ? entries
        : entries.subList(entries.size() - SHOWN, entries.size());
    if (shown.size() < entries.size()) {
      out.append("\nthe first ").append(entries.size() - shown.size()).append(" entries are left "
          + "out here (the last ").append(SHOWN).append(" are shown); the HTML report lists all");
    }
    if (entries.isEmpty()) {
      return out.append("\n(no entries)").toString();
    }
    boolean virtual = shown.stream().anyMatch(e -> e.virtualTime() != null);
    int msWidth = "ms".length();
    int virtualWidth = "virtual".length();
    int sourceWidth = "source".length();
    for (TimelineEntry entry : shown) {
      msWidth = Math.max(msWidth, millis(since, entry).length());
      virtualWidth = Math.max(virtualWidth, virtual(entry).length());
      sourceWidth = Math.max(sourceWidth, entry.source().length());
    }
    out.append('\n').append(row(msWidth, "ms", virtual, virtualWidth, "virtual", sourceWidth,
        "source", "what"));
    for (TimelineEntry entry : shown) {
      out.append('\n').append(row(msWidth, millis(since, entry), virtual, virtualWidth,
          virtual(entry), sourceWidth, entry.source(), entry.text()));
    }
    return out.toString();
  }

  /** Milliseconds from the test's start. */
  public static String millis(Instant since, TimelineEntry entry) {
    return Long.toString(Duration.between(since, entry.time()).toMillis());
  }

  /** The virtual clock of an entry, to the millisecond, or empty. */
  public static String virtual(TimelineEntry entry) {
    return entry.virtualTime() == null ? ""
        : entry.virtualTime().truncatedTo(ChronoUnit.MILLIS).toString();
  }

  private static String row(int msWidth, String ms, boolean virtual, int virtualWidth,
      String virtualText, int sourceWidth, String source, String what) {
    StringBuilder row = new StringBuilder(" ".repeat(2 + msWidth - ms.length())).append(ms)
        .append("  ");
    if (virtual) {
      row.append(virtualText).append(" ".repeat(virtualWidth - virtualText.length())).append("  ");
    }
    row.append(source).append(" ".repeat(sourceWidth - source.length())).append("  ")
        .append(what.replace("\r", "").replace('\n', ' '));
    return row.toString();
  }
}
