package dev.ctk.harness.internal.perturb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.harness.internal.perturb.PerturbationOracle.Finding;
import dev.ctk.harness.internal.perturb.PerturbationReport.RunResult;
import dev.ctk.harness.internal.perturb.PerturbationReport.Status;
import dev.ctk.harness.internal.perturb.PerturbationRuns.TimelineLine;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The text of a perturbation report, whole. */
class PerturbationReportTest {

  private static final PerturbationPoint AFTER_1 = PerturbationPoint.crashAfter(1);
  private static final PerturbationPoint BEFORE_1 = PerturbationPoint.crashBefore(1);
  private static final PerturbationPoint VIEW_2 = PerturbationPoint.staleView("ConfigMap", 2);

  @Test
  void should_list_every_run_then_the_replay_line_minimal_timeline_and_end_state_of_each_failure() {
    // GIVEN a run whose crash made the controller create a second generated ConfigMap
    Finding extra = new Finding("end state differs: extra: ConfigMap default/web-9q8zt (generateName web-)",
        List.of("extra: ConfigMap default/web-9q8zt (generateName web-)"), Set.of("ConfigMap default/web-9q8zt"),
        true);
    List<TimelineLine> timeline = List.of(
        new TimelineLine("12:00:01.050", "request #3 create ConfigMap default/web -> 201 (not a controller's)",
            "ConfigMap default/web"),
        new TimelineLine("12:00:01.101", "write #1 create ConfigMap default/web-7xk2p -> 201",
            "ConfigMap default/web-7xk2p"),
        new TimelineLine("12:00:01.102", "crashed controller \"x\" right after write #1; restarted as instance 2",
            null),
        new TimelineLine("12:00:01.180", "write #2 create ConfigMap default/web-9q8zt -> 201   (instance 2)",
            "ConfigMap default/web-9q8zt"),
        new TimelineLine("12:00:01.190", "write #3 update ConfigMap default/web -> 200   (instance 2)",
            "ConfigMap default/web"));
    List<RunResult> runs = List.of(
        new RunResult(BEFORE_1, 388, Status.PASS, List.of(), List.of(), null),
        new RunResult(AFTER_1, 412, Status.FAIL, List.of(extra), timeline, null),
        new RunResult(VIEW_2, 5, Status.SKIP, List.of(), List.of(), "the run never got to this point"));
    PerturbationPlan plan = new PerturbationPlan(List.of(BEFORE_1, AFTER_1, VIEW_2), List.of(BEFORE_1, AFTER_1,
        VIEW_2), 42, false);
    // WHEN
    String report = PerturbationReport.render("NginxTest#creates", plan, runs, 6210, 310);
    // THEN
    assertThat(report).isEqualTo(String.join("\n",
        "ctk perturbation: NginxTest#creates: 1 of 3 runs failed, 1 had no effect (seed 42, 3 of 3 planned points "
            + "run, 6.2s; reference 310ms)",
        "  PASS crash-restart:before-write-1    388 ms",
        "  FAIL crash-restart:after-write-1     412 ms  end state differs: extra: ConfigMap default/web-9q8zt "
            + "(generateName web-)",
        "  SKIP stale-view:ConfigMap:event-2      5 ms  no effect: the run never got to this point",
        "crash-restart:after-write-1: the controller crashes right after its write #1, and a fresh instance starts",
        "  replay: -Dctk.perturb.replay=crash-restart:after-write-1 (with -Dtest='NginxTest#creates')",
        "  timeline (from the perturbation on):",
        "    12:00:01.101 write #1 create ConfigMap default/web-7xk2p -> 201",
        "    12:00:01.102 crashed controller \"x\" right after write #1; restarted as instance 2",
        "    12:00:01.180 write #2 create ConfigMap default/web-9q8zt -> 201   (instance 2)",
        "  end state vs reference:",
        "    extra: ConfigMap default/web-9q8zt (generateName web-)"));
  }

  @Test
  void should_name_the_sample_and_show_every_line_from_the_injection_on_when_findings_name_no_object() {
    // GIVEN a sampled plan and a run whose test failed
    Finding failed = Finding.of("the test's own assertions failed: expected 1 Service but found 2");
    List<TimelineLine> timeline = List.of(
        new TimelineLine("12:00:02.000", "write #1 create Service default/web -> 201", "Service default/web"),
        new TimelineLine("12:00:01.000", "held ConfigMap watches from event #2", null));
    PerturbationPlan plan = new PerturbationPlan(List.of(BEFORE_1, AFTER_1, VIEW_2), List.of(VIEW_2), 7, false);
    // WHEN
    String report = PerturbationReport.render("T#m", plan,
        List.of(new RunResult(VIEW_2, 1500, Status.FAIL, List.of(failed), timeline, null)), 1500, 1200);
    // THEN
    assertThat(report).isEqualTo(String.join("\n",
        "ctk perturbation: T#m: 1 of 1 run failed (seed 7, 1 of 3 planned points run: a seeded sample, 2 skipped, "
            + "1.5s; reference 1.2s)",
        "  FAIL stale-view:ConfigMap:event-2   1500 ms  the test's own assertions failed: expected 1 Service but "
            + "found 2",
        "stale-view:ConfigMap:event-2: the controller's ConfigMap watches hold from event #2 until it is idle "
            + "(stale cache)",
        "  replay: -Dctk.perturb.replay=stale-view:ConfigMap:event-2 (with -Dtest='T#m')",
        "  the test's own assertions failed: expected 1 Service but found 2",
        "  timeline (from the perturbation on):",
        "    12:00:01.000 held ConfigMap watches from event #2",
        "    12:00:02.000 write #1 create Service default/web -> 201"));
  }

  @Test
  void should_give_the_tests_failure_whole_with_its_expected_and_actual_values_and_its_cause() {
    // GIVEN a perturbed run whose test failed with AssertJ's message on later lines, and a cause
    IllegalStateException cause = new IllegalStateException("informer stopped");
    cause.setStackTrace(new StackTraceElement[] {new StackTraceElement("a.Informer", "run", "Informer.java", 5)});
    AssertionError failure = new AssertionError("\n[services of default/web] \nexpected: 1\n but was: 2", cause);
    failure.setStackTrace(new StackTraceElement[] {new StackTraceElement("a.WebTest", "creates", "WebTest.java", 40)});
    List<Finding> findings = PerturbationOracle.judge(PerturbationOracle.Outcome.failed(failure), null, null,
        List.of());
    PerturbationPlan plan = new PerturbationPlan(List.of(AFTER_1), List.of(AFTER_1), 5, false);
    // WHEN
    String report = PerturbationReport.render("T#m", plan, List.of(new RunResult(AFTER_1, 90, Status.FAIL, findings,
        List.of(), null)), 90, 80);
    // THEN the run's line says the first line, the details say all of it once
    assertThat(report).isEqualTo(String.join("\n",
        "ctk perturbation: T#m: 1 of 1 run failed (seed 5, 1 of 1 planned points run, 90ms; reference 80ms)",
        "  FAIL crash-restart:after-write-1     90 ms  the test's own assertions failed: [services of default/web] ...",
        "crash-restart:after-write-1: the controller crashes right after its write #1, and a fresh instance starts",
        "  replay: -Dctk.perturb.replay=crash-restart:after-write-1 (with -Dtest='T#m')",
        "  the test's own assertions failed: [services of default/web] ...",
        "    java.lang.AssertionError: ",
        "    [services of default/web] ",
        "    expected: 1",
        "     but was: 2",
        "    \tat a.WebTest.creates(WebTest.java:40)",
        "    Caused by: java.lang.IllegalStateException: informer stopped",
        "    \tat a.Informer.run(Informer.java:5)"));
  }

  @Test
  void should_blame_the_tests_own_nondeterminism_without_a_replay_line_when_a_failing_run_had_no_effect() {
    // GIVEN a run whose point had no effect, but whose end state differs anyway
    Finding differs = new Finding("end state differs: ConfigMap default/web differs at data.n: reference \"1\", "
        + "perturbed \"2\"", List.of("ConfigMap default/web differs at data.n: reference \"1\", perturbed \"2\""),
        Set.of("ConfigMap default/web"), true);
    List<TimelineLine> timeline = List.of(
        new TimelineLine("12:00:01.000", "request #3 update ConfigMap default/web -> 200 (not a controller's)",
            "ConfigMap default/web"),
        new TimelineLine("12:00:01.100", "write #1 create Secret default/web -> 201", "Secret default/web"));
    PerturbationPlan plan = new PerturbationPlan(List.of(AFTER_1), List.of(AFTER_1), 9, false);
    // WHEN
    String report = PerturbationReport.render("T#m", plan, List.of(new RunResult(AFTER_1, 300, Status.FAIL,
        List.of(differs), timeline, "reached, but controller \"x\" has no factory")), 300, 250);
    // THEN
    assertThat(report).isEqualTo(String.join("\n",
        "ctk perturbation: T#m: 1 of 1 run failed (seed 9, 1 of 1 planned points run, 300ms; reference 250ms)",
        "  FAIL crash-restart:after-write-1    300 ms  the point had no effect (reached, but controller \"x\" has no "
            + "factory): this difference is the test's own nondeterminism: end state differs: ConfigMap default/web "
            + "differs at data.n: reference \"1\", perturbed \"2\"",
        "crash-restart:after-write-1: the controller crashes right after its write #1, and a fresh instance starts",
        "  the point had no effect (reached, but controller \"x\" has no factory): this difference is the test's own "
            + "nondeterminism",
        "  timeline:",
        "    12:00:01.000 request #3 update ConfigMap default/web -> 200 (not a controller's)",
        "    12:00:01.100 write #1 create Secret default/web -> 201",
        "  end state vs reference:",
        "    ConfigMap default/web differs at data.n: reference \"1\", perturbed \"2\""));
  }

  @Test
  void should_say_so_when_there_is_nothing_to_perturb() {
    // WHEN
    String report = PerturbationReport.render("T#m", new PerturbationPlan(List.of(), List.of(), 3, false),
        List.of(), 0, 20);
    // THEN
    assertThat(report).isEqualTo("ctk perturbation: T#m: nothing to perturb: the reference run made no controller "
        + "writes that can be crashed at (no controller started from a factory) and no watch events of the kinds "
        + "its controllers watch (seed 3; reference 20ms)");
  }

  @Test
  void should_name_the_replayed_point() {
    // WHEN
    String report = PerturbationReport.render("T#m", PerturbationPlan.replay(AFTER_1, 3),
        List.of(new RunResult(AFTER_1, 40, Status.PASS, List.of(), List.of(), null)), 40, 20);
    // THEN
    assertThat(report).isEqualTo(String.join("\n",
        "ctk perturbation: T#m: 0 of 1 run failed (replay of crash-restart:after-write-1, 40ms; reference 20ms)",
        "  PASS crash-restart:after-write-1     40 ms"));
  }
}
