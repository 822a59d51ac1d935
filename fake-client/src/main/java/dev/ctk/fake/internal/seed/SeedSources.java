package dev.ctk.fake.internal.seed;

import dev.ctk.fake.values.FakeClusterException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/** Reads seed files and classpath resources into {@link SeedDocument}s, failing with a message that says the fix. */
public final class SeedSources {

  private SeedSources() {}

  /**
   * Reads a YAML file.
   *
   * @throws FakeClusterException when the file does not exist, cannot be read or is not valid YAML
   */
  public static List<SeedDocument> file(Path file) {
    Objects.requireNonNull(file, "file");
    Path absolute = file.toAbsolutePath().normalize();
    if (!Files.isRegularFile(absolute)) {
      throw new FakeClusterException("Cannot seed the fake cluster: file " + absolute + " does not exist. "
          + "Check the path (relative paths resolve against the working directory "
          + Path.of("").toAbsolutePath() + "), or use withClasspathResources(..) for files on the classpath.");
    }
    try (InputStream in = Files.newInputStream(absolute)) {
      return YamlDocuments.read(absolute.toString(), in);
    } catch (IOException e) {
      throw new FakeClusterException("Cannot seed the fake cluster: file " + absolute + " cannot be read: " + e
          + ". Check its permissions.", e);
    }
  }

  /**
   * Reads a YAML classpath resource (thread context class loader first, then ctk's).
   *
   * @throws FakeClusterException when the resource does not exist or is not valid YAML
   */
  public static List<SeedDocument> classpath(String resource) {
    Objects.requireNonNull(resource, "resource");
    String name = resource.startsWith("/") ? resource.substring(1) : resource;
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    InputStream in = context == null ? null : context.getResourceAsStream(name);
    if (in == null) {
      in = SeedSources.class.getClassLoader().getResourceAsStream(name);
    }
    if (in == null) {
      throw new FakeClusterException("Cannot seed the fake cluster: classpath resource \"" + name
          + "\" not found (looked in the thread context class loader and ctk's class loader). Put the file under "
          + "src/test/resources/" + name + ", or use withYaml(Path) for files outside the classpath.");
    }
    try (InputStream stream = in) {
      return YamlDocuments.read("classpath resource \"" + name + "\"", stream);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
