package dev.ctk.envtest.internal;

import dev.ctk.envtest.values.EnvtestException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
 * <p>Limits: on a file system without locks (some network file systems) a folder gets no lock file; such folders,
 * and those of ctk before 2026-11-28, are judged by process id and start time (within
 * {@link ProcessStarts#TOLERANCE}), so a run in another process-id namespace may lose them. A folder of this
 * JVM is never judged by it. Windows is not supported (a locked file cannot be deleted there).
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
    Path folder;
    try {
      folder = Files.createTempDirectory(tmp, PREFIX);
    } catch (IOException e) {
      throw new EnvtestException(
          "Could not create a work folder for a local API server in "
              + System.getProperty("java.io.tmpdir")
              + ": "
              + e
              + ". Free some space there or point -Djava.io.tmpdir at a writable folder.",
          e);
    }
    lock(folder);   // before the owner file: a folder with an owner file and a lock file is locked
    try {
      Files.writeString(folder.resolve(OWNER_FILE), owner(ProcessHandle.current()));
    } catch (IOException e) {
      new WorkDirectory(folder).delete();
      throw new EnvtestException(
          "Could not write " + folder.resolve(OWNER_FILE) + " for a local API server: " + e
              + ". Free some space in " + tmp + " or point -Djava.io.tmpdir at a writable folder.",
          e);
    }
    return new WorkDirectory(folder);
  }

  /**
   * Takes the lock of a new folder and keeps it until {@link #delete()}. Where the file system has no locks (some
   * network file systems) the folder gets no lock file and is judged by its owner's process id, as before locks.
   */
  private static void lock(Path folder) {
    Path lockFile = folder.resolve(LOCK_FILE);
    FileChannel channel = null;
    try {
      channel = FileChannel.open(lockFile, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      HELD.put(folder, channel.lock());
    } catch (IOException | RuntimeException e) {
      LOG.debug("no file lock in {} ({}); its folder is judged by process id", folder, e.toString());
      try {
        if (channel != null) {
          channel.close();
        }
        Files.deleteIfExists(lockFile);
      } catch (IOException closing) {
        LOG.debug("could not remove {}", lockFile, closing);
      }
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
  public static synchronized int reapOrphans(Path parent) {   // one reaper a JVM: two would share one lock
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
      if (ownedHere(folder, recorded)) {
        continue;   // never open a lock file this JVM holds: closing any channel of it would drop the lock
      }
      if (reapIfUnlocked(folder, recorded)) {
        removed++;
      }
    }
    return removed;
  }

  /**
   * Whether this JVM made the folder: it holds its lock, or the owner file names this process (its pid and, within
   * the tolerance, its start time: a killed earlier run with the same pid, in a container, is another owner).
   */
  private static boolean ownedHere(Path folder, String recorded) {
    if (HELD.containsKey(folder) || HELD.containsKey(folder.toAbsolutePath().normalize())) {
      return true;
    }
    String[] parts = recorded.split(" ", 2);
    return parts[0].equals(Long.toString(ProcessHandle.current().pid())) && ownerAlive(recorded);
  }

  /**
   * Deletes a folder of another process whose owner is gone, holding its lock while it deletes, so that two
   * reapers never delete one folder at once.
   */
  private static boolean reapIfUnlocked(Path folder, String recorded) {
    Path lockFile = folder.resolve(LOCK_FILE);
    if (!Files.exists(lockFile)) {
      return !ownerAlive(recorded) && new WorkDirectory(folder).delete();
    }
    try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
      FileLock lock = channel.tryLock();
      if (lock == null) {
        return false;   // its owner, or another reaper, holds it
      }
      return new WorkDirectory(folder).delete();   // the lock is released when the channel closes, after
    } catch (IOException | RuntimeException e) {
      return false;   // cannot tell (not ours to open, no locks here): keep the folder
    }
  }

  /** {@code <pid> <start instant>} of a process, what {@value #OWNER_FILE} holds. */
  static String owner(ProcessHandle process) {
    return process.pid() + " " + process.info().startInstant().map(Object::toString).orElse("unknown");
  }

  /**
   * Whether the process an owner file names still runs: the same id, and a start time within
   * {@link ProcessStarts#TOLERANCE} of the recorded one (a reused id starts later).
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
      return ProcessStarts.same(Instant.parse(started), now.get());
    } catch (DateTimeParseException e) {
      return true;   // unreadable: keep the folder rather than delete another run's
    }
  }

  /**
   * Deletes the folder and everything in it, then releases this JVM's lock on it (held while deleting, so that no
   * reaper deletes it at the same time); logs (WARN) what could not be deleted. Never throws.
   *
   * @return whether the folder is gone
   */
  public boolean delete() {
    try {
      return deleteFiles();
    } finally {
      FileLock held = HELD.remove(path);
      if (held != null) {
        try {
          held.channel().close();
        } catch (IOException e) {
          LOG.debug("could not close the lock of {}", path, e);
        }
      }
    }
  }

  private boolean deleteFiles() {
    if (!Files.exists(path)) {
      return true;
    }
    List<Path> all;
    Path lockFile = path.resolve(LOCK_FILE);
    try (Stream<Path> walk = Files.walk(path)) {
      // children before their folders; the lock file last but the folder, so that the folder stays judged by its
      // lock while it goes
      all = walk.sorted(Comparator.comparing((Path file) -> file.equals(path) ? 2 : file.equals(lockFile) ? 1 : 0)
          .thenComparing(Comparator.reverseOrder())).toList();
    } catch (IOException | UncheckedIOException e) {
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
