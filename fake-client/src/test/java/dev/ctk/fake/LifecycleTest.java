package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.WatchLines;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Starting, configuring and closing a cluster. */
class LifecycleTest {

  @TempDir
  Path dir;

  @Test
  void close_isIdempotent_stopsWatchesAndLeavesNoThreadOfItsOwn() {
    Set<Thread> before = Thread.getAllStackTraces().keySet();
    FakeCluster cluster = FakeCluster.start();
    SharedIndexInformer<ConfigMap> informer = cluster.client().configMaps().inNamespace("default").inform();
    WatchLines httpWatch = new RawApi(cluster.url()).watch("/api/v1/namespaces/default/configmaps?watch=true");
    cluster.create(configMap("a", Map.of()));
    await().atMost(Duration.ofSeconds(10)).until(() -> httpWatch.summary().contains("ADDED a"));

    cluster.close();
    cluster.close();

    await("the HTTP watch ended with the cluster").atMost(Duration.ofSeconds(10)).until(httpWatch::hasEnded);
    informer.close();
    assertThat(Thread.getAllStackTraces().keySet().stream()
        .filter(t -> !before.contains(t) && t.isAlive() && !t.isDaemon())
        .map(Thread::getName)
        // Netty's process-wide GlobalEventExecutor thread ends by itself after one idle second
        .filter(name -> !name.startsWith("globalEventExecutor"))
        // the test's own Awaitility poller
        .filter(name -> !name.startsWith("awaitility"))
        .collect(Collectors.toList()))
        .as("non-daemon threads started by the cluster and still alive after close()").isEmpty();
    assertThatThrownBy(cluster::client).isInstanceOf(IllegalStateException.class)
        .hasMessage("FakeCluster at " + cluster.url() + " is closed; client() needs a running cluster. Build a new "
            + "one with FakeCluster.builder()...build().");
  }

  @Test
  void portInUse_failsWithMessageAndFix() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
      int port = taken.getLocalPort();
      assertThatThrownBy(() -> FakeCluster.builder().withPort(port).build())
          .isInstanceOf(FakeClusterException.class)
          .hasMessage("Cannot start the fake API server on 127.0.0.1:" + port + ": Address already in use. Another "
              + "process holds that port. Choose another port with withPort(..), or withPort(0) for a free one.");
    }
  }

  @Test
  void clientConfig_comesFromNothingButTheCluster() {
    try (FakeCluster cluster = FakeCluster.start()) {
      Config config = cluster.clientConfig();
      assertThat(config.getMasterUrl()).isEqualTo(cluster.url() + "/");
      assertThat(config.getNamespace()).isEqualTo("default");
      assertThat(config.getOauthToken()).isNull();
      assertThat(config.getUsername()).isNull();
      assertThat(config.getCurrentContext()).isNull();
      assertThat(cluster.url()).isEqualTo("http://127.0.0.1:" + cluster.port());
      try (KubernetesClient own = cluster.newClient()) {
        assertThat(own.configMaps().list().getItems()).isEmpty();
      }
      assertThat(cluster.client().namespaces().withName("default").get()).isNotNull();
    }
  }

  @Test
  void kubeconfig_namesContextCtkFake_andWorksForFabric8() throws IOException {
    try (FakeCluster cluster = FakeCluster.start()) {
      Path file = cluster.writeKubeconfig(dir.resolve("sub/kubeconfig"));
      String text = Files.readString(file);
      assertThat(text).isEqualTo(cluster.kubeconfig());
      assertThat(text).contains("    server: " + cluster.url() + "\n", "current-context: ctk-fake\n",
          "    namespace: default\n");
      Config fromFile = Config.fromKubeconfig(text);
      assertThat(fromFile.getMasterUrl()).isEqualTo(cluster.url() + "/");
      assertThat(fromFile.getCurrentContext().getName()).isEqualTo("ctk-fake");
    }
  }

  @Test
  void resourceVersion_isTheGlobalCounter() {
    try (FakeCluster cluster = FakeCluster.start()) {
      long before = Long.parseLong(cluster.resourceVersion());
      ConfigMap created = cluster.create(configMap("a", Map.of()));
      assertThat(created.getMetadata().getResourceVersion()).isEqualTo(Long.toString(before + 1));
      assertThat(cluster.resourceVersion()).isEqualTo(Long.toString(before + 1));
    }
  }
}
