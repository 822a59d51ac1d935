package dev.ctk.envtest.internal;

import dev.ctk.envtest.EnvtestException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A private temporary folder (mode 700 on POSIX systems) for one local server: credentials, etcd
 * data, the serving certificate and the logs. Deleted on close; a JVM killed with SIGKILL leaves it
 * behind in {@code java.io.tmpdir} (named {@code ctk-envtest-*}).
 *
 * <pre>{@code
 * WorkDirectory work = WorkDirectory.create();
 * work.delete();
 * }</pre>
 *
 * @param path the folder
 */
public record WorkDirectory(Path path) {

  private static final Logger LOG = LoggerFactory.getLogger(WorkDirectory.class);

  /**
   * Creates a new folder {@code ctk-envtest-*} in {@code java.io.tmpdir}.
   *
   * @return the folder
   * @throws EnvtestException when it cannot be created
   */
  public static WorkDirectory create() {
    try {
      return new WorkDirectory(Files.createTempDirectory("ctk-envtest-"));
    } catch (IOException e) {
      throw new EnvtestException(
          "Could not create a work folder for a local API server in "
              + System.getProperty("java.io.tmpdir")
              + ": "
              + e
              + ". Free some space there or point -Djava.io.tmpdir at a writable folder.",
          e);
    }
  }

  /**
   * Deletes the folder and everything in it; logs (WARN) what could not be deleted.
   *
   * @return whether the folder is gone
   */
  public boolean delete() {
    if (!Files.exists(path)) {
      return true;
    }
    List<Path> all;
    try (Stream<Path> walk = Files.walk(path)) {
      all = walk.sorted(Comparator.reverseOrder()).toList();
    } catch (IOException e) {
      LOG.warn("could not list {} to delete it", path, e);
      return false;
    }
    for (Path file : all) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        LOG.warn("could not delete {}", file, e);
      }
    }
    return !Files.exists(path);
  }
}
