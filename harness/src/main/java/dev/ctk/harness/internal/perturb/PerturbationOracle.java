package dev.ctk.harness.internal.perturb;

import dev.ctk.controller.internal.ThrowableText;
import dev.ctk.harness.internal.SettingNames;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Decides whether a perturbed run failed: its test failed (its own assertions, or an exception), it did not run, its
 * controllers did not converge (a hot loop, or stuck), it leaked (an owned object whose owner is gone, finalizers
 * never removed; leaks the reference run has too are not the perturbation's), or its end state differs from the
 * reference run's. When the test itself failed, its failure comes first and the leaks and end-state differences of the
 * run follow (they often say why the assertion failed); convergence is not judged then (a failed test may leave its
 * controllers busy).
 */
public final class PerturbationOracle {

  /** How many end-state differences a report lists per run. */
  public static final int SHOWN_DIFFERENCES = 10;

  private PerturbationOracle() {}

  /**
   * What the nested launcher saw of a perturbed run.
   *
   * @param ran whether the test ran at all
   * @param failure what it threw, or {@code null} when it passed (or did not run)
   * @param reason why it did not run, else {@code null}
   * @param selected whether the launcher found the test at all (else the campaign cannot run)
   */
  public record Outcome(boolean ran, Throwable failure, String reason, boolean selected) {

    public static Outcome passed() {
      return new Outcome(true, null, null, true);
    }

    public static Outcome failed(Throwable failure) {
      return new Outcome(true, failure, null, true);
    }

    public static Outcome notRun(String reason) {
      return new Outcome(false, null, reason, true);
    }

    public static Outcome notSelected() {
      return new Outcome(false, null, "the nested launcher found no test with this unique id", false);
    }
  }

  /**
   * One reason a run failed.
   *
   * @param summary one line
   * @param details more lines (the end-state differences, or the test's failure whole: message, cause
   *     chain, stack trace), may be empty
   * @param objects the objects it names ({@code ConfigMap default/web}), to restrict the timeline to them
   * @param endState whether it is the end-state comparison
   */
  public record Finding(String summary, List<String> details, Set<String> objects, boolean endState) {

    public Finding {
      details = List.copyOf(details);
      objects = Set.copyOf(objects);
    }

    public static Finding of(String summary) {
      return new Finding(summary, List.of(), Set.of(), false);
    }
  }

  /**
   * Judges one run.
   *
   * @param outcome what the launcher saw
   * @param run what the run recorded, or {@code null} if nothing
   * @param reference the reference run's end state
   * @param ignored fields that may differ
   * @return the findings; empty when the run passed
   */
  public static List<Finding> judge(Outcome outcome, PerturbationRuns.Run run, EndState reference,
      List<FieldPath> ignored) {
    List<Finding> findings = new ArrayList<>();
    if (!outcome.ran()) {
      findings.add(Finding.of("the perturbed run did not run the test: " + outcome.reason()));
      return findings;
    }
    if (outcome.failure() != null) {
      findings.add(new Finding(describeFailure(outcome.failure()),
          ThrowableText.full(outcome.failure()).lines().toList(), Set.of(), false));
      if (run == null || run.endState() == null) {
        return findings;
      }
      // the end state too: what the perturbation left behind often says why the test's own assertion failed
    } else if (run == null) {
      findings.add(Finding.of("the perturbed run recorded nothing: the perturbation was never attached to it"));
      return findings;
    }
    if (run.captureFailure() != null && outcome.failure() == null) {
      findings.add(Finding.of("the end state could not be read: " + run.captureFailure()));
    }
    if (!run.converged() && outcome.failure() == null) {
      findings.add(Finding.of("not converged: the controllers were not idle within "
          + SettingNames.SETTLE.toSeconds() + " s after the test (a hot loop, or stuck): "
          + run.activity()));
    }
    if (run.endState() == null) {
      return findings;
    }
    Set<String> knownLeaks = reference.leaks().stream().map(EndState.Leak::key).collect(Collectors.toSet());
    for (EndState.Leak leak : run.endState().leaks()) {
      if (!knownLeaks.contains(leak.key())) {
        findings.add(new Finding("leak: " + leak.text(), List.of(), Set.of(leak.object()), false));
      }
    }
    List<EndState.Difference> differences = run.endState().diff(reference, ignored);
    if (!differences.isEmpty()) {
      List<String> details = new ArrayList<>();
      Set<String> objects = new LinkedHashSet<>();
      for (EndState.Difference difference : differences) {
        objects.add(difference.object());
        if (details.size() < SHOWN_DIFFERENCES) {
          details.add(difference.text());
        }
      }
      if (differences.size() > SHOWN_DIFFERENCES) {
        details.add("... and " + (differences.size() - SHOWN_DIFFERENCES) + " more");
      }
      findings.add(new Finding("end state differs: " + differences.get(0).text()
          + (differences.size() > 1 ? " (+" + (differences.size() - 1) + " more)" : ""), details, objects, true));
    }
    return findings;
  }

  /**
   * "the test's own assertions failed: &lt;first line&gt;", or "the test threw &lt;type&gt;: &lt;first line&gt;"; the
   * first line is followed by " ..." when the message has more (the finding's details give the
   * failure whole).
   */
  public static String describeFailure(Throwable failure) {
    String first = failure.getMessage() == null ? "" : ThrowableText.firstLine(failure.getMessage());
    if (failure instanceof AssertionError) {
      return "the test's own assertions failed: " + (first.isEmpty() ? failure.getClass().getName() : first);
    }
    return "the test threw " + failure.getClass().getName() + (first.isEmpty() ? "" : ": " + first);
  }
}
