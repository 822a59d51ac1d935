package dev.ctk.envtest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Docker really unreachable, end to end through Testcontainers' own discovery: a child JVM with
 * {@code DOCKER_HOST} pointing at a socket that does not exist, a home folder without
 * Testcontainers settings, and (on a machine where Docker listens on the default socket) that
 * socket hidden in a private mount namespace ({@code unshare -m}, root on Linux), since
 * Testcontainers always falls back to it.
 */
class ContainerDockerUnreachableTest {

  private static final Path DEFAULT_SOCKET = Path.of("/var/run/docker.sock");

  @TempDir Path dir;

  @Test
  void start_fails_with_everything_tried_and_the_fix() throws Exception {
    Path home = Files.createDirectories(dir.resolve("home"));
    Path missing = dir.resolve("missing.sock");
    boolean hide = Files.exists(DEFAULT_SOCKET);
    List<String> command = new ArrayList<>();
    if (hide) {
      requireUnshare();
      command.addAll(
          List.of(
              "unshare", "-m", "sh", "-c",
              "mount --bind /dev/null " + DEFAULT_SOCKET + " && exec \"$0\" \"$@\""));
    }
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add("-Duser.home=" + home);
    command.add(ContainerUnreachableMain.class.getName());
    Path stdoutFile = dir.resolve("stdout.txt");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectOutput(stdoutFile.toFile())
            .redirectError(dir.resolve("stderr.txt").toFile());
    Map<String, String> environment = builder.environment();
    environment.remove("XDG_RUNTIME_DIR");
    environment.put("DOCKER_HOST", "unix://" + missing);

    Process child = builder.start();
    boolean finished;
    try {
      finished = child.waitFor(60, TimeUnit.SECONDS);
    } finally {
      child.destroyForcibly();
    }
    String stdout = Files.readString(stdoutFile);
    assertThat(finished).as("child JVM finished within 60s; stdout: %s", stdout).isTrue();

    assertThat(stdout.lines().filter(line -> line.startsWith("MESSAGE:")))
        .as("stdout %s, stderr %s", stdout, dir.resolve("stderr.txt"))
        .containsExactly(
            "MESSAGE:Docker is not running or not reachable (tried: DOCKER_HOST=unix://" + missing
                + " (no such file), tc.host=<unset> (~/.testcontainers.properties), unix://" + DEFAULT_SOCKET
                + (hide ? " (not a socket)" : " (no such file)")
                + ", $XDG_RUNTIME_DIR/docker.sock (XDG_RUNTIME_DIR unset), " + home.resolve(".docker/run/docker.sock")
                + " (no such file), " + home.resolve(".docker/desktop/docker.sock") + " (no such file);"
                + " Testcontainers said: Could not find a valid Docker environment. Please see logs and check"
                + " configuration). Start Docker, or run with -Dctk.mode=envtest for local binaries.");
    assertThat(child.exitValue()).isZero();
  }

  private static void requireUnshare() throws IOException, InterruptedException {
    Process probe;
    Path output = Files.createTempFile("ctk-unshare-", ".txt");
    try {
      probe =
          new ProcessBuilder("unshare", "-m", "sh", "-c", "mount --bind /dev/null " + DEFAULT_SOCKET)
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
    } catch (IOException e) {
      Assumptions.abort(
          "needs unshare -m (util-linux, root) to hide " + DEFAULT_SOCKET + " from Testcontainers: " + e.getMessage());
      return;
    }
    boolean finished = probe.waitFor(10, TimeUnit.SECONDS);
    if (!finished) {
      probe.destroyForcibly();
    }
    String said = Files.readString(output).strip();
    Files.delete(output);
    if (!finished || probe.exitValue() != 0) {
      Assumptions.abort(
          "needs unshare -m with mount rights (root on Linux) to hide " + DEFAULT_SOCKET
              + " from Testcontainers; here it "
              + (finished ? "said: " + said : "did not finish within 10s"));
    }
  }
}
