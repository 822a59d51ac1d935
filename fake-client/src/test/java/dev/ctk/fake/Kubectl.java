package dev.ctk.fake;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The real kubectl from the PATH, pointed at one kubeconfig, for tests that drive the fake the way users do.
 * {@link #onPathOrSkip(Path)} skips the calling test with a reason when kubectl is not installed.
 */
public final class Kubectl {

  /** What a kubectl run printed (stdout and stderr together) and its exit code. */
  public record Run(int exitCode, String output) {
  }

  private final String executable;
  private final Path kubeconfig;

  private Kubectl(String executable, Path kubeconfig) {
    this.executable = executable;
    this.kubeconfig = kubeconfig;
  }

  /**
   * kubectl from the PATH for this kubeconfig; aborts (skips) the current test when there is none.
   *
   * @param kubeconfig the kubeconfig every run uses
   * @return the kubectl runner
   */
  public static Kubectl onPathOrSkip(Path kubeconfig) {
    Optional<Path> found = onPath("kubectl");
    Assumptions.assumeTrue(found.isPresent(), "kubectl is not on the PATH; install kubectl to run this test");
    return new Kubectl(found.get().toString(), kubeconfig);
  }

  /**
   * A process builder for a kubectl command that the test runs itself (e.g. a long-running watch).
   *
   * @param args kubectl's arguments
   * @return the builder, stderr merged into stdout, KUBECONFIG set
   */
  public ProcessBuilder command(String... args) {
    List<String> command = new ArrayList<>();
    command.add(executable);
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("KUBECONFIG", kubeconfig.toString());
    return builder;
  }

  /**
   * Starts a kubectl command that keeps running (e.g. {@code get -w}); its output lines are collected as they come.
   *
   * @param args kubectl's arguments
   * @return the running command; closing it stops kubectl
   */
  public Background start(String... args) throws IOException {
    return new Background(command(args).start());
  }

  /** A kubectl command left running, with what it printed so far, line by line. */
  public static final class Background implements AutoCloseable {

    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();

    private Background(Process process) {
      this.process = process;
      Thread reader = new Thread(() -> {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8))) {
          String line;
          while ((line = out.readLine()) != null) {
            lines.add(line);
          }
        } catch (IOException e) {
          lines.add("read failed: " + e);
        }
      }, "kubectl-output");
      reader.setDaemon(true);
      reader.start();
    }

    /** The lines printed so far (stdout and stderr together). */
    public List<String> lines() {
      return lines;
    }

    /** Stops kubectl and waits (at most 10 s) until it has exited. */
    @Override
    public void close() {
      process.destroy();
      try {
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Runs kubectl and asserts it exits with 0.
   *
   * @param args kubectl's arguments
   * @return what it printed
   */
  public String ok(String... args) throws IOException, InterruptedException {
    return ok(List.of(), args);
  }

  /**
   * Runs kubectl with extra environment variables and asserts it exits with 0.
   *
   * @param env {@code NAME=value} entries
   * @param args kubectl's arguments
   * @return what it printed
   */
  public String ok(List<String> env, String... args) throws IOException, InterruptedException {
    Run run = run(env, args);
    assertThat(run.exitCode()).as("kubectl %s exit code; output:%n%s", String.join(" ", args), run.output())
        .isZero();
    return run.output();
  }

  /**
   * Runs kubectl to the end (at most 60 s).
   *
   * @param env {@code NAME=value} entries
   * @param args kubectl's arguments
   * @return its exit code and output
   */
  public Run run(List<String> env, String... args) throws IOException, InterruptedException {
    ProcessBuilder builder = command(args);
    for (String variable : env) {
      int eq = variable.indexOf('=');
      builder.environment().put(variable.substring(0, eq), variable.substring(eq + 1));
    }
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("kubectl %s finished", args[0]).isTrue();
    return new Run(process.exitValue(), output);
  }

  private static Optional<Path> onPath(String program) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String entry : path.split(File.pathSeparator)) {
      Path candidate = Path.of(entry, program);
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
