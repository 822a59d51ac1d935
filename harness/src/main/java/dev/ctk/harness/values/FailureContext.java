package dev.ctk.harness.values;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The failed test, as a test framework describes it to the harness's failure report ({@link dev.ctk.harness.TestScope#reportFailure}):
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
    Path file = reportFile(reportDir, testClass.getName(), name, ".html");
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

  /**
   * Where ctk writes a report of a test: {@code <reportDir>/<test class>/<display name><suffix>}, absolute, each
   * name made a file name (runs of other characters than letters, digits and {@code ._-} become {@code _}, at most
   * 120 characters).
   *
   * @param reportDir the report folder, e.g. {@code target/ctk-reports}
   * @param testClass the test class's name
   * @param displayName the test's display name
   * @param suffix e.g. {@code .html} or {@code -envtest.html}
   * @return the file
   */
  static Path reportFile(Path reportDir, String testClass, String displayName, String suffix) {
    return reportDir.resolve(fileName(testClass)).resolve(fileName(displayName) + suffix).toAbsolutePath()
        .normalize();
  }

  private static String fileName(String text) {
    String name = text.replaceAll("[^A-Za-z0-9._-]+", "_").replaceAll("^[_.]+|_+$", "");
    if (name.length() > 120) {
      name = name.substring(0, 120);
    }
    return name.isEmpty() ? "test" : name;
  }
}
