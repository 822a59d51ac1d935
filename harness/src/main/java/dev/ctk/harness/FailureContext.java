package dev.ctk.harness;

import dev.ctk.harness.internal.timeline.TimelineReport;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The failed test, as a test framework describes it to the harness's failure report ({@link TestScope#reportFailure}):
 * its names, its failure, where its HTML timeline goes, and where report entries are published. ctk's JUnit extension
 * implements it over an {@code ExtensionContext}; {@link #of} gives one for any other framework, or none.
 *
 * @since 0.1.0
 */
public interface FailureContext {

  /** The test's display name, e.g. {@code creates_a_service()}. */
  String displayName();

  /** The test's class, fully qualified. */
  String testClassName();

  /** What the test threw, if it failed. */
  Optional<Throwable> failure();

  /** The file the HTML timeline is written to. */
  Path reportFile();

  /**
   * Publishes one report entry (JUnit: a report entry of the test; elsewhere: as the framework likes).
   *
   * @param key e.g. {@code ctk.timeline}
   * @param value the text
   */
  void publish(String key, String value);

  /**
   * A context that writes the timeline under {@code reportDir/<class>/<name>.html} and publishes nothing but what
   * the report prints on standard error anyway.
   *
   * @param testClass the test's class
   * @param name the test's name
   * @param failure what it threw, or {@code null}
   * @param reportDir the folder of the reports, e.g. {@code target/ctk-reports}
   * @return the context
   */
  static FailureContext of(Class<?> testClass, String name, Throwable failure, Path reportDir) {
    Path file = reportDir.resolve(TimelineReport.fileName(testClass.getName()))
        .resolve(TimelineReport.fileName(name) + ".html").toAbsolutePath().normalize();
    return new FailureContext() {
      @Override
      public String displayName() {
        return name;
      }

      @Override
      public String testClassName() {
        return testClass.getName();
      }

      @Override
      public Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
      }

      @Override
      public Path reportFile() {
        return file;
      }

      @Override
      public void publish(String key, String value) {
        // the report prints everything on standard error already
      }
    };
  }
}
