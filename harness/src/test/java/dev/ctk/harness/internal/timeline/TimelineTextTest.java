package dev.ctk.harness.internal.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.Vocabulary;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The text and HTML forms of a timeline, and the bound of a listener's log, without JUnit's engine. */
class TimelineTextTest {

  private static final Instant START = Instant.parse("2030-01-01T10:00:00Z");

  @Test
  void should_align_the_columns_and_show_the_virtual_clock_when_an_entry_has_one() {
    // GIVEN
    List<TimelineEntry> entries = List.of(
        entry(3, TimelineEntry.Kind.INJECTED, "injected", "#3 add configmaps default/web [injected]",
            null),
        entry(1250, TimelineEntry.Kind.QUEUE, "queue web", "add default/web after 1h",
            Instant.parse("2030-01-01T00:00:00.123456Z")));
    // WHEN
    String text = TimelineText.render("fails(), fake mode", START, entries,
        List.of("a note"), "HTML report: /r/fails.html");
    // THEN
    assertThat(text).isEqualTo("""
        ctk timeline of fails(), fake mode: 2 entries since the test started, times in ms
        HTML report: /r/fails.html
        a note
            ms  virtual                   source     what
             3                            injected   #3 add configmaps default/web [injected]
          1250  2030-01-01T00:00:00.123Z  queue web  add default/web after 1h""");
  }

  @Test
  void should_say_when_there_is_no_entry_and_keep_each_entry_on_one_line() {
    // WHEN
    String empty = TimelineText.render("fails(), envtest mode", START, List.of(),
        List.of(), "HTML report: /r/fails.html");
    String multiline = TimelineText.render("fails(), fake mode", START,
        List.of(entry(-2, TimelineEntry.Kind.RECONCILE, "reconcile x", "end a: ERROR\nline two",
            null)), List.of(), "HTML report: /r/fails.html");
    // THEN
    assertThat(empty).isEqualTo("""
        ctk timeline of fails(), envtest mode: 0 entries since the test started, times in ms
        HTML report: /r/fails.html
        (no entries)""");
    assertThat(multiline).endsWith("\n  -2  reconcile x  end a: ERROR line two");
  }

  @Test
  void should_escape_every_string_of_the_html_page() {
    // WHEN
    String page = TimelineHtml.page("a <b> & 'c'", List.of("where: x < y"),
        error(new AssertionError("expected <1>"), "a.B", "c", 1), START,
        List.of(entry(5, TimelineEntry.Kind.WATCH, "watch <1>", "\"quoted\" & <tag>", null)),
        List.of("note <i>"));
    // THEN
    assertThat(page).contains("<title>ctk timeline: a &lt;b&gt; &amp; &#39;c&#39;</title>")
        .contains("<pre>where: x &lt; y\n<span id=\"failure\">failure: java.lang.AssertionError: "
            + "expected &lt;1&gt;\n\tat a.B.c(B.java:1)</span>\n</pre>")
        .contains("<li>note &lt;i&gt;</li>")
        .contains("<tr class=\"k-watch\"><td class=\"ms\">5</td><td>watch &lt;1&gt;</td>"
            + "<td>&quot;quoted&quot; &amp; &lt;tag&gt;</td></tr>")
        .doesNotContain("<th>virtual</th>").doesNotContain("<tag>");
  }

  @Test
  void should_give_each_reconcile_error_whole_once_in_html_linking_to_where_it_was_given() {
    // GIVEN the test's failure carries the error of one reconcile; two other reconciles failed with
    // errors that print the same, one with a cause chain and a multi-line message
    IllegalStateException carried = error(new IllegalStateException("backend down"), "a.Web", "r", 7);
    AssertionError failure = error(new AssertionError("\nExpecting <web>\n  to have reconciled",
        carried), "a.Test", "t", 3);
    IllegalStateException first = error(new IllegalStateException("render failed:\n  <html> & "
        + "\"index\"", error(new java.io.IOException("disk full"), "a.Disk", "w", 9)), "a.Web", "r", 8);
    IllegalStateException again = error(new IllegalStateException("render failed:\n  <html> & "
        + "\"index\"", error(new java.io.IOException("disk full"), "a.Disk", "w", 9)), "a.Web", "r", 8);
    List<TimelineEntry> entries = List.of(
        failed(10, "end default/web: ERROR IllegalStateException: backend down", carried),
        failed(20, "end default/api: ERROR IllegalStateException: render failed: ...", first),
        failed(30, "end default/api: ERROR IllegalStateException: render failed: ... (attempt 1)",
            again));
    // WHEN
    String page = TimelineHtml.page("t", List.of(), failure, START, entries, List.of());
    // THEN
    assertThat(page).contains("<pre><span id=\"failure\">failure: java.lang.AssertionError: \n"
        + "Expecting &lt;web&gt;\n  to have reconciled\n\tat a.Test.t(Test.java:3)\n"
        + "Caused by: java.lang.IllegalStateException: backend down\n\tat a.Web.r(Web.java:7)</span>\n"
        + "</pre>");
    assertThat(page).contains("<tr class=\"k-reconcile\"><td class=\"ms\">10</td><td>reconcile web"
        + "</td><td>end default/web: ERROR IllegalStateException: backend down<div class=\"same-error\">"
        + "the same error, given whole in <a href=\"#failure\">the test&#39;s failure</a> above</div>"
        + "</td></tr>\n");
    assertThat(page).contains("<tr class=\"k-reconcile\"><td class=\"ms\">20</td><td>reconcile web"
        + "</td><td>end default/api: ERROR IllegalStateException: render failed: ...<pre class=\"error\" "
        + "id=\"error-1\">java.lang.IllegalStateException: render failed:\n  &lt;html&gt; &amp; "
        + "&quot;index&quot;\n\tat a.Web.r(Web.java:8)\nCaused by: java.io.IOException: disk full\n"
        + "\tat a.Disk.w(Disk.java:9)</pre></td></tr>\n");
    assertThat(page).contains("<tr class=\"k-reconcile\"><td class=\"ms\">30</td><td>reconcile web"
        + "</td><td>end default/api: ERROR IllegalStateException: render failed: ... (attempt 1)"
        + "<div class=\"same-error\">the same error, given whole at <a href=\"#error-1\">20 ms</a> "
        + "above</div></td></tr>\n");
    assertThat(page.split("disk full", -1)).hasSize(2);
    assertThat(page.split("backend down", -1)).hasSize(3);   // the failure's cause and row 10's summary
  }

  @Test
  void should_keep_the_last_steps_of_a_source_and_count_the_dropped_ones() {
    // GIVEN a log that keeps 3 steps
    TimelineLog log = new TimelineLog(TimelineEntry.Kind.QUEUE, "queue web", 3);
    for (int i = 0; i < 5; i++) {
      log.record(TimelineLog.Step.ADD, ObjectKey.of("default", "k" + i), null, null);
    }
    log.record(TimelineLog.Step.DELAY, ObjectKey.of("default", "k5"), Duration.ofMinutes(90),
        null);
    // WHEN
    List<String> texts = new ArrayList<>();
    log.entries(Instant.EPOCH, Vocabulary.CTK).forEach(e -> texts.add(e.text()));
    // THEN
    assertThat(texts).containsExactly("add default/k3", "add default/k4",
        "add default/k5 after 1h30m");
    assertThat(log.dropped()).isEqualTo(3);
    assertThat(log.entries(Instant.now().plusSeconds(60), Vocabulary.CTK)).isEmpty();
  }

  @Test
  void should_turn_display_names_into_file_names() {
    assertThat(fileName("fails(KubernetesClient, ControllerHarness)"))
        .isEqualTo("fails_KubernetesClient_ControllerHarness.html");
    assertThat(fileName("../[1] mode=fake")).isEqualTo("1_mode_fake.html");
    assertThat(fileName("()")).isEqualTo("test.html");
    assertThat(TimelineReport.reportFile("r", "a.B$C", "x", "-envtest.html"))
        .isEqualTo(Path.of("r", "a.B_C", "x-envtest.html").toAbsolutePath());
  }

  private static String fileName(String displayName) {
    return TimelineReport.reportFile("r", "a.B", displayName, ".html").getFileName().toString();
  }

  private static TimelineEntry entry(long ms, TimelineEntry.Kind kind, String source, String text,
      Instant virtual) {
    return new TimelineEntry(START.plusMillis(ms), kind, source, text, virtual, 0);
  }

  private static TimelineEntry failed(long ms, String text, Throwable error) {
    return new TimelineEntry(START.plusMillis(ms), TimelineEntry.Kind.RECONCILE, "reconcile web", text,
        null, 0, error);
  }

  private static <T extends Throwable> T error(T error, String type, String method, int line) {
    error.setStackTrace(new StackTraceElement[] {new StackTraceElement(type, method,
        type.substring(type.lastIndexOf('.') + 1) + ".java", line)});
    return error;
  }
}
