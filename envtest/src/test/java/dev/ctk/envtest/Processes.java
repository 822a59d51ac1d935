package dev.ctk.envtest;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Test support: whether processes still run (a zombie does not: it runs no code any more). */
public final class Processes {

  private Processes() {}

  /**
   * Waits (bounded) until none of {@code pids} runs.
   *
   * @param pids process ids
   * @param atMost the bound
   */
  public static void awaitGone(List<Long> pids, Duration atMost) {
    await("processes " + pids + " to be gone")
        .atMost(atMost)
        .pollInterval(Duration.ofMillis(100))
        .until(() -> pids.stream().noneMatch(Processes::running));
  }

  /**
   * Whether {@code pid} is a live, non-zombie process.
   *
   * @param pid a process id
   * @return whether it runs
   */
  public static boolean running(long pid) {
    Optional<ProcessHandle> handle = ProcessHandle.of(pid);
    if (handle.isEmpty() || !handle.get().isAlive()) {
      return false;
    }
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      return !stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
    } catch (IOException | RuntimeException e) {
      return handle.get().isAlive();
    }
  }
}
