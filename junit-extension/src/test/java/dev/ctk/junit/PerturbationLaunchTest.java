package dev.ctk.junit;

import static dev.ctk.junit.EngineRuns.assertAllPassed;
import static dev.ctk.junit.EngineRuns.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.harness.internal.perturb.PerturbationOracle.Outcome;
import dev.ctk.harness.internal.perturb.PerturbationPoint;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The nested launcher of a campaign: it runs exactly the test it is given (by unique id) once more, with the
 * perturbed run's settings and the reference run's ctk settings, and reports how that run ended.
 */
class PerturbationLaunchTest {

  @Test
  void should_run_the_same_test_again_with_the_run_settings_and_report_its_outcome() {
    // GIVEN system properties, which the perturbed run reads as the reference run would (implicit parameters)
    Relaunches.OUTCOMES.clear();
    Relaunches.SEEN.clear();
    Map<String, String> properties = Map.of("other.implicit", "from-system", "ctk.isolation", "per_class",
        "ctk.mode", "container", PerturbationCampaign.PARALLEL_PROPERTY_NAME, "true");
    properties.forEach(System::setProperty);
    try {
      // WHEN a passing and a failing test each launch themselves once more
      assertAllPassed(run(Relaunches.class, "ctk.isolation", "per_method", "ctk.perturb.max-runs", "3", "ctk.mode",
          "envtest", "ctk.perturb.replay", "crash-restart:after-write-1", "other.setting", "x"), 2);
    } finally {
      properties.keySet().forEach(System::clearProperty);
    }
    // THEN each ran again, alone, and its outcome came back
    assertThat(Relaunches.OUTCOMES.get("passes").ran()).isTrue();
    assertThat(Relaunches.OUTCOMES.get("passes").failure()).isNull();
    assertThat(Relaunches.OUTCOMES.get("fails").failure()).isInstanceOf(AssertionError.class)
        .hasMessage("fails in the perturbed run");
    // the reference run's ctk settings and the run's own win over system properties; parallel execution is off;
    // an explicit parameter of the reference run's launcher that is not a ctk one is not passed on
    String seen = " ctk.perturb.run=crash-restart:before-write-2 ctk.perturb.campaign=c-1 ctk.mode=fake "
        + "ctk.modes=fake ctk.isolation=per_method ctk.perturb.max-runs=3 ctk.perturb.replay=null "
        + "other.setting=null other.implicit=from-system junit.jupiter.execution.parallel.enabled=false";
    assertThat(Relaunches.SEEN).containsExactlyInAnyOrder("passes:" + seen, "fails:" + seen);
  }

  @Test
  void should_select_the_first_invocation_of_an_across_modes_class_whose_modes_come_from_configuration() {
    // GIVEN invocation #2 of a class template, and in it invocation #3 of a nested one, FooTest
    org.junit.platform.engine.UniqueId id = org.junit.platform.engine.UniqueId.parse(
        "[engine:junit-jupiter]/[class-template:" + Relaunches.class.getName() + "]/[class-template-invocation:#2]"
            + "/[nested-class-template:FooTest]/[class-template-invocation:#3]/[method:works()]");
    // WHEN
    String nested = PerturbationCampaign.firstInvocation(id, FooTest.class).toString();
    String outer = PerturbationCampaign.firstInvocation(id, Relaunches.class).toString();
    // THEN only the invocation of the class named is renumbered
    assertThat(nested).isEqualTo("[engine:junit-jupiter]/[class-template:" + Relaunches.class.getName() + "]/"
        + "[class-template-invocation:#2]/[nested-class-template:FooTest]/[class-template-invocation:#1]/"
        + "[method:works()]");
    assertThat(outer).isEqualTo("[engine:junit-jupiter]/[class-template:" + Relaunches.class.getName() + "]/"
        + "[class-template-invocation:#1]/[nested-class-template:FooTest]/[class-template-invocation:#3]/"
        + "[method:works()]");
  }

  /** A class named by its simple name in a unique id, as a nested class template is. */
  static final class FooTest {}

  @Test
  void should_say_why_when_the_test_did_not_run() {
    // GIVEN
    Relaunches.OUTCOMES.clear();
    // WHEN a test is skipped in the perturbed run
    assertAllPassed(run(SkippedWhenRelaunched.class), 1);
    // THEN
    assertThat(Relaunches.OUTCOMES.get("skipped")).isEqualTo(Outcome.notRun(
        "it was skipped: a perturbed run"));
  }

  /** Launches the test it follows once more, unless it is that launch; records what the launch saw. */
  static final class Relauncher implements AfterEachCallback, ExecutionCondition {

    @Override
    public void afterEach(ExtensionContext context) {
      String name = context.getRequiredTestMethod().getName();
      if (context.getConfigurationParameter(PerturbationCampaign.RUN_PROPERTY_NAME).isPresent()) {
        StringBuilder seen = new StringBuilder(name + ":");
        for (String key : List.of("ctk.perturb.run", "ctk.perturb.campaign", "ctk.mode", "ctk.modes",
            "ctk.isolation", "ctk.perturb.max-runs", "ctk.perturb.replay", "other.setting", "other.implicit",
            PerturbationCampaign.PARALLEL_PROPERTY_NAME)) {
          seen.append(' ').append(key).append('=').append(context.getConfigurationParameter(key).orElse(null));
        }
        Relaunches.SEEN.add(seen.toString());
        return;
      }
      Relaunches.relaunching = true;
      try {
        Relaunches.OUTCOMES.put(name, PerturbationCampaign.launch(context,
            PerturbationCampaign.selection(context), "c-1", PerturbationPoint.crashBefore(2)));
      } finally {
        Relaunches.relaunching = false;
      }
    }

    /** Skips {@code skipped} in the perturbed run. */
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      boolean skip = context.getTestMethod().map(m -> m.getName().equals("skipped")).orElse(false)
          && context.getConfigurationParameter(PerturbationCampaign.RUN_PROPERTY_NAME).isPresent();
      return skip ? ConditionEvaluationResult.disabled("a perturbed run")
          : ConditionEvaluationResult.enabled("not skipped");
    }
  }

  @Fixture
  @ExtendWith(Relauncher.class)
  static class Relaunches {

    static final Map<String, Outcome> OUTCOMES = new ConcurrentHashMap<>();
    static final List<String> SEEN = new CopyOnWriteArrayList<>();
    static volatile boolean relaunching;

    @Test
    void passes() {}

    @Test
    void fails() {
      if (relaunching) {
        throw new AssertionError("fails in the perturbed run");
      }
    }
  }

  @Fixture
  @ExtendWith(Relauncher.class)
  static class SkippedWhenRelaunched {

    @Test
    void skipped() {}
  }
}
