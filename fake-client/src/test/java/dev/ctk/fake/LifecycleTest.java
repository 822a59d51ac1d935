package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.WatchLines;
import dev.ctk.fake.values.FakeClusterException;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
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
    assertThat(httpWatch.status().join()).isEqualTo(200);
    assertThat(httpWatch.failure()).as("the stream ended with its last chunk, not a broken connection").isNull();
    assertThat(httpWatch.endedCleanly()).isTrue();
    assertThat(cluster.server().store().watchHub().openWatches()).as("watches left registered").isEmpty();
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
  void portOfAnotherFake_failsAsATakenPortDoes_andIsFreeAgainOnceItCloses() throws IOException {
    // all fakes of a JVM listen on one Vert.x instance, which shares a port between two of its servers that ask for
    // the same one; two fakes must not share
    int port = freePort();
    try (FakeCluster first = FakeCluster.builder().withPort(port).build()) {
      assertThatThrownBy(() -> FakeCluster.builder().withPort(port).build())
          .isInstanceOf(FakeClusterException.class)
          .hasMessage("Cannot start the fake API server on 127.0.0.1:" + port + ": Address already in use by another "
              + "fake cluster of this JVM. Close that cluster first, or choose another port with withPort(..), or "
              + "withPort(0) for a free one.");
      assertThat(first.client().configMaps().list().getItems()).as("the first fake still answers").isEmpty();
    }
    try (FakeCluster again = FakeCluster.builder().withPort(port).build()) {
      assertThat(URI.create(again.url()).getPort()).isEqualTo(port);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
      return socket.getLocalPort();
    }
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
  void closedCluster_refusesWritesAndEvents_withTheSameMessage() {
    FakeCluster cluster = FakeCluster.start();
    ConfigMap existing = cluster.create(configMap("a", Map.of()));
    String rv = cluster.resourceVersion();
    cluster.close();

    String prefix = "FakeCluster at " + cluster.url() + " is closed; ";
    String suffix = " needs a running cluster. Build a new one with FakeCluster.builder()...build().";
    ConfigMap next = configMap("after-close", Map.of());
    EventInjector events = cluster.events();
    assertThatThrownBy(() -> cluster.create(next)).isInstanceOf(IllegalStateException.class)
        .hasMessage(prefix + "create(..)" + suffix);
    assertThatThrownBy(() -> events.add(next)).hasMessage(prefix + "EventInjector.add(..)" + suffix);
    assertThatThrownBy(() -> events.update(existing)).hasMessage(prefix + "EventInjector.update(..)" + suffix);
    assertThatThrownBy(() -> events.delete(existing)).hasMessage(prefix + "EventInjector.delete(..)" + suffix);
    assertThatThrownBy(() -> events.emitAdded(existing)).hasMessage(prefix + "EventInjector.emitAdded(..)" + suffix);
    assertThatThrownBy(() -> events.emitModified(existing, "1"))
        .hasMessage(prefix + "EventInjector.emitModified(..)" + suffix);
    assertThatThrownBy(() -> events.emitDeleted(existing))
        .hasMessage(prefix + "EventInjector.emitDeleted(..)" + suffix);
    assertThat(cluster.resourceVersion()).as("nothing was written after close()").isEqualTo(rv);
  }

  @Test
  void watchOpenedAfterShutdownBegan_endsAtOnce_andIsNotRegistered() {
    FakeCluster cluster = FakeCluster.start();
    try {
      cluster.server().store().closeWatches();
      WatchLines late = new RawApi(cluster.url()).watch("/api/v1/namespaces/default/configmaps?watch=true");
      await("the late watch ended").atMost(Duration.ofSeconds(10)).until(late::hasEnded);
      assertThat(late.status().join()).isEqualTo(200);
      assertThat(late.endedCleanly()).isTrue();
      assertThat(late.events()).isEmpty();
      assertThat(cluster.server().store().watchHub().openWatches()).isEmpty();
    } finally {
      cluster.close();
    }
  }

  @Test
  void hostThatIsNotLocal_failsNamingTheHostProblem_notThePort() {
    assertThatThrownBy(() -> FakeCluster.builder().withHost("no-such-host.invalid").build())
        .isInstanceOf(FakeClusterException.class)
        .hasMessageStartingWith("Cannot start the fake API server on no-such-host.invalid:0: ")
        .hasMessageEndingWith(". The host \"no-such-host.invalid\" is not an address of this machine (or does not "
            + "resolve). Choose a local one with withHost(..): 127.0.0.1 (the default), localhost, or 0.0.0.0 for "
            + "every interface.")
        .hasMessageNotContaining("port");
    assertThatThrownBy(() -> FakeCluster.builder().withHost("192.0.2.1").build())
        .isInstanceOf(FakeClusterException.class)
        .hasMessage("Cannot start the fake API server on 192.0.2.1:0: Cannot assign requested address. The host "
            + "\"192.0.2.1\" is not an address of this machine (or does not resolve). Choose a local one with "
            + "withHost(..): 127.0.0.1 (the default), localhost, or 0.0.0.0 for every interface.");
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
