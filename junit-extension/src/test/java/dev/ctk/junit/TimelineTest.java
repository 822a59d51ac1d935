package dev.ctk.junit;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static dev.ctk.junit.EngineRuns.assertAllPassed;
import static dev.ctk.junit.EngineRuns.onlyFailure;
import static dev.ctk.junit.EngineRuns.run;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.CacheState;
import dev.ctk.controller.Controller;
import dev.ctk.controller.ControllerProbe;
import dev.ctk.controller.ControllerStats;
import dev.ctk.controller.ControllerView;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.RateLimiter;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.controller.Result;
import dev.ctk.controller.WorkQueueView;
import dev.ctk.controller.internal.ThrowableText;
import dev.ctk.fake.ApiFault;
import dev.ctk.fake.FakeCluster;
import dev.ctk.fake.values.RequestPattern;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.internal.timeline.TimelineHtml;
import dev.ctk.harness.values.Isolation;
import dev.ctk.harness.values.Mode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EventType;

/**
 * The failure timeline: the report entry {@code ctk.timeline} and the HTML report of a failed
 * {@code @ControllerTest}, through the JUnit engine on fixture classes.
 */
class TimelineTest {

  @TempDir
  Path reports;

  @Test
  void should_publish_requests_faults_queue_changes_and_reconciles_in_the_order_they_happened() {
    // WHEN a test fails after its controller met a conflict and retried
    EngineExecutionResults results = run(FailsAfterAConflict.class, "ctk.report-dir",
        reports.toString());
    // THEN the test's own failure is reported unchanged
    assertThat(onlyFailure(results)).isInstanceOf(AssertionError.class)
        .hasMessage("the test's own failure");
    // AND the timeline names the test, the mode and the HTML report
    List<String> lines = timeline(results).lines().collect(Collectors.toList());
    Path html = reports.resolve("dev.ctk.junit.TimelineTest_FailsAfterAConflict")
        .resolve("fails_KubernetesClient_FakeCluster_ControllerHarness.html").toAbsolutePath();
    assertThat(lines.get(0)).matches("ctk timeline of fails\\(KubernetesClient, FakeCluster, "
        + "ControllerHarness\\), fake mode: \\d+ entries since the test started, times in ms");
    assertThat(lines.get(1)).isEqualTo("HTML report: " + html);
    assertThat(lines.get(2)).isEqualTo("reconcile errors show only their first line here: the HTML "
        + "report gives each one whole (message, cause chain, stack trace), and the controller's "
        + "report the last error of each key that still fails");
    assertThat(lines.get(3)).matches(" +ms  source +what");
    // AND lists what happened, in order, each row aligned: ms, source, what
    List<String> rows = rows(lines.subList(4, lines.size()));
    assertInOrder(rows,
        "request  #\\d+ list configmaps in default.* -> 200",
        "injected  #\\d+ add configmaps default/web \\[injected\\]",
        "queue marker  add default/web",
        "queue marker  hand out default/web",
        "reconcile marker  start default/web on ctk-marker-worker-1",
        "request  #\\d+ get configmaps default/web -> 200",
        "request  #\\d+ update configmaps default/web \\(resourceVersion=\\d+\\) -> 409"
            + " \\[fault: .*\\]",
        "fault  .*409 Conflict.*",
        "queue marker  add default/web after 5ms",
        "reconcile marker  end default/web: ERROR 409 Conflict: Operation cannot be fulfilled on "
            + "configmaps \"web\": the object has been modified; please apply your changes to the "
            + "latest version and try again",
        // the retry's add and the first reconcile's done race: either may come first
        "queue marker  hand out default/web",
        "reconcile marker  start default/web on ctk-marker-worker-1",
        "request  #\\d+ update configmaps default/web \\(resourceVersion=\\d+\\) -> 200 changed",
        "reconcile marker  end default/web: SUCCESS \\(attempt 1\\)",
        "queue marker  done default/web.*");
    assertThat(rows).anyMatch(r -> r.matches(
        "watch  watch #\\d+ ConfigMap in default.*: ADDED default/web rv=\\d+ DELIVERED"));
    // AND every row starts with the ms since the test started, right-aligned under "ms"
    int msEnd = lines.get(3).indexOf("ms") + 2;
    assertThat(lines.subList(4, lines.size()))
        .allMatch(line -> line.substring(0, msEnd).matches(" *-?\\d+"));
  }

  @Test
  void should_write_every_entry_into_a_self_contained_html_report_escaping_each_string()
      throws IOException {
    // WHEN
    // (JUnit prunes the failure's stack trace once the extension wrote it: keep it whole, to compare)
    EngineExecutionResults results = run(FailsAfterAnObservedReconcile.class, "ctk.report-dir",
        reports.toString(), "junit.platform.stacktrace.pruning.enabled", "false");
    // THEN
    assertThat(onlyFailure(results)).hasMessage("the test's own failure");
    Path html = reports.resolve("dev.ctk.junit.TimelineTest_FailsAfterAnObservedReconcile")
        .resolve("fails_ControllerHarness.html").toAbsolutePath();
    assertThat(html).exists();
    String page = Files.readString(html);
    assertThat(page).startsWith("<!DOCTYPE html>").contains("<style>").doesNotContain("<script")
        .doesNotContain("<link").doesNotContain("src=");
    assertThat(page).contains("<td>reconcile webapp</td><td>start default/web</td>")
        .contains("<td>reconcile webapp</td><td>end default/web: ERROR IllegalStateException: "
            + "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;co&quot;"
            + "<pre class=\"error\" id=\"error-1\">"
            + TimelineHtml.escape(ThrowableText.full(FailsAfterAnObservedReconcile.error))
            + "</pre></td>")
        .contains("<span class=\"k-reconcile\">reconcile: 2</span>")
        .contains("<span id=\"failure\">failure: "
            + TimelineHtml.escape(ThrowableText.full(onlyFailure(results))) + "</span>");
    // AND the text names the same two entries
    List<String> lines = timeline(results).lines().collect(Collectors.toList());
    assertThat(lines.get(0)).isEqualTo("ctk timeline of fails(ControllerHarness), fake mode: "
        + "2 entries since the test started, times in ms");
    assertThat(lines.get(1)).isEqualTo("HTML report: " + html);
    assertThat(rows(lines.subList(4, lines.size()))).containsExactly(
        "reconcile webapp  start default/web",
        "reconcile webapp  end default/web: ERROR IllegalStateException: "
            + "<script>alert('x')</script> & \"co\"");
  }

  @Test
  void should_publish_and_write_nothing_when_the_test_passes() {
    // WHEN
    EngineExecutionResults results = run(PassesWithAController.class, "ctk.report-dir",
        reports.toString());
    // THEN
    assertAllPassed(results, 1);
    assertThat(results.allEvents().reportingEntryPublished().count()).isZero();
    assertThat(reports).isEmptyDirectory();
  }

  @Test
  void should_report_an_unreadable_source_in_one_line_and_keep_the_failure() {
    // WHEN
    EngineExecutionResults results = run(FailsWithAnUnreadableLog.class, "ctk.report-dir",
        reports.toString());
    // THEN
    assertThat(onlyFailure(results)).hasMessage("the test's own failure");
    List<String> lines = timeline(results).lines().collect(Collectors.toList());
    assertThat(lines).containsSubsequence(
        "ctk timeline of fails(ControllerHarness), fake mode: 2 entries since the test started, "
            + "times in ms",
        "reconcile log of controller \"broken\": unreadable, reading it threw "
            + "java.lang.IllegalStateException: event sources not registered yet");
    assertThat(rows(lines.subList(lines.size() - 2, lines.size())))
        .containsExactly("reconcile fine  start default/web", "reconcile fine  end default/web: SUCCESS");
  }

  @Test
  void should_say_why_the_html_report_was_not_written_and_still_publish_the_text()
      throws IOException {
    // GIVEN a report folder that is a file
    Path blocked = Files.writeString(reports.resolve("blocked"), "not a folder");
    // WHEN
    EngineExecutionResults results = run(FailsAfterAnObservedReconcile.class, "ctk.report-dir",
        blocked.toString());
    // THEN
    assertThat(onlyFailure(results)).hasMessage("the test's own failure");
    List<String> lines = timeline(results).lines().collect(Collectors.toList());
    Path html = blocked.resolve("dev.ctk.junit.TimelineTest_FailsAfterAnObservedReconcile")
        .resolve("fails_ControllerHarness.html").toAbsolutePath();
    assertThat(lines.get(1)).startsWith("HTML report: not written, writing " + html
        + " threw java.nio.file.");
    assertThat(lines.get(2)).startsWith("reconcile errors show only their first line here");
    assertThat(lines).hasSize(6);
  }

  @Test
  void should_show_the_last_200_entries_in_text_and_all_in_html() throws IOException {
    // WHEN a test fails after 150 reconciles (300 entries)
    EngineExecutionResults results = run(FailsAfterManyReconciles.class, "ctk.report-dir",
        reports.toString());
    // THEN
    assertThat(onlyFailure(results)).hasMessage("the test's own failure");
    List<String> lines = timeline(results).lines().collect(Collectors.toList());
    assertThat(lines.get(0)).isEqualTo("ctk timeline of fails(ControllerHarness), fake mode: "
        + "300 entries since the test started, times in ms");
    assertThat(lines.get(2)).isEqualTo("the first 100 entries are left out here (the last 200 "
        + "are shown); the HTML report lists all");
    List<String> rows = rows(lines.subList(4, lines.size()));
    assertThat(rows).hasSize(200);
    assertThat(rows.get(0)).isEqualTo("reconcile many  start default/key-50");
    assertThat(rows.get(199)).isEqualTo("reconcile many  end default/key-149: SUCCESS");
    String page = Files.readString(reports.resolve(
        "dev.ctk.junit.TimelineTest_FailsAfterManyReconciles").resolve("fails_ControllerHarness.html"));
    assertThat(page.split("<tr class=\"k-reconcile\">", -1)).hasSize(301);
    assertThat(page).contains("<td>start default/key-0</td>");
  }

  @Test
  void should_say_in_one_line_that_a_real_mode_has_no_journal_and_still_show_the_controllers() {
    // GIVEN a real server (skipped where there is none)
    RealServerFixtures.serverOrSkip(Mode.ENVTEST);
    // WHEN
    EngineExecutionResults results = run(FailsInEnvtest.class, "ctk.report-dir",
        reports.toString());
    // THEN
    assertThat(onlyFailure(results)).hasMessage("the test's own failure");
    List<String> lines = timeline(results).lines().collect(Collectors.toList());
    assertThat(lines.subList(0, 3)).containsExactly(
        "ctk timeline of fails(ControllerHarness), envtest mode: 2 entries since the test "
            + "started, times in ms",
        "HTML report: " + reports.resolve("dev.ctk.junit.TimelineTest_FailsInEnvtest")
            .resolve("fails_ControllerHarness.html").toAbsolutePath(),
        "API requests, injected events, fault firings and watch deliveries: not recorded in "
            + "envtest mode (only ctk's fake API server keeps a request journal and a watch log)");
    assertThat(rows(lines.subList(4, lines.size()))).containsExactly(
        "reconcile webapp  start default/web", "reconcile webapp  end default/web: SUCCESS");
  }

  @Test
  void should_show_class_controllers_from_the_start_of_the_test_on() {
    // WHEN a per-class controller started in @BeforeAll reconciles during a failing test
    EngineExecutionResults results = run(FailsWithAClassController.class, "ctk.report-dir",
        reports.toString());
    // THEN its steps during the test are shown, and the requests of @BeforeAll are not
    assertThat(onlyFailure(results)).hasMessage("the test's own failure");
    List<String> lines = timeline(results).lines().collect(Collectors.toList());
    List<String> rows = rows(lines.subList(3, lines.size()));
    assertInOrder(rows,
        "injected  #\\d+ add configmaps default/web \\[injected\\]",
        "queue shared  add default/web",
        "reconcile shared  start default/web on ctk-shared-worker-\\d",
        "reconcile shared  end default/web: SUCCESS",
        "queue shared  done default/web");
    assertThat(rows).noneMatch(r -> r.startsWith("request  ")
        && r.matches(".* (list|watch) configmaps .*"));
  }

  /** The value of the only {@code ctk.timeline} report entry. */
  static String timeline(EngineExecutionResults results) {
    List<String> values = results.allEvents().stream()
        .filter(e -> e.getType() == EventType.REPORTING_ENTRY_PUBLISHED)
        .map(e -> e.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs())
        .filter(m -> m.containsKey("ctk.timeline")).map(m -> m.get("ctk.timeline"))
        .collect(Collectors.toList());
    assertThat(values).as("ctk.timeline report entries").hasSize(1);
    return values.get(0);
  }

  /** Table rows without their ms column, the columns' padding shrunk to two spaces. */
  static List<String> rows(List<String> lines) {
    return lines.stream().map(line -> line.strip().replaceFirst("^-?\\d+ +", "")
        .replaceFirst("^(\\S+( \\S+)?) {2,}", "$1  ")).collect(Collectors.toList());
  }

  /** Fails unless rows matching each pattern appear in this order (others may come between). */
  static void assertInOrder(List<String> rows, String... patterns) {
    int next = 0;
    for (String row : rows) {
      if (next < patterns.length && Pattern.matches(patterns[next], row)) {
        next++;
      }
    }
    if (next < patterns.length) {
      throw new AssertionError("Expected rows matching, in order:\n  "
          + String.join("\n  ", Arrays.asList(patterns)) + "\nbut found none for:\n  "
          + patterns[next] + "\nafter the earlier ones, in:\n  " + String.join("\n  ", rows));
    }
  }

  static ConfigMap configMap(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("default")
        .endMetadata().build();
  }

  /** Marks each config map "seen" with an update; the first update of default/web gets a 409. */
  @Fixture
  @ControllerTest
  static class FailsAfterAConflict {

    @Test
    void fails(KubernetesClient client, FakeCluster cluster, ControllerHarness harness) {
      cluster.faults().when(RequestPattern.update("ConfigMap").named("default", "web")).once()
          .answer(ApiFault.conflict());
      Controller controller = harness.start(Controller.builder("marker")
          .watch(client.configMaps().inNamespace("default").runnableInformer(0),
              EventHandlers.enqueueObject())
          .withReconciler(key -> {
            ConfigMap read = client.configMaps().inNamespace(key.namespace())
                .withName(key.name()).get();
            if (read != null && (read.getData() == null || !read.getData().containsKey("seen"))) {
              read.setData(Map.of("seen", "yes"));
              client.configMaps().resource(read).update();
            }
            return Result.done();
          })
          .withRateLimiter(RateLimiter.exponential(ofMillis(5), ofMillis(5)))
          .build());
      cluster.events().add(configMap("web"));
      await("three reconciles of default/web (conflict, update, the update's own event)")
          .atMost(ofSeconds(10)).until(() -> controller.reconcileLog().size() == 3);
      assertThat(controller).within(ofSeconds(10)).isIdle();
      throw new AssertionError("the test's own failure");
    }
  }

  @Fixture
  @ControllerTest
  static class FailsAfterAnObservedReconcile {

    static volatile IllegalStateException error;

    @Test
    void fails(ControllerHarness harness) {
      ControllerProbe probe = harness.observe(ControllerProbe.create("webapp"));
      error = new IllegalStateException("<script>alert('x')</script> & \"co\"");
      probe.reconcileStarted(ObjectKey.of("default", "web")).failed(error);
      throw new AssertionError("the test's own failure");
    }
  }

  @Fixture
  @ControllerTest
  static class PassesWithAController {

    @Test
    void passes(KubernetesClient client, FakeCluster cluster, ControllerHarness harness) {
      Controller controller = harness.start(ControllerHarnessTest.controller(client, "quiet"));
      cluster.events().add(configMap("web"));
      assertThat(controller).within(ofSeconds(10)).hasReconciledSuccessfully("default/web");
    }
  }

  @Fixture
  @ControllerTest
  static class FailsWithAnUnreadableLog {

    @Test
    void fails(ControllerHarness harness) {
      harness.observe(new UnreadableLog());
      ControllerProbe probe = harness.observe(ControllerProbe.create("fine"));
      probe.reconcileStarted(ObjectKey.of("default", "web")).succeeded();
      throw new AssertionError("the test's own failure");
    }
  }

  @Fixture
  @ControllerTest
  static class FailsAfterManyReconciles {

    @Test
    void fails(ControllerHarness harness) {
      ControllerProbe probe = harness.observe(ControllerProbe.create("many"));
      for (int i = 0; i < 150; i++) {
        probe.reconcileStarted(ObjectKey.of("default", "key-" + i)).succeeded();
      }
      throw new AssertionError("the test's own failure");
    }
  }

  @Fixture
  @ControllerTest(mode = Mode.ENVTEST)
  static class FailsInEnvtest {

    @Test
    void fails(ControllerHarness harness) {
      harness.observe(ControllerProbe.create("webapp"))
          .reconcileStarted(ObjectKey.of("default", "web")).succeeded();
      throw new AssertionError("the test's own failure");
    }
  }

  @Fixture
  @ControllerTest(isolation = Isolation.PER_CLASS)
  static class FailsWithAClassController {

    static Controller shared;

    @BeforeAll
    static void start(KubernetesClient client, ControllerHarness harness) {
      shared = harness.start(ControllerHarnessTest.controller(client, "shared"));
    }

    @Test
    void fails(FakeCluster cluster) {
      cluster.events().add(configMap("web"));
      assertThat(shared).within(ofSeconds(10)).hasReconciledSuccessfully("default/web");
      throw new AssertionError("the test's own failure");
    }
  }

  /** A view whose reconcile log cannot be read. */
  static final class UnreadableLog implements ControllerView {

    @Override
    public String name() {
      return "broken";
    }

    @Override
    public boolean isRunning() {
      return true;
    }

    @Override
    public List<CacheState> caches() {
      return List.of();
    }

    @Override
    public WorkQueueView workQueue() {
      throw new IllegalStateException("event sources not registered yet");
    }

    @Override
    public ControllerStats stats() {
      throw new IllegalStateException("event sources not registered yet");
    }

    @Override
    public List<ReconcileRecord> reconcileLog() {
      throw new IllegalStateException("event sources not registered yet");
    }
  }
}
