package dev.ctk.junit;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static dev.ctk.junit.EngineRuns.onlyFailure;
import static dev.ctk.junit.EngineRuns.run;
import static java.time.Duration.ofMillis;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.ControllerProbe;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.VirtualTime;
import dev.ctk.controller.internal.ThrowableText;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.internal.timeline.TimelineHtml;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EventType;

/**
 * Every failure told whole, once, on each output of a failed {@code @ControllerTest}: standard error
 * (the console), the report entries (the JUnit report) and the HTML timeline. Through the JUnit engine
 * on fixture classes; the reconcile errors have fixed stack traces, so that texts compare whole.
 */
class FailureTextTest {

  /** The long first line of the root cause: a helpful NullPointerException's message. */
  static final String NPE_MESSAGE = "Cannot invoke \"io.javaoperatorsdk.operator.sample.customresource"
      + ".WebPageSpec.getHtml()\" because the return value of \"io.javaoperatorsdk.operator.sample."
      + "customresource.WebPage.getSpec()\" is null";

  /** The whole text of {@link #reconcileError()}. */
  static final String RECONCILE_ERROR = """
      java.lang.RuntimeException: reconcile of default/web failed:
        while rendering <html> & "index"
        3 retries left
      \tat com.example.WebReconciler.reconcile(WebReconciler.java:44)
      \tat dev.ctk.controller.ReconcileWorker.process(ReconcileWorker.java:120)
      Caused by: java.lang.IllegalStateException: render failed
      \tat com.example.Renderer.render(Renderer.java:91)
      \tat com.example.WebReconciler.reconcile(WebReconciler.java:42)
      \t... 1 more
      Caused by: java.lang.NullPointerException: %s
      \tat com.example.Renderer.html(Renderer.java:17)
      \t... 3 more""".formatted(NPE_MESSAGE);

  static final AtomicReference<String> URL = new AtomicReference<>();

  @TempDir
  Path reports;

  @BeforeEach
  void forget() {
    URL.set(null);
  }

  @Test
  void should_tell_a_reconcile_error_whole_once_on_the_console_in_the_report_and_in_the_html() throws IOException {
    // WHEN a test fails after a reconcile failed with a two-level cause chain and a long multi-line
    // message, while another key has been in flight for 12.3s
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    EngineExecutionResults results = runCapturing(FailsAfterAReconcileError.class, stderr);
    // THEN the test's own failure is reported unchanged
    assertThat(onlyFailure(results)).isInstanceOf(AssertionError.class).hasMessage("the test's own failure");
    // AND the controller's report gives the summary, the slow key and the error whole
    String report = """
        controller "webapp": running, caches synced
          work queue: queued [], in flight [default/slow], waiting []; 0 adds, 0 retries
          reconciles: 2 (1 succeeded, 1 failed, 0 requeued)
          default/slow: 1 reconcile, last SUCCESS
          default/web: 1 reconcile, last ERROR RuntimeException: reconcile of default/web failed: ...
          default/slow in flight for 12.3s (its reconciles usually take 4ms)
          last error of default/web:
        """ + ThrowableText.indent(RECONCILE_ERROR, "    ");
    assertThat(reportEntries(results)).containsEntry("ctk.controller.webapp", report);
    // AND the console says the same, once
    String console = stderr.toString(StandardCharsets.UTF_8);
    assertThat(console).contains("[ctk] fails(ControllerHarness) failed (fake mode, ctk fake API server at "
        + URL.get() + ", namespace default); " + report + "\n");
    assertThat(occurrences(console, NPE_MESSAGE)).isEqualTo(1);
    assertThat(occurrences(console, "3 retries left")).isEqualTo(1);
    assertThat(occurrences(console, "render failed")).isEqualTo(1);
    assertThat(occurrences(console, "at com.example.Renderer.html(Renderer.java:17)")).isEqualTo(1);
    // AND the text timeline names the error by its first line, and says where it is whole
    List<String> lines = reportEntries(results).get("ctk.timeline").lines().collect(Collectors.toList());
    assertThat(lines).contains("reconcile errors show only their first line here: the HTML report gives each "
        + "one whole (message, cause chain, stack trace), and the controller's report the last error of each key "
        + "that still fails");
    assertThat(TimelineTest.rows(lines)).contains("reconcile webapp  end default/web: ERROR RuntimeException: "
        + "reconcile of default/web failed: ...");
    // AND the HTML timeline gives the error whole once, escaped, in its row
    String page = Files.readString(html(FailsAfterAReconcileError.class));
    assertThat(page).contains("<td>reconcile webapp</td><td>end default/web: ERROR RuntimeException: reconcile "
        + "of default/web failed: ...<pre class=\"error\" id=\"error-1\">" + TimelineHtml.escape(RECONCILE_ERROR)
        + "</pre></td></tr>");
    assertThat(occurrences(page, TimelineHtml.escape(NPE_MESSAGE))).isEqualTo(1);
    assertThat(occurrences(page, "while rendering &lt;html&gt; &amp; &quot;index&quot;")).isEqualTo(1);
    assertThat(page).doesNotContain("<html> &");
  }

  @Test
  void should_give_an_assertj_failure_whole_with_the_expected_and_actual_values_in_the_html() throws IOException {
    // WHEN
    EngineExecutionResults results = runCapturing(FailsOnAnAssertJAssertion.class, new ByteArrayOutputStream());
    // THEN
    Throwable failure = onlyFailure(results);
    assertThat(failure).hasMessage("[replicas of default/web] \nexpected: 1\n but was: 3");
    String page = Files.readString(html(FailsOnAnAssertJAssertion.class));
    assertThat(page).contains("<span id=\"failure\">failure: org.opentest4j.AssertionFailedError: "
        + "[replicas of default/web] \nexpected: 1\n but was: 3\n\tat ")
        .contains("<span id=\"failure\">failure: " + TimelineHtml.escape(ThrowableText.full(failure))
            + "</span>");
    assertThat(occurrences(page, "but was: 3")).isEqualTo(1);
  }

  @Test
  void should_give_an_awaitility_timeout_whole_with_its_assertion_once_in_the_html() throws IOException {
    // WHEN
    EngineExecutionResults results = runCapturing(FailsOnAnAwaitilityTimeout.class, new ByteArrayOutputStream());
    // THEN
    Throwable failure = onlyFailure(results);
    assertThat(failure).isInstanceOf(ConditionTimeoutException.class).hasCauseInstanceOf(AssertionError.class);
    assertThat(failure.getCause()).hasMessageContaining("Expected size: 1 but was: 0");
    String page = Files.readString(html(FailsOnAnAwaitilityTimeout.class));
    assertThat(page).contains("<span id=\"failure\">failure: " + TimelineHtml.escape(ThrowableText.full(failure))
        + "</span>");
    assertThat(occurrences(page, "Expected size: 1 but was: 0")).isEqualTo(1);
    assertThat(occurrences(page, "[reconciles of default/web]")).isEqualTo(1);
  }

  @Test
  void should_give_the_error_a_ctk_assertion_names_whole_once_as_its_cause() throws IOException {
    // WHEN a test fails on hasReconciledSuccessfully, whose key's last reconcile failed
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    EngineExecutionResults results = runCapturing(FailsOnACtkAssertion.class, stderr);
    // THEN the failure names the error by its first line and carries it whole, as its cause
    Throwable failure = onlyFailure(results);
    assertThat(failure).hasMessage("""

        Expecting controller "webapp"
          to have reconciled default/web successfully within 100ms
        but its last reconcile failed:
          ERROR RuntimeException: reconcile of default/web failed: ...
        reconciles of default/web: 1 (oldest first)
          1. ERROR RuntimeException: reconcile of default/web failed: ...
        work queue: queued [], in flight [], waiting []""");
    assertThat(ThrowableText.full(failure.getCause())).isEqualTo(RECONCILE_ERROR);
    // AND the controller's report does not repeat it
    String report = """
        controller "webapp": running, caches synced
          work queue: queued [], in flight [], waiting []; 0 adds, 0 retries
          reconciles: 1 (0 succeeded, 1 failed, 0 requeued)
          default/web: 1 reconcile, last ERROR RuntimeException: reconcile of default/web failed: ...
          last error of default/web: the test's failure gives it whole (among its causes)""";
    assertThat(reportEntries(results)).containsEntry("ctk.controller.webapp", report);
    assertThat(stderr.toString(StandardCharsets.UTF_8)).doesNotContain(NPE_MESSAGE);
    // AND the HTML gives it once, in the failure, and links its row there
    String page = Files.readString(html(FailsOnACtkAssertion.class));
    assertThat(page).contains("<span id=\"failure\">failure: " + TimelineHtml.escape(ThrowableText.full(failure))
        + "</span>")
        .contains("<td>reconcile webapp</td><td>end default/web: ERROR RuntimeException: reconcile of default/web "
            + "failed: ...<div class=\"same-error\">the same error, given whole in <a href=\"#failure\">the "
            + "test&#39;s failure</a> above</div></td></tr>");
    assertThat(occurrences(page, TimelineHtml.escape(NPE_MESSAGE))).isEqualTo(1);
    assertThat(occurrences(page, "to have reconciled default/web successfully within 100ms")).isEqualTo(1);
  }

  /**
   * A reconcile error with a two-level cause chain, a long multi-line message with characters HTML
   * escapes, and fixed stack traces (the frames below the reconciler are shared, as in a real worker).
   */
  static RuntimeException reconcileError() {
    NullPointerException root = new NullPointerException(NPE_MESSAGE);
    root.setStackTrace(new StackTraceElement[] {frame("com.example.Renderer", "html", 17),
        frame("com.example.Renderer", "render", 91), frame("com.example.WebReconciler", "reconcile", 42),
        frame("dev.ctk.controller.ReconcileWorker", "process", 120)});
    IllegalStateException middle = new IllegalStateException("render failed", root);
    middle.setStackTrace(new StackTraceElement[] {frame("com.example.Renderer", "render", 91),
        frame("com.example.WebReconciler", "reconcile", 42), frame("dev.ctk.controller.ReconcileWorker", "process",
        120)});
    RuntimeException top = new RuntimeException("reconcile of default/web failed:\n  while rendering <html> & "
        + "\"index\"\n  3 retries left", middle);
    top.setStackTrace(new StackTraceElement[] {frame("com.example.WebReconciler", "reconcile", 44),
        frame("dev.ctk.controller.ReconcileWorker", "process", 120)});
    return top;
  }

  private static StackTraceElement frame(String type, String method, int line) {
    return new StackTraceElement(type, method, type.substring(type.lastIndexOf('.') + 1) + ".java", line);
  }

  private EngineExecutionResults runCapturing(Class<?> fixture, ByteArrayOutputStream stderr) {
    PrintStream original = System.err;
    System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
    try {
      // JUnit prunes a failure's stack trace after the extension wrote it: keep it whole, to compare
      return run(fixture, "ctk.report-dir", reports.toString(),
          "junit.platform.stacktrace.pruning.enabled", "false");
    } finally {
      System.setErr(original);
    }
  }

  private Path html(Class<?> fixture) {
    return reports.resolve(fixture.getName().replace('$', '_')).resolve("fails_ControllerHarness.html");
  }

  private static Map<String, String> reportEntries(EngineExecutionResults results) {
    return results.allEvents().stream().filter(e -> e.getType() == EventType.REPORTING_ENTRY_PUBLISHED)
        .map(e -> e.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs())
        .flatMap(m -> m.entrySet().stream())
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
  }

  private static int occurrences(String text, String part) {
    int count = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      count++;
    }
    return count;
  }

  @Fixture
  @ControllerTest
  static class FailsAfterAReconcileError {

    @Test
    void fails(ControllerHarness harness) {
      URL.set(harness.cluster().url());
      VirtualTime time = VirtualTime.startingAt(Instant.now());
      ControllerProbe probe = harness.observe(ControllerProbe.builder("webapp").withTimeSource(time)
          .withFailedKeysDropped().build());
      probe.reconcileStarted(ObjectKey.of("default", "web")).failed(reconcileError());
      ObjectKey slow = ObjectKey.of("default", "slow");
      ControllerProbe.Reconciliation first = probe.reconcileStarted(slow);
      time.advance(ofMillis(4));
      first.succeeded();
      probe.reconcileStarted(slow);
      time.advance(ofMillis(12_300));
      throw new AssertionError("the test's own failure");
    }
  }

  @Fixture
  @ControllerTest
  static class FailsOnAnAssertJAssertion {

    @Test
    void fails(ControllerHarness harness) {
      assertThat(3).as("replicas of default/web").isEqualTo(1);
    }
  }

  @Fixture
  @ControllerTest
  static class FailsOnAnAwaitilityTimeout {

    @Test
    void fails(ControllerHarness harness) {
      ControllerProbe probe = harness.observe(ControllerProbe.create("webapp"));
      await("default/web to be reconciled").atMost(ofMillis(200)).untilAsserted(
          () -> assertThat(probe.reconcileLog()).as("reconciles of default/web").hasSize(1));
    }
  }

  @Fixture
  @ControllerTest
  static class FailsOnACtkAssertion {

    @Test
    void fails(ControllerHarness harness) {
      ControllerProbe probe = harness.observe(ControllerProbe.builder("webapp").withFailedKeysDropped().build());
      probe.reconcileStarted(ObjectKey.of("default", "web")).failed(reconcileError());
      assertThat(probe).within(ofMillis(100)).hasReconciledSuccessfully("default/web");
    }
  }
}
