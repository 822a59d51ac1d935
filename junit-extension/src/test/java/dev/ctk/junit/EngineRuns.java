package dev.ctk.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.ClassSelector;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * Runs fixture classes through the JUnit Jupiter engine (as JUnit tests its own extensions) and
 * reads the outcome. Fixtures are static nested classes of the test classes, so Surefire never runs
 * them on their own. Implicit configuration (junit-platform.properties, system properties) is off
 * and the process environment is replaced: each run sees exactly the parameters and environment
 * variables it passes.
 */
final class EngineRuns {

  private EngineRuns() {}

  /**
   * Runs fixture classes with configuration parameters given as key, value, key, value... and an
   * empty environment: a CTK_* variable of the machine never changes a result.
   */
  static EngineExecutionResults run(List<Class<?>> fixtures, String... parameters) {
    return run(fixtures, name -> null, parameters);
  }

  static EngineExecutionResults run(Class<?> fixture, String... parameters) {
    return run(List.of(fixture), parameters);
  }

  /**
   * Runs fixture classes with configuration parameters and the environment variables {@code
   * environment} returns (null when unset) in place of the process environment.
   */
  static EngineExecutionResults run(List<Class<?>> fixtures, Function<String, String> environment,
      String... parameters) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < parameters.length; i += 2) {
      map.put(parameters[i], parameters[i + 1]);
    }
    List<ClassSelector> selectors = fixtures.stream().map(c -> selectClass(c))
        .collect(Collectors.toList());
    Function<String, String> machine = ControllerTestConfig.replaceEnvironment(environment);
    try {
      return EngineTestKit.engine("junit-jupiter")
          .enableImplicitConfigurationParameters(false)
          .configurationParameters(map)
          .selectors(selectors)
          .execute();
    } finally {
      ControllerTestConfig.replaceEnvironment(machine);
    }
  }

  /**
   * The one {@code ctk.perturbations} report entry a run published.
   *
   * @param results the run
   * @return the campaign's report
   */
  static String perturbationReport(EngineExecutionResults results) {
    List<String> entries = results.allEvents().reportingEntryPublished().stream()
        .map(e -> e.getRequiredPayload(ReportEntry.class).getKeyValuePairs().get("ctk.perturbations"))
        .filter(v -> v != null).collect(Collectors.toList());
    assertThat(entries).hasSize(1);
    return entries.get(0);
  }

  /** Fails, printing every failure with its stack trace, unless exactly {@code tests} passed. */
  static void assertAllPassed(EngineExecutionResults results, long tests) {
    List<String> failures = failures(results);
    long succeeded = results.testEvents().succeeded().count();
    if (!failures.isEmpty() || succeeded != tests) {
      throw new AssertionError("Expected " + tests + " fixture tests to pass, " + succeeded
          + " did; failures:\n" + String.join("\n", failures));
    }
  }

  /** The failures of tests and containers, each with its stack trace. */
  static List<String> failures(EngineExecutionResults results) {
    List<String> failures = new ArrayList<>();
    results.allEvents().failed().stream().forEach(event -> failures.add(
        event.getTestDescriptor().getDisplayName() + ": " + stackTrace(throwable(event))));
    return failures;
  }

  /** The throwable of a failed event. */
  static Throwable throwable(Event event) {
    return event.getPayload(TestExecutionResult.class).flatMap(TestExecutionResult::getThrowable)
        .orElseThrow(() -> new AssertionError("event without a throwable: " + event));
  }

  /** The single failure of the run (a test's or a container's). */
  static Throwable onlyFailure(EngineExecutionResults results) {
    List<Event> failed = results.allEvents().failed().list();
    if (failed.size() != 1) {
      throw new AssertionError("Expected exactly one failure, got " + failed.size() + ":\n"
          + String.join("\n", failures(results)));
    }
    return throwable(failed.get(0));
  }

  private static String stackTrace(Throwable throwable) {
    StringWriter text = new StringWriter();
    throwable.printStackTrace(new PrintWriter(text));
    return text.toString();
  }
}
