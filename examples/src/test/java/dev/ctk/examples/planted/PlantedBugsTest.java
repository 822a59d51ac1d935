package dev.ctk.examples.planted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.EventType;

/**
 * The proof of perturbation testing: each planted bug is found by a campaign of {@code @Perturbed}, at the point
 * that provokes it, while the same test of the correct version passes every perturbed run. Each scenario passes as
 * a plain test in both variants: only the perturbation finds the bug. The campaigns run here through the JUnit
 * engine, so that this build stays green; their reports (with the time of every run) are printed.
 */
class PlantedBugsTest {

  /** Three runs at a time (most of a run is waiting), unless {@code -Dctk.perturb.parallel-runs} says otherwise. */
  private static final String PARALLEL_RUNS = System.getProperty("ctk.perturb.parallel-runs", "3");

  static Stream<Arguments> plantedBugs() {
    return Stream.of(
        Arguments.of("a create that is not idempotent after a crash", TicketWorkerScenario.Planted.class,
            TicketWorkerScenario.Correct.class, "FAIL crash-restart:after-write-1"),
        Arguments.of("the same, in a Java Operator SDK operator", TicketWorkerOperatorScenario.Planted.class,
            TicketWorkerOperatorScenario.Correct.class, "FAIL crash-restart:after-write-1"),
        Arguments.of("the same, in a Kubernetes Java client controller", TicketWorkerClientJavaScenario.Planted.class,
            TicketWorkerClientJavaScenario.Correct.class, "FAIL crash-restart:after-write-1"),
        Arguments.of("a delete decided from a stale cache", SettingsCleanupScenario.Planted.class,
            SettingsCleanupScenario.Correct.class, "FAIL stale-restart:Secret:after-write-1"),
        Arguments.of("a status computed from intermediate states", RevisionHistoryScenario.Planted.class,
            RevisionHistoryScenario.Correct.class, "FAIL unobserved-states:ConfigMap:event-1"),
        Arguments.of("a lost update by a read-modify-write from a stale cache", LostUpdateScenario.Planted.class,
            LostUpdateScenario.Correct.class, "FAIL stale-view:ConfigMap:event-3"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("plantedBugs")
  void a_campaign_finds_the_planted_bug_and_passes_the_correct_version(String bug, Class<?> planted,
      Class<?> correct, String failingRun, @TempDir Path reports) {
    // WHEN
    EngineExecutionResults bugged = run(planted, reports);
    EngineExecutionResults fixed = run(correct, reports);
    // THEN both reports are printed first, so that a failure below comes with its evidence
    String report = report(bugged);
    System.out.println(bug + ", planted:\n" + report);
    String fixedReport = report(fixed);
    System.out.println(bug + ", correct:\n" + fixedReport);
    // AND the planted bug fails its campaign at the point that provokes it, with a replay line
    bugged.testEvents().assertStatistics(stats -> stats.started(1).failed(1));
    assertThat(report).startsWith("ctk perturbation: ").contains(failingRun);
    String point = failingRun.substring("FAIL ".length());
    assertThat(report).contains("replay: -Dctk.perturb.replay=" + point);
    assertThat(bugged.testEvents().failed().stream()
        .map(e -> e.getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow()
            .getThrowable().orElseThrow().getMessage()))
        .singleElement().asString().contains(failingRun);
    // AND the correct version passes every run of its campaign
    assertThat(fixedReport).startsWith("ctk perturbation: ").doesNotContain("FAIL ");
    fixed.testEvents().assertStatistics(stats -> stats.started(1).succeeded(1));
  }

  private static EngineExecutionResults run(Class<?> scenario, Path reports) {
    return EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(scenario))
        .configurationParameter("ctk.report-dir", reports.toString())
        .configurationParameter("ctk.perturb.parallel-runs", PARALLEL_RUNS)
        .execute();
  }

  private static String report(EngineExecutionResults results) {
    List<String> reports = results.allEvents().stream()
        .filter(e -> e.getType() == EventType.REPORTING_ENTRY_PUBLISHED)
        .map(e -> e.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs())
        .filter(entry -> entry.containsKey("ctk.perturbations"))
        .map(entry -> entry.get("ctk.perturbations"))
        .toList();
    // not asserted here, so that the other report is printed first: a missing or extra one fails the checks below
    return reports.size() == 1 ? reports.get(0)
        : "(" + reports.size() + " ctk.perturbations report entries, not 1)\n" + String.join("\n", reports);
  }
}
