package dev.ctk.envtest.internal;

import dev.ctk.envtest.values.EnvtestException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A private temporary folder (mode 700 on POSIX systems: only its owner reads the admin token and
 * the service-account key in it) for one local server: credentials, etcd data, the serving
 * certificate and the logs. Deleted on close. A JVM killed with SIGKILL cannot delete it, so each
 * folder's owner holds a lock on its {@value #LOCK_FILE} (a file lock, which the operating system releases
 * when the process dies, however it dies) and names itself (process id and start time, in
 * {@value #OWNER_FILE}); the next {@link #create()} on the machine removes the folders whose lock nobody holds,
 * as Testcontainers' reaper removes the containers of a dead JVM. The lock, not the process id, decides: another
 * JVM on the machine, in another container sharing the temporary folder (another process-id namespace) or with
 * a clock that moved, never removes the folder of a live run.
 *
 * <p>Limits: on a file system without working locks (some network file systems) a folder may be removed early
 * or late; folders of ctk before 2026-11-28 (no lock file) are judged by process id and start time, within
 * {@value #START_TOLERANCE_SECONDS} s.
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

  /** The file in each folder whose lock the owner holds until the folder is deleted or the owner dies. */
  public static final String LOCK_FILE = "ctk-owner.lock";

  /** How far two readings of one process's start time may differ (the boot time each JVM derives moves). */
  static final int START_TOLERANCE_SECONDS = 2;

  /** The locks this JVM holds, by folder. */
  private static final Map<Path, FileLock> HELD = new ConcurrentHashMap<>();

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
      FileChannel channel = FileChannel.open(folder.resolve(LOCK_FILE), StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE);
      HELD.put(folder, channel.lock());   // before the owner file: a folder with an owner file is always locked
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
   * Deletes every {@code ctk-envtest-*} folder in {@code parent} whose owner is gone: nobody holds the lock on its
   * {@value #LOCK_FILE} (or, for a folder without one, no process with its id runs, or one started at another
   * time). Folders without an owner file (made by a ctk before 2026-11, or being created right now) and folders
   * this user cannot open are left alone. Never throws.
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
      if (!ownerAlive(folder, recorded) && new WorkDirectory(folder).delete()) {
        removed++;
      }
    }
    return removed;
  }

  /** {@code <pid> <start instant>} of a process, what {@value #OWNER_FILE} holds. */
  static String owner(ProcessHandle process) {
    return process.pid() + " " + process.info().startInstant().map(Object::toString).orElse("unknown");
  }

  /** Whether the owner of {@code folder} lives: it holds the folder's lock, or, without a lock file, it runs. */
  static boolean ownerAlive(Path folder, String recorded) {
    Path lockFile = folder.resolve(LOCK_FILE);
    if (!Files.exists(lockFile)) {
      return ownerAlive(recorded);
    }
    try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
      FileLock lock = channel.tryLock();
      if (lock == null) {
        return true;   // another process holds it
      }
      lock.release();
      return false;
    } catch (OverlappingFileLockException e) {
      return true;   // this JVM holds it
    } catch (IOException | RuntimeException e) {
      return true;   // cannot tell (not ours to open, no locks here): keep the folder
    }
  }

  /**
   * Whether the process an owner file names still runs: the same id, and a start time within
   * {@value #START_TOLERANCE_SECONDS} s of the recorded one (a reused id starts later).
   */
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
    Optional<Instant> now = process.get().info().startInstant();
    if (started.equals("unknown") || now.isEmpty()) {
      return true;
    }
    try {
      return Duration.between(Instant.parse(started), now.get()).abs()
          .compareTo(Duration.ofSeconds(START_TOLERANCE_SECONDS)) <= 0;
    } catch (DateTimeParseException e) {
      return true;   // unreadable: keep the folder rather than delete another run's
    }
  }

  /**
   * Releases this JVM's lock on the folder, then deletes it and everything in it; logs (WARN) what could not be
   * deleted.
   *
   * @return whether the folder is gone
   */
  public boolean delete() {
    FileLock held = HELD.remove(path);
    if (held != null) {
      try {
        held.channel().close();   // releases the lock; a reaper that takes it now deletes what this does
      } catch (IOException e) {
        LOG.debug("could not close the lock of {}", path, e);
      }
    }
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
