package dev.ctk.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.Vocabulary;
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
    String page = TimelineHtml.page("a <b> & 'c'", List.of("failure: x < y"), START,
        List.of(entry(5, TimelineEntry.Kind.WATCH, "watch <1>", "\"quoted\" & <tag>", null)),
        List.of("note <i>"));
    // THEN
    assertThat(page).contains("<title>ctk timeline: a &lt;b&gt; &amp; &#39;c&#39;</title>")
        .contains("failure: x &lt; y").contains("<li>note &lt;i&gt;</li>")
        .contains("<tr class=\"k-watch\"><td class=\"ms\">5</td><td>watch &lt;1&gt;</td>"
            + "<td>&quot;quoted&quot; &amp; &lt;tag&gt;</td></tr>")
        .doesNotContain("<th>virtual</th>").doesNotContain("<tag>");
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
    assertThat(TimelineReport.fileName("fails(KubernetesClient, ControllerHarness)"))
        .isEqualTo("fails_KubernetesClient_ControllerHarness");
    assertThat(TimelineReport.fileName("../[1] mode=fake")).isEqualTo("1_mode_fake");
    assertThat(TimelineReport.fileName("()")).isEqualTo("test");
  }

  private static TimelineEntry entry(long ms, TimelineEntry.Kind kind, String source, String text,
      Instant virtual) {
    return new TimelineEntry(START.plusMillis(ms), kind, source, text, virtual, 0);
  }
}
