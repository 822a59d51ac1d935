package dev.ctk.envtest.internal;

import dev.ctk.envtest.values.EnvtestException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A private temporary folder (mode 700 on POSIX systems: only its owner reads the admin token and
 * the service-account key in it) for one local server: credentials, etcd data, the serving
 * certificate and the logs. Deleted on close. A JVM killed with SIGKILL cannot delete it, so each
 * folder names its owner (process id and start time, in {@value #OWNER_FILE}) and the next
 * {@link #create()} on the machine removes the folders whose owner is gone, as Testcontainers'
 * reaper removes the containers of a dead JVM.
 *
 * <pre>{@code
 * WorkDirectory work = WorkDirectory.create();
 * work.delete();
 * }</pre>
 *
 * @param path the folder
 */
public record WorkDirectory(Path path) {

  /** The file in each folder naming the process that owns it. */
  public static final String OWNER_FILE = "ctk-owner";

  private static final String PREFIX = "ctk-envtest-";
  private static final Logger LOG = LoggerFactory.getLogger(WorkDirectory.class);

  /**
   * Creates a new folder {@code ctk-envtest-*} in {@code java.io.tmpdir}.
   *
   * @return the folder
   * @throws EnvtestException when it cannot be created
   */
  public static WorkDirectory create() {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    int reaped = reapOrphans(tmp);
    if (reaped > 0) {
      LOG.info("removed {} work folder(s) of local API servers whose JVM had died, from {}", reaped, tmp);
    }
    try {
      Path folder = Files.createTempDirectory(tmp, PREFIX);
      Files.writeString(folder.resolve(OWNER_FILE), owner(ProcessHandle.current()));
      return new WorkDirectory(folder);
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
   * Deletes every {@code ctk-envtest-*} folder in {@code parent} whose owner process is gone (no
   * process with its id, or one started at another time). Folders without an owner file (made by a
   * ctk before 2026-11, or being created right now) are left alone. Never throws.
   *
   * @param parent the folder to look in, normally {@code java.io.tmpdir}
   * @return how many folders were removed
   */
  public static int reapOrphans(Path parent) {
    List<Path> candidates;
    try (Stream<Path> list = Files.list(parent)) {
      candidates = list.filter(p -> p.getFileName().toString().startsWith(PREFIX) && Files.isDirectory(p)).toList();
    } catch (IOException | RuntimeException e) {
      LOG.debug("could not list {} for work folders of dead runs", parent, e);
      return 0;
    }
    int removed = 0;
    for (Path folder : candidates) {
      Path ownerFile = folder.resolve(OWNER_FILE);
      String recorded;
      try {
        recorded = Files.readString(ownerFile).strip();
      } catch (IOException e) {
        continue; // no owner file: not ours to judge
      }
      if (!ownerAlive(recorded) && new WorkDirectory(folder).delete()) {
        removed++;
      }
    }
    return removed;
  }

  /** {@code <pid> <start instant>} of a process, what {@value #OWNER_FILE} holds. */
  static String owner(ProcessHandle process) {
    return process.pid() + " " + process.info().startInstant().map(Object::toString).orElse("unknown");
  }

  /** Whether the process an owner file names still runs (the same process: same id and start time). */
  static boolean ownerAlive(String recorded) {
    String[] parts = recorded.split(" ", 2);
    long pid;
    try {
      pid = Long.parseLong(parts[0]);
    } catch (NumberFormatException e) {
      return true; // unreadable: keep the folder rather than delete another run's
    }
    Optional<ProcessHandle> process = ProcessHandle.of(pid);
    if (process.isEmpty() || !process.get().isAlive()) {
      return false;
    }
    String started = parts.length > 1 ? parts[1] : "unknown";
    return started.equals("unknown") || owner(process.get()).equals(recorded);
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
