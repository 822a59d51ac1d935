package dev.ctk.harness.internal.realserver;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * A YAML file named in {@code @ControllerTest(crds/resources)} or the builder: {@code
 * "classpath:crds/network.yaml"} (a classpath resource) or a file path, relative to the working
 * directory or absolute. {@link #parse} checks that it exists, so a typo fails before any test runs.
 *
 * @param text the location as written
 * @param classpathResource the resource name (no leading {@code '/'}), or {@code null} for a file
 * @param file the file, or {@code null} for a classpath resource
 */
public record ResourceLocation(String text, String classpathResource, Path file) {

  public static final String CLASSPATH_PREFIX = "classpath:";

  /**
   * Parses and checks a location.
   *
   * @param text the location as written
   * @param declaredIn where it was written, e.g. {@code @ControllerTest(crds) on com.example.FooTest}
   * @param loader the class loader that finds classpath resources
   * @param failure makes the exception to throw from a message
   * @return the location
   */
  public static ResourceLocation parse(String text, String declaredIn, ClassLoader loader,
      Function<String, RuntimeException> failure) {
    if (text == null || text.isBlank()) {
      throw failure.apply(declaredIn + " lists an empty location. Fix: write \"" + CLASSPATH_PREFIX
          + "path/in/resources.yaml\" or a file path.");
    }
    if (text.startsWith(CLASSPATH_PREFIX)) {
      String name = text.substring(CLASSPATH_PREFIX.length());
      while (name.startsWith("/")) {
        name = name.substring(1);
      }
      if (name.isBlank() || loader.getResource(name) == null) {
        throw failure.apply(declaredIn + " lists \"" + text + "\", but there is no such classpath "
            + "resource. Fix: put the file at src/test/resources/" + name + ", or correct the name.");
      }
      return new ResourceLocation(text, name, null);
    }
    Path file = Path.of(text).toAbsolutePath().normalize();
    if (!Files.isRegularFile(file)) {
      throw failure.apply(declaredIn + " lists \"" + text + "\", but there is no such file: " + file
          + ". Fix: use a path relative to the working directory ("
          + Path.of("").toAbsolutePath() + "), or \"" + CLASSPATH_PREFIX + "...\" for a file in "
          + "src/test/resources.");
    }
    return new ResourceLocation(text, null, file);
  }

  /** The class loader that finds classpath resources for a test: the thread's, else ctk's own. */
  public static ClassLoader defaultLoader() {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    return loader != null ? loader : ResourceLocation.class.getClassLoader();
  }
}
