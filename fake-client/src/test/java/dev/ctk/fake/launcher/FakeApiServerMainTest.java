package dev.ctk.fake.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.fake.FakeCluster;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The standalone launcher, in-process and as a child JVM (port in use, SIGTERM). */
class FakeApiServerMainTest {

  @TempDir
  Path dir;

  @Test
  void launch_writesKubeconfig_andPrintsOneLine() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Path kubeconfig = dir.resolve("kc.yaml");
    FakeApiServerMain.Launch launch = FakeApiServerMain.launch(new String[] {"--port", "0", "--kubeconfig",
        kubeconfig.toString()}, print(out), print(err));
    try (FakeCluster cluster = launch.cluster()) {
      assertThat(launch.exitCode()).isZero();
      assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("ctk fake API server listening on " + cluster.url()
          + "; kubeconfig: " + kubeconfig.toAbsolutePath() + "; run: export KUBECONFIG=" + kubeconfig.toAbsolutePath()
          + System.lineSeparator());
      assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
      try (KubernetesClient client = new KubernetesClientBuilder()
          .withConfig(Config.fromKubeconfig(Files.readString(kubeconfig))).build()) {
        assertThat(client.namespaces().list().getItems()).extracting(n -> n.getMetadata().getName())
            .containsExactly("default", "kube-node-lease", "kube-public", "kube-system");
        assertThat(client.getNamespace()).isEqualTo("default");
      }
    }
  }

  @Test
  void help_andBadArguments() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertThat(FakeApiServerMain.launch(new String[] {"--help"}, print(out), print(err)).exitCode()).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(FakeApiServerMain.USAGE);

    FakeApiServerMain.Launch bad = FakeApiServerMain.launch(new String[] {"--port", "x"}, print(out), print(err));
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.cluster()).isNull();
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("ctk-fake-apiserver: --port needs a number between 0 "
        + "and 65535, got \"x\"" + System.lineSeparator() + FakeApiServerMain.USAGE);
  }

  @Test
  void seedFileProblem_exitsWithOne() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Path missing = dir.resolve("missing.yaml");
    FakeApiServerMain.Launch launch = FakeApiServerMain.launch(new String[] {"--port", "0", "--seed",
        missing.toString(), "--kubeconfig", dir.resolve("k").toString()}, print(new ByteArrayOutputStream()),
        print(err));
    assertThat(launch.exitCode()).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("ctk-fake-apiserver: Cannot seed the fake cluster: "
        + "file " + missing.toAbsolutePath() + " does not exist. Check the path (relative paths resolve against the "
        + "working directory " + Path.of("").toAbsolutePath() + "), or use withClasspathResources(..) for files on "
        + "the classpath." + System.lineSeparator());
  }

  @Test
  void hostThatIsNotLocal_printsTheHostProblem_notPortInUse_andExitsWithTwo() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    FakeApiServerMain.Launch launch = FakeApiServerMain.launch(new String[] {"--port", "0", "--host", "192.0.2.1",
        "--kubeconfig", dir.resolve("k").toString()}, print(new ByteArrayOutputStream()), print(err));
    assertThat(launch.exitCode()).isEqualTo(2);
    assertThat(launch.cluster()).isNull();
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("ctk-fake-apiserver: cannot listen on 192.0.2.1:0: "
        + "Cannot assign requested address. The host \"192.0.2.1\" is not an address of this machine (or does not "
        + "resolve). Choose another --host: 127.0.0.1 (the default), localhost, or 0.0.0.0 for every interface."
        + System.lineSeparator());
  }

  @Test
  void portInUse_printsOneClearMessage_andExitsWithTwo() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
      int port = taken.getLocalPort();
      Child child = Child.start(dir, "--port", Integer.toString(port), "--kubeconfig",
          dir.resolve("k").toString());
      assertThat(child.process.waitFor(60, TimeUnit.SECONDS)).as("the launcher exits").isTrue();
      assertThat(child.process.exitValue()).isEqualTo(2);
      assertThat(child.stderrLines()).containsExactly("ctk-fake-apiserver: cannot listen on 127.0.0.1:" + port
          + ": the address is already in use (another process holds the port). Choose another --port, or --port 0 "
          + "for a free one.");
    }
  }

  @Test
  void sigterm_stopsCleanly() throws Exception {
    Path kubeconfig = dir.resolve("kc");
    Child child = Child.start(dir, "--port", "0", "--kubeconfig", kubeconfig.toString());
    try (BufferedReader stdout = new BufferedReader(new InputStreamReader(child.process.getInputStream(),
        StandardCharsets.UTF_8))) {
      String line = stdout.readLine();
      assertThat(line).startsWith("ctk fake API server listening on http://127.0.0.1:")
          .endsWith("; run: export KUBECONFIG=" + kubeconfig.toAbsolutePath());
      assertThat(Files.readString(kubeconfig)).contains("current-context: ctk-fake");
      child.process.destroy();
      assertThat(child.process.waitFor(60, TimeUnit.SECONDS)).as("the launcher stops on SIGTERM").isTrue();
      assertThat(child.process.exitValue()).isEqualTo(143);
      assertThat(child.stderrLines()).isEmpty();
    } finally {
      child.process.destroyForcibly();
    }
  }

  private static PrintStream print(ByteArrayOutputStream bytes) {
    return new PrintStream(bytes, true, StandardCharsets.UTF_8);
  }

  /** The launcher in a child JVM on the test class path. */
  private record Child(Process process, Path stderr) {
    static Child start(Path dir, String... args) throws IOException {
      String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
      List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
          .toString(), "-cp", classPath, FakeApiServerMain.class.getName()));
      command.addAll(List.of(args));
      Path stderr = Files.createTempFile(dir, "stderr", ".txt");
      Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
      return new Child(process, stderr);
    }

    List<String> stderrLines() throws IOException {
      return Files.readAllLines(stderr).stream().filter(l -> !l.isBlank()).toList();
    }
  }
}
