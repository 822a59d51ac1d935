package dev.ctk.envtest.internal;

import dev.ctk.controller.internal.DurationText;
import dev.ctk.envtest.values.EnvtestException;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One binary (etcd, kube-apiserver) run as a child of this JVM, with its output (stdout and
 * stderr together) copied to a log file, into a {@link LogRing} and to the slf4j logger {@code
 * dev.ctk.envtest.process.<name>} at DEBUG.
 *
 * <p><b>Crash watchdog.</b> Java cannot ask the kernel to kill a child when its parent dies, so
 * each binary is started through {@code /bin/sh}: the shell forks a small watcher loop and then
 * {@code exec}s the binary (so {@link #pid()} is the binary itself). The watcher checks every
 * second with {@code kill -0} that the JVM and the binary still exist; when the JVM is gone it
 * sends TERM to the binary, and KILL 3 s later if it still runs. A child thus outlives a crashed
 * JVM ({@code kill -9}) by about 1 to 5 s. The watcher ends by itself within a second of the
 * binary's end. Needs a POSIX {@code /bin/sh} with {@code kill} and {@code sleep} (Linux, macOS).
 *
 * <pre>{@code
 * ChildProcess etcd = ChildProcess.start("etcd", List.of("/opt/k8s/etcd", "--data-dir=/tmp/x"),
 *     workDir.resolve("etcd.log"), 50);
 * etcd.stop(Duration.ofSeconds(10));
 * }</pre>
 */
public final class ChildProcess {

  /** The shell that starts each binary and runs its watcher. */
  public static final Path SHELL = Path.of("/bin/sh");

  static final String WATCHDOG_SCRIPT =
      "jvm=$1; shift; child=$$\n"
          + "(\n"
          + "  while kill -0 \"$jvm\" 2>/dev/null && kill -0 \"$child\" 2>/dev/null; do sleep 1; done\n"
          + "  if kill -0 \"$child\" 2>/dev/null; then\n"
          + "    kill -TERM \"$child\" 2>/dev/null\n"
          + "    n=0\n"
          + "    while [ \"$n\" -lt 3 ] && kill -0 \"$child\" 2>/dev/null; do sleep 1; n=$((n + 1)); done\n"
          + "    kill -0 \"$child\" 2>/dev/null && kill -KILL \"$child\" 2>/dev/null\n"
          + "  fi\n"
          + ") </dev/null >/dev/null 2>&1 &\n"
          + "exec \"$@\"\n";

  private static final Duration KILL_WAIT = Duration.ofSeconds(5);
  private static final Duration LOG_DRAIN_WAIT = Duration.ofSeconds(2);

  private final String name;
  private final Path binary;
  private final Process process;
  private final LogRing ring;
  private final Thread logCopier;
  private final long startNanos;
  private volatile long exitNanos;

  private ChildProcess(String name, Path binary, Process process, LogRing ring, Path logFile) {
    this.name = name;
    this.binary = binary;
    this.process = process;
    this.ring = ring;
    this.startNanos = System.nanoTime();
    process.onExit().thenRun(() -> exitNanos = System.nanoTime());
    Logger processLog = LoggerFactory.getLogger("dev.ctk.envtest.process." + name);
    this.logCopier =
        new Thread(() -> copyLog(processLog, logFile), "ctk-log-" + name + "-" + process.pid());
    logCopier.setDaemon(true);
    logCopier.start();
  }

  /**
   * Starts {@code command} (binary first) through the watchdog shell.
   *
   * @param name a short name for logs and messages, e.g. {@code kube-apiserver}
   * @param command the binary and its arguments
   * @param logFile where the output goes (created or replaced)
   * @param logLines how many last lines to keep for messages
   * @return the running process
   * @throws EnvtestException when it cannot be started (no {@code /bin/sh}, binary not executable)
   */
  public static ChildProcess start(String name, List<String> command, Path logFile, int logLines) {
    if (!Files.isExecutable(SHELL)) {
      throw new EnvtestException(
          "Cannot start "
              + name
              + ": ctk starts local binaries through "
              + SHELL
              + " (it runs the watchdog that stops them if the JVM dies), and "
              + SHELL
              + " is missing or not executable. Local binaries need a POSIX system (Linux,"
              + " macOS); elsewhere use container mode (-Dctk.mode=container).");
    }
    List<String> shellCommand = new ArrayList<>();
    shellCommand.add(SHELL.toString());
    shellCommand.add("-c");
    shellCommand.add(WATCHDOG_SCRIPT);
    shellCommand.add("ctk-watchdog");
    shellCommand.add(Long.toString(ProcessHandle.current().pid()));
    shellCommand.addAll(command);
    try {
      Process process =
          new ProcessBuilder(shellCommand)
              .redirectErrorStream(true)
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .start();
      return new ChildProcess(name, Path.of(command.get(0)), process, new LogRing(logLines), logFile);
    } catch (IOException e) {
      throw new EnvtestException(
          "Cannot start " + name + " (" + command.get(0) + "): " + e.getMessage() + ".", e);
    }
  }

  /**
   * The short name given at start.
   *
   * @return e.g. {@code etcd}
   */
  public String name() {
    return name;
  }

  /**
   * The binary that runs.
   *
   * @return its path
   */
  public Path binary() {
    return binary;
  }

  /**
   * The process id of the binary (the watchdog shell {@code exec}s it, so it keeps the shell's).
   *
   * @return the pid
   */
  public long pid() {
    return process.pid();
  }

  /**
   * Whether the binary still runs.
   *
   * @return whether it runs
   */
  public boolean isAlive() {
    return process.isAlive();
  }

  /**
   * The exit code once the binary has ended ({@code 128 + n} when signal {@code n} ended it).
   *
   * @return the code, or empty while it runs
   */
  public OptionalInt exitCode() {
    return process.isAlive() ? OptionalInt.empty() : OptionalInt.of(process.exitValue());
  }

  /**
   * How long the binary ran, or has run so far.
   *
   * @return the duration since start, up to its exit
   */
  public Duration runTime() {
    long end = process.isAlive() || exitNanos == 0 ? System.nanoTime() : exitNanos;
    return Duration.ofNanos(end - startNanos);
  }

  /**
   * The last log lines with a heading, see {@link LogRing#describe()}; after an exit it first
   * waits (at most 2 s) until the output is read to its end.
   *
   * @return the text
   */
  public String describeLog() {
    if (!process.isAlive()) {
      awaitLogCopied();
    }
    return ring.describe();
  }

  /**
   * Whether any kept log line contains {@code text}.
   *
   * @param text the text to look for
   * @return whether it is there
   */
  public boolean logContains(String text) {
    if (!process.isAlive()) {
      awaitLogCopied();
    }
    return ring.lines().stream().anyMatch(line -> line.contains(text));
  }

  /**
   * Stops the binary: TERM, then KILL if it still runs after {@code grace}; then ends the watchdog
   * shell. Returns at once when the binary has already ended.
   *
   * @param grace how long to wait after TERM
   * @return whether KILL was needed
   * @throws EnvtestException when the binary still runs 5 s after KILL
   */
  public synchronized boolean stop(Duration grace) {
    List<ProcessHandle> watchdog = process.descendants().toList();
    boolean killed = false;
    if (process.isAlive()) {
      // Through the handle: Process.destroy() would also close our end of the output pipe, so the
      // last lines would be lost and the binary's next write would end it with SIGPIPE.
      process.toHandle().destroy();
      if (!waitFor(grace)) {
        killed = true;
        process.toHandle().destroyForcibly();
        if (!waitFor(KILL_WAIT)) {
          throw new EnvtestException(
              name
                  + " (pid "
                  + pid()
                  + ") still runs "
                  + DurationText.of(KILL_WAIT)
                  + " after SIGKILL; it may be stuck in the kernel (e.g. on a dead disk or"
                  + " mount). Check it with `ps -o pid,stat,wchan -p "
                  + pid()
                  + "` and end it by hand.");
        }
      }
    }
    watchdog.forEach(ProcessHandle::destroyForcibly);
    awaitLogCopied();
    return killed;
  }

  private boolean waitFor(Duration timeout) {
    try {
      return process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.toHandle().destroyForcibly();
      throw new EnvtestException(
          "Interrupted while stopping " + name + " (pid " + pid() + "); sent SIGKILL.", e);
    }
  }

  private void awaitLogCopied() {
    try {
      logCopier.join(LOG_DRAIN_WAIT.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void copyLog(Logger processLog, Path logFile) {
    BufferedWriter out = openLogFile(processLog, logFile);
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        ring.add(line);
        processLog.debug("{}", line);
        out = writeLine(processLog, logFile, out, line);
      }
    } catch (IOException | UncheckedIOException e) {
      processLog.debug("stopped reading the output of {} (pid {})", name, process.pid(), e);
    } finally {
      if (out != null) {
        try {
          out.close();
        } catch (IOException e) {
          processLog.debug("could not close {}", logFile, e);
        }
      }
    }
  }

  private static BufferedWriter openLogFile(Logger processLog, Path logFile) {
    try {
      return Files.newBufferedWriter(logFile, StandardCharsets.UTF_8);
    } catch (IOException e) {
      processLog.warn("cannot write log file {}; keeping only the last lines in memory", logFile, e);
      return null;
    }
  }

  /** Writes one line; on failure stops writing the file (reading goes on, so the child never blocks). */
  private static BufferedWriter writeLine(
      Logger processLog, Path logFile, BufferedWriter out, String line) {
    if (out == null) {
      return null;
    }
    try {
      out.write(line);
      out.newLine();
      out.flush();
      return out;
    } catch (IOException e) {
      processLog.debug("stopped writing log file {}", logFile, e);
      try {
        out.close();
      } catch (IOException closeFailure) {
        e.addSuppressed(closeFailure);
      }
      return null;
    }
  }

  @Override
  public String toString() {
    return name + " (pid " + process.pid() + ", " + binary + ")";
  }
}
