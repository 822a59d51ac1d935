package dev.ctk.envtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctk.envtest.values.EnvtestException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code withControllerManager()}: kube-controller-manager's garbage collector and namespace controller beside a
 * local kube-apiserver. The real-binary tests need a version folder in ctk's cache that holds a
 * kube-controller-manager ({@code .ci/provision-envtest} builds one for 1.37.2); without one they skip with the
 * reason, unless {@code CTK_REQUIRE_ENVTEST=true}, which turns that into a failure.
 */
class LocalControllerManagerTest {

  @Test
  void a_folder_without_kube_controller_manager_fails_start_with_the_fix(@TempDir Path assets) throws IOException {
    // GIVEN a setup-envtest-like folder, and the note provision-envtest leaves when it cannot build the binary
    FakeBinaries.healthyEtcd(assets);
    FakeBinaries.kubeApiServer(assets, "1.32.13", "sleep 60");
    Files.writeString(assets.resolve("kube-controller-manager.unavailable"), "k8s.io/endpointslice@v0.32.13: 403\n");
    LocalApiServer server = LocalApiServer.builder().withAssetsDirectory(assets).withControllerManager().build();
    // WHEN / THEN
    assertThatThrownBy(server::start)
        .isInstanceOf(EnvtestException.class)
        .hasMessage("withControllerManager(): no executable kube-controller-manager beside kube-apiserver 1.32.13 in "
            + assets + " (kube-controller-manager.unavailable there says why it was not built: "
            + "k8s.io/endpointslice@v0.32.13: 403). setup-envtest's archives do not have it; ctk's"
            + " .ci/provision-envtest builds it where the Go module proxy serves every module it needs. Fix: put a"
            + " kube-controller-manager v1.32.13 into " + assets + ", choose a version that has one"
            + " (ctk.envtest.version), or drop withControllerManager().");
    assertThat(server.processIds()).isEmpty();
  }

  @Nested
  class WithRealBinaries {

    private static LocalApiServer server;

    private LocalApiServer server() {
      if (server == null) {
        Path folder = folderWithControllerManager().orElseGet(() -> {
          String reason = "no version folder with a kube-controller-manager in " + cacheRoot()
              + "/k8s (.ci/provision-envtest builds one where it can)";
          if ("true".equalsIgnoreCase(System.getenv("CTK_REQUIRE_ENVTEST"))) {
            throw new EnvtestException("CTK_REQUIRE_ENVTEST=true but " + reason);
          }
          Assumptions.abort(reason);
          return null;
        });
        server = LocalApiServer.builder().withAssetsDirectory(folder).withControllerManager().build().start();
      }
      return server;
    }

    @AfterAll
    static void stop() {
      if (server != null) {
        server.close();
      }
    }

    @Test
    void says_it_runs_cluster_controllers() {
      assertThat(server().runsClusterControllers()).isTrue();
    }

    @Test
    void collects_an_object_whose_owner_never_existed() {
      ClusterControllerChecks.collectsAnObjectWhoseOwnerNeverExisted(server());
    }

    @Test
    void a_deleted_namespace_is_terminating_then_emptied_and_gone() {
      ClusterControllerChecks.deletedNamespaceIsTerminatingThenGone(server());
    }
  }

  private static Path cacheRoot() {
    String cache = System.getenv("CTK_ENVTEST_CACHE");
    return cache != null ? Path.of(cache) : Path.of(System.getProperty("user.home"), ".cache", "ctk", "envtest");
  }

  /** The highest version folder in ctk's cache with an executable kube-controller-manager. */
  private static Optional<Path> folderWithControllerManager() {
    Path k8s = cacheRoot().resolve("k8s");
    if (!Files.isDirectory(k8s)) {
      return Optional.empty();
    }
    try (Stream<Path> folders = Files.list(k8s)) {
      return folders.filter(f -> Files.isExecutable(f.resolve("kube-controller-manager")))
          .max(Comparator.comparing(f -> version(f.getFileName().toString())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code 1.37.2-linux-amd64} as a sortable key. */
  private static String version(String folder) {
    StringBuilder key = new StringBuilder();
    for (String part : folder.split("-")[0].split("\\.")) {
      key.append(String.format("%05d", Integer.parseInt(part)));
    }
    return key.toString();
  }
}
