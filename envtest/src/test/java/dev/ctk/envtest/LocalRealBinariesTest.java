package dev.ctk.envtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.ctk.envtest.internal.WorkDirectory;
import dev.ctk.envtest.values.EnvtestException;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Against the real binaries that discovery finds (on ctk's CI machines: the ctk cache folder).
 * Without binaries the class is skipped with the discovery message, unless {@code
 * CTK_REQUIRE_ENVTEST=true}, which turns that into a failure.
 */
class LocalRealBinariesTest {

  private static EnvtestAssets assets;
  private static LocalApiServer server;

  @BeforeAll
  static void startServer() {
    assets = assetsOrSkip();
    server = LocalApiServer.builder().withAssetsDirectory(assets.directory()).build().start();
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  static EnvtestAssets assetsOrSkip() {
    try {
      return EnvtestAssets.find(null);
    } catch (EnvtestException e) {
      if ("true".equalsIgnoreCase(System.getenv("CTK_REQUIRE_ENVTEST"))) {
        throw e;
      }
      Assumptions.abort(e.getMessage());
      throw e;
    }
  }

  @Test
  void stores_a_config_map_through_newClient() {
    ConfigMap created;
    try (KubernetesClient client = server.newClient()) {
      created =
          client
              .configMaps()
              .inNamespace("default")
              .resource(
                  new ConfigMapBuilder()
                      .withNewMetadata()
                      .withName("ctk-local")
                      .endMetadata()
                      .withData(Map.of("a", "1", "b", "2"))
                      .build())
              .create();
      ConfigMap read = client.configMaps().inNamespace("default").withName("ctk-local").get();

      assertThat(read.getData()).isEqualTo(Map.of("a", "1", "b", "2"));
      assertThat(read.getMetadata().getResourceVersion())
          .isEqualTo(created.getMetadata().getResourceVersion())
          .isNotBlank();
    }
  }

  @Test
  void reports_the_version_url_and_description() {
    assertThat(server.version()).isEqualTo("v" + assets.version());
    assertThat(server.url()).matches("https://127\\.0\\.0\\.1:\\d+");
    assertThat(server.description())
        .isEqualTo(
            "local kube-apiserver "
                + server.version()
                + " ("
                + assets.directory()
                + ") at "
                + server.url());
    assertThat(server.runsClusterControllers()).isFalse();
  }

  @Test
  void kubeconfig_reaches_the_server_as_admin_trusting_its_certificate() {
    Config config = Config.fromKubeconfig(server.kubeconfig());

    assertThat(config.isTrustCerts()).isFalse();
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      assertThat(client.namespaces().withName("kube-system").get()).isNotNull();
      assertThat(client.getKubernetesVersion().getGitVersion()).isEqualTo(server.version());
    }
  }

  @Test
  void clientConfig_returns_a_fresh_object_each_time() {
    Config first = server.clientConfig();
    first.setNamespace("changed");

    assertThat(server.clientConfig().getNamespace()).isEqualTo("default");
    assertThat(server.clientConfig().getMasterUrl()).startsWith(server.url());
  }

  @Test
  void an_etcd_killed_after_start_is_reported_and_the_shared_server_is_not_handed_out_again() {
    SharedApiServers shared = new SharedApiServers(false);
    LocalApiServer second = LocalApiServer.builder().withAssetsDirectory(assets.directory()).build();
    ApiServer handedOut = shared.obtain("crash", second::start);
    try {
      assertThat(handedOut.exited()).as("while both run").isEmpty();
      long etcd = second.processIds().get(0);

      ProcessHandle.of(etcd).orElseThrow().destroyForcibly();

      await("etcd's exit seen").atMost(Duration.ofSeconds(10)).until(() -> handedOut.exited().isPresent());
      assertThat(handedOut.exited().orElseThrow())
          .startsWith("etcd (pid " + etcd + ") exited with code 137 after ")
          .contains(", after the server had started (" + assets.etcd() + ").");
      EnvtestException reuse = catchThrowableOfType(EnvtestException.class, () -> shared.obtain("crash", () -> {
        throw new AssertionError("not started again");
      }));
      assertThat(reuse).isExactlyInstanceOf(EnvtestException.class);   // fails, never skips
      assertThat(reuse.getMessage()).startsWith("Shared API server \"crash\" stopped serving: etcd (pid " + etcd
          + ") exited with code 137").contains("It is not started again in this JVM");
      assertThat(second.processIds()).as("what was left of it is stopped").noneMatch(Processes::running);
      assertThat(catchThrowableOfType(EnvtestException.class, () -> shared.obtain("crash", () -> {
        throw new AssertionError("not started again");
      }))).as("later uses").hasMessage(reuse.getMessage());
    } finally {
      shared.closeAll();
    }
  }

  @Test
  void close_stops_both_processes_and_is_idempotent() {
    LocalApiServer second =
        LocalApiServer.builder().withAssetsDirectory(assets.directory()).build().start();
    List<Long> pids = second.processIds();
    assertThat(pids).hasSize(2).allMatch(Processes::running);

    second.close();
    second.close();

    assertThat(pids).noneMatch(Processes::running);
  }

  @Test
  void binaries_die_within_seconds_and_the_next_start_removes_the_work_folder_when_the_parent_jvm_is_killed()
      throws IOException, InterruptedException {
    Process parent = startParent("wait");
    List<String> output = outputOf(parent);
    try {
      List<Long> pids = awaitPids(parent, output);
      assertThat(pids).allMatch(Processes::running);
      Path workDirectory = workDirectory(output).orElseThrow();
      assertThat(workDirectory.resolve("tokens.csv")).exists();

      parent.destroyForcibly(); // SIGKILL: no shutdown hook runs, only the watchdogs can act
      assertThat(parent.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

      Processes.awaitGone(pids, Duration.ofSeconds(10));
      // the dead JVM could not delete its folder (etcd data, token, key); the next start here does
      assertThat(workDirectory).isDirectory();
      WorkDirectory.create().delete();
      assertThat(workDirectory).doesNotExist();
    } finally {
      parent.destroyForcibly();
      workDirectory(output).ifPresent(dir -> new WorkDirectory(dir).delete());
    }
  }

  @Test
  void the_shutdown_hook_closes_a_server_left_open_at_jvm_exit() throws IOException {
    Process parent = startParent("exit");
    List<String> output = outputOf(parent);
    try {
      List<Long> pids = awaitPids(parent, output);
      Path workDirectory = workDirectory(output).orElseThrow();

      await("the parent JVM to exit; its output: " + output)
          .atMost(Duration.ofSeconds(60))
          .until(() -> !parent.isAlive());

      // the hook ran to its end before the JVM exited: processes stopped, folder deleted
      assertThat(parent.exitValue()).isZero();
      assertThat(pids).noneMatch(Processes::running);
      assertThat(workDirectory).doesNotExist();
      assertThat(output).anyMatch(line -> line.contains("INFO dev.ctk.envtest.LocalApiServer - stopped"));
    } finally {
      parent.destroyForcibly();
    }
  }

  private static Process startParent(String mode) throws IOException {
    return new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp",
            System.getProperty("java.class.path"),
            LocalParentMain.class.getName(),
            assets.directory().toString(),
            mode)
        .redirectErrorStream(true)
        .start();
  }

  private static List<String> outputOf(Process parent) {
    List<String> output = new CopyOnWriteArrayList<>();
    Thread reader = new Thread(() -> readLines(parent, output), "parent-output");
    reader.setDaemon(true);
    reader.start();
    return output;
  }

  private static List<Long> awaitPids(Process parent, List<String> output) {
    await("child JVM to print the pids of etcd and kube-apiserver; its output so far: " + output)
        .atMost(Duration.ofSeconds(120))
        .until(() -> workDirectory(output).isPresent() || !parent.isAlive());
    String pidsLine =
        output.stream()
            .filter(line -> line.startsWith("pids "))
            .findFirst()
            .orElseThrow(() -> new AssertionError("child JVM ended without printing pids: " + output));
    List<Long> pids = Arrays.stream(pidsLine.substring(5).split(" ")).map(Long::valueOf).toList();
    assertThat(pids).hasSize(2);
    return pids;
  }

  private static Optional<Path> workDirectory(List<String> output) {
    return output.stream()
        .filter(line -> line.startsWith("workdir "))
        .map(line -> Path.of(line.substring("workdir ".length())))
        .findFirst();
  }

  private static void readLines(Process process, List<String> into) {
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        into.add(line);
      }
    } catch (IOException e) {
      into.add("reading failed: " + e);
    }
  }
}
