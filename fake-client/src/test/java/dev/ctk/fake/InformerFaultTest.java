package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.fake.values.ApiRequestRecord;
import dev.ctk.fake.values.RequestPattern;
import dev.ctk.fake.values.WatchDelivery;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Faults at the server reach informers: their lists and watches fail, and they recover as against kube. */
@ParameterizedClass(name = "{0}")
@EnumSource(ClientTransport.class)
class InformerFaultTest {

  @Parameter
  ClientTransport transport;

  private static final Duration WAIT = Duration.ofSeconds(20);

  private static KubernetesClient client(FakeCluster cluster, boolean onlyHttpWatches) {
    Config config = cluster.clientConfig();
    config.setOnlyHttpWatches(onlyHttpWatches);
    return FakeClusterInternals.client(cluster, config);
  }

  private static List<Integer> codes(FakeCluster cluster, RequestPattern pattern) {
    return cluster.requests().entries(pattern).stream().map(ApiRequestRecord::code).toList();
  }

  @ParameterizedTest(name = "onlyHttpWatches={0}")
  @ValueSource(booleans = {false, true})
  void a500OnTheInitialList_isRetried_andTheInformerSyncs(boolean onlyHttpWatches) {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport)
        .withObjects(configMap("web", Map.of())).build();
        KubernetesClient client = client(cluster, onlyHttpWatches)) {
      cluster.faults().when(RequestPattern.list("ConfigMap")).once()
          .answer(ApiFault.internalError("etcdserver: leader changed"));
      SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace("default").runnableInformer(0)
          .exceptionHandler((started, t) -> true);
      informer.start();
      await("the informer synced after its failed list").atMost(WAIT).until(informer::hasSynced);
      assertThat(informer.getStore().listKeys()).containsExactly("default/web");
      assertThat(codes(cluster, RequestPattern.list("ConfigMap"))).containsExactly(500, 200);
      informer.close();
    }
  }

  @ParameterizedTest(name = "onlyHttpWatches={0}")
  @ValueSource(booleans = {false, true})
  void a410OnTheWatch_makesTheInformerRelistAndWatchAgain(boolean onlyHttpWatches) {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport)
        .withObjects(configMap("web", Map.of())).build();
        KubernetesClient client = client(cluster, onlyHttpWatches)) {
      cluster.faults().when(RequestPattern.watch("ConfigMap")).once()
          .answer(ApiFault.status(410, "Expired", "too old resource version: 1 (2)"));
      // the first watch is part of an informer's start: keep retrying through a failed start, as controllers do
      SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace("default").runnableInformer(0)
          .exceptionHandler((started, t) -> true);
      informer.start();
      int open = onlyHttpWatches ? 200 : 101;
      await("the informer watched again after the 410").atMost(WAIT)
          .until(() -> codes(cluster, RequestPattern.watch("ConfigMap")).contains(open));
      assertThat(codes(cluster, RequestPattern.watch("ConfigMap"))).containsExactly(410, open);
      assertThat(codes(cluster, RequestPattern.list("ConfigMap"))).containsExactly(200, 200);
      cluster.create(configMap("later", Map.of()));
      await("the informer sees changes after re-watching").atMost(WAIT)
          .until(() -> informer.getStore().getByKey("default/later") != null);
      informer.close();
    }
  }

  @ParameterizedTest(name = "onlyHttpWatches={0}")
  @ValueSource(booleans = {false, true})
  void a500OnTheWatch_makesTheInformerWatchAgain(boolean onlyHttpWatches) {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport)
        .withObjects(configMap("web", Map.of())).build();
        KubernetesClient client = client(cluster, onlyHttpWatches)) {
      cluster.faults().when(RequestPattern.watch("ConfigMap")).once()
          .answer(ApiFault.internalError("watch cache not ready"));
      // the first watch is part of an informer's start: keep retrying through a failed start, as controllers do
      SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace("default").runnableInformer(0)
          .exceptionHandler((started, t) -> true);
      informer.start();
      int open = onlyHttpWatches ? 200 : 101;
      await("the informer watched again after the 500").atMost(WAIT)
          .until(() -> codes(cluster, RequestPattern.watch("ConfigMap")).contains(open));
      assertThat(codes(cluster, RequestPattern.watch("ConfigMap"))).startsWith(500).endsWith(open);
      cluster.create(configMap("later", Map.of()));
      await("the informer sees changes after re-watching").atMost(WAIT)
          .until(() -> informer.getStore().getByKey("default/later") != null);
      informer.close();
    }
  }

  @ParameterizedTest(name = "onlyHttpWatches={0}")
  @ValueSource(booleans = {false, true})
  void aDelayedWatch_opensAfterTheDelay_andReplaysFromHistoryAChangeMadeWhileItWaited(boolean onlyHttpWatches) {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport)
        .withObjects(configMap("web", Map.of())).build();
        KubernetesClient client = client(cluster, onlyHttpWatches)) {
      FaultRule delay = cluster.faults().when(RequestPattern.watch("ConfigMap")).once()
          .answer(ApiFault.delay(Duration.ofSeconds(2)));
      SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace("default").runnableInformer(0);
      informer.start();
      await("the informer's watch request is received and delayed").atMost(WAIT).until(() -> delay.fired() == 1);

      ConfigMap later = cluster.create(configMap("later", Map.of()));

      // one local write takes far less than the 2 s delay: the watch is not open yet, so no live event can carry it
      assertThat(cluster.watchFaults().openWatches()).as("open watches when later was created").isEmpty();
      await("the informer sees later through its delayed watch").atMost(WAIT)
          .until(() -> informer.getStore().getByKey("default/later") != null);
      assertThat(cluster.requests().entries(RequestPattern.list("ConfigMap"))).as("one list, before later: no relist")
          .hasSize(1);
      List<WatchDelivery> laterDeliveries = cluster.watchFaults().deliveries().stream()
          .filter(d -> "later".equals(d.name())).toList();
      assertThat(laterDeliveries).as("replayed from the watch history when the watch opened").singleElement()
          .satisfies(d -> assertThat(d.eventType() + " rv=" + d.resourceVersion() + " " + d.outcome())
              .isEqualTo("ADDED rv=" + later.getMetadata().getResourceVersion() + " DELIVERED"));
      assertThat(cluster.requests().entries(RequestPattern.watch("ConfigMap"))).hasSize(1)
          .allSatisfy(r -> assertThat(r.fault()).isEqualTo("delay 2s"));
      informer.close();
    }
  }
}
