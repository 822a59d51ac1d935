package dev.ctk.harness.internal.timeline;

import dev.ctk.controller.internal.ThrowableText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The HTML form of a failure timeline: one self-contained page (inline CSS, no script, no external
 * resource) with a heading, the test's failure, the notes, a legend of the sources with their
 * colours and counts, and every entry in one table, each row coloured by the kind of its source.
 * The test's failure is given whole, and so is the error of a failed reconcile, in its row under the
 * one-line summary (message, cause chain, stack traces: {@link ThrowableText#full}); an error whose
 * whole text the failure or an earlier row gave links there instead of repeating it. Every string
 * from the test, the cluster or a controller is escaped.
 */
public final class TimelineHtml {

  private TimelineHtml() {}

  /**
   * Writes the page, creating its folder.
   *
   * @param file where to write it
   * @param title the test and its mode, e.g. {@code WebTest > fails(KubernetesClient), fake mode}
   * @param context lines that say where the test ran
   * @param failure what the test threw, or {@code null}
   * @param since time 0
   * @param entries every entry, oldest first
   * @param notes lines about what the timeline could not show
   * @throws IOException if the file cannot be written
   */
  public static void write(Path file, String title, List<String> context, Throwable failure,
      Instant since, List<TimelineEntry> entries, List<String> notes) throws IOException {
    Path folder = file.getParent();
    if (folder != null) {
      Files.createDirectories(folder);
    }
    Files.writeString(file, page(title, context, failure, since, entries, notes),
        StandardCharsets.UTF_8);
  }

  /** The page's text. */
  public static String page(String title, List<String> context, Throwable failure, Instant since,
      List<TimelineEntry> entries, List<String> notes) {
    boolean virtual = entries.stream().anyMatch(e -> e.virtualTime() != null);
    StringBuilder html = new StringBuilder(4096 + entries.size() * 160);
    html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>ctk "
        + "timeline: ").append(escape(title)).append("</title>\n<style>\n")
        .append("body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}\n")
        .append("h1{font-size:1.3em}\n")
        .append("table{border-collapse:collapse;font-family:monospace;font-size:0.9em}\n")
        .append("th,td{padding:2px 8px;text-align:left;vertical-align:top;"
            + "border-bottom:1px solid #ddd}\n")
        .append("td.ms{text-align:right}\n")
        .append("pre{background:#f6f6f6;padding:0.6em;white-space:pre-wrap}\n")
        .append("pre.error{margin:4px 0 2px 0;padding:0.4em;background:#fff;tab-size:4}\n")
        .append(".legend span{display:inline-block;padding:2px 8px;margin:0 6px 6px 0}\n");
    for (TimelineEntry.Kind kind : TimelineEntry.Kind.values()) {
      html.append('.').append(kind.cssClass()).append("{background:").append(kind.colour())
          .append("}\n");
    }
    html.append("</style>\n</head>\n<body>\n<h1>ctk failure timeline: ").append(escape(title))
        .append("</h1>\n<pre>");
    for (String line : context) {
      html.append(escape(line)).append('\n');
    }
    Map<Throwable, ErrorRow> givenErrors = new IdentityHashMap<>();
    Map<String, ErrorRow> givenTexts = new HashMap<>();
    if (failure != null) {
      html.append("<span id=\"failure\">failure: ").append(escape(ThrowableText.full(failure)))
          .append("</span>\n");
      ErrorRow inFailure = new ErrorRow("failure", "in <a href=\"#failure\">the test&#39;s failure</a>");
      for (Throwable carried : ThrowableText.all(failure)) {
        givenErrors.put(carried, inFailure);
        givenTexts.put(ThrowableText.full(carried), inFailure);
      }
    }
    html.append("</pre>\n");
    if (!notes.isEmpty()) {
      html.append("<ul class=\"notes\">\n");
      for (String note : notes) {
        html.append("<li>").append(escape(note)).append("</li>\n");
      }
      html.append("</ul>\n");
    }
    html.append("<p class=\"legend\">");
    Map<TimelineEntry.Kind, Integer> counts = new EnumMap<>(TimelineEntry.Kind.class);
    entries.forEach(e -> counts.merge(e.kind(), 1, Integer::sum));
    for (TimelineEntry.Kind kind : TimelineEntry.Kind.values()) {
      html.append("<span class=\"").append(kind.cssClass()).append("\">").append(kind.label())
          .append(": ").append(counts.getOrDefault(kind, 0)).append("</span>");
    }
    html.append("</p>\n<p>").append(entries.size()).append(entries.size() == 1 ? " entry" : " entries")
        .append(", times in ms after the test started (").append(escape(since.toString()))
        .append(")</p>\n<table>\n<thead><tr><th>ms</th>");
    if (virtual) {
      html.append("<th>virtual</th>");
    }
    html.append("<th>source</th><th>what</th></tr></thead>\n<tbody>\n");
    int errorRows = 0;
    for (TimelineEntry entry : entries) {
      html.append("<tr class=\"").append(entry.kind().cssClass()).append("\"><td class=\"ms\">")
          .append(TimelineText.millis(since, entry)).append("</td>");
      if (virtual) {
        html.append("<td>").append(escape(TimelineText.virtual(entry))).append("</td>");
      }
      html.append("<td>").append(escape(entry.source())).append("</td><td>")
          .append(escape(entry.text()));
      if (entry.error() != null) {
        ErrorRow given = givenErrors.get(entry.error());
        String whole = given != null ? null : ThrowableText.full(entry.error());
        given = given != null ? given : givenTexts.get(whole);
        if (given != null) {
          html.append("<div class=\"same-error\">the same error, given whole ").append(given.where())
              .append(" above</div>");
        } else {
          String id = "error-" + ++errorRows;
          ErrorRow row = new ErrorRow(id, "at <a href=\"#" + id + "\">"
              + TimelineText.millis(since, entry) + " ms</a>");
          givenErrors.put(entry.error(), row);
          givenTexts.put(whole, row);
          html.append("<pre class=\"error\" id=\"").append(row.id()).append("\">")
              .append(escape(whole)).append("</pre>");
        }
      }
      html.append("</td></tr>\n");
    }
    return html.append("</tbody>\n</table>\n</body>\n</html>\n").toString();
  }

  /** Where an error was given whole: its anchor, and the words (HTML) that link to it. */
  private record ErrorRow(String id, String where) {}

  /** Escapes text for HTML element content and attribute values. */
  public static String escape(String text) {
    if (text == null) {
      return "";
    }
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
