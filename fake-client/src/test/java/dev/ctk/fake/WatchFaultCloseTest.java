package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.WatchLines;
import dev.ctk.fake.values.WatchDelivery;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One-shot watch faults against real fabric8 informers: close (the informer re-watches) and expire (the informer
 * relists), and a dropped DELETED that only a relist repairs.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(ClientTransport.class)
class WatchFaultCloseTest {

  @Parameter
  ClientTransport transport;

  static final Duration WAIT = Duration.ofSeconds(20);
  private static final WatchPattern CONFIG_MAPS = WatchPattern.kind("ConfigMap");

  /** What an informer's handler saw: {@code add a@5}, {@code update a@6}, {@code delete a@7}; and its lists. */
  static final class Recorder implements ResourceEventHandler<ConfigMap> {
    final List<String> calls = new CopyOnWriteArrayList<>();
    final AtomicInteger lists = new AtomicInteger();

    @Override
    public void onBeforeList(String lastSyncResourceVersion) {
      lists.incrementAndGet();
    }

    @Override
    public void onAdd(ConfigMap obj) {
      calls.add("add " + key(obj));
    }

    @Override
    public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {
      calls.add("update " + key(newObj));
    }

    @Override
    public void onDelete(ConfigMap obj, boolean deletedFinalStateUnknown) {
      calls.add("delete " + key(obj) + (deletedFinalStateUnknown ? " (final state unknown)" : ""));
    }

    private static String key(ConfigMap c) {
      return c.getMetadata().getName() + "@" + c.getMetadata().getResourceVersion();
    }
  }

  /** Starts an informer on ConfigMaps in default and waits until it is synced and its watch is open. */
  static SharedIndexInformer<ConfigMap> inform(FakeCluster cluster, ResourceEventHandler<ConfigMap> handler,
      int watchesBefore) {
    SharedIndexInformer<ConfigMap> informer = cluster.client().configMaps().inNamespace("default").inform(handler);
    await("the informer has synced").atMost(WAIT).until(informer::hasSynced);
    await("the informer's watch is open").atMost(WAIT)
        .until(() -> cluster.watchFaults().openWatches().size() == watchesBefore + 1);
    return informer;
  }

  /** What the informer's cache holds: {@code name@resourceVersion}, sorted. */
  static List<String> cache(SharedIndexInformer<ConfigMap> informer) {
    return informer.getStore().list().stream()
        .map(c -> c.getMetadata().getName() + "@" + c.getMetadata().getResourceVersion()).sorted().toList();
  }

  static String rv(ConfigMap c) {
    return c.getMetadata().getResourceVersion();
  }

  /** {@code c} with {@code data} set to {@code v=value}. */
  static ConfigMap withData(ConfigMap c, String value) {
    c.setData(Map.of("v", value));
    return c;
  }

  /** Sets {@code v} of ConfigMap {@code default/a} through the cluster's client; returns it as written. */
  static ConfigMap editA(FakeCluster cluster, String value) {
    return cluster.client().configMaps().inNamespace("default").withName("a").edit(c -> withData(c, value));
  }

  /**
   * The start of most informer tests here: a cluster with one informer on ConfigMaps in default, its watch open,
   * that has seen ConfigMap {@code a} ({@code v=1}). Closing it closes the informer and the cluster.
   *
   * @param cluster the cluster
   * @param recorder what the informer's handler saw
   * @param informer the informer
   * @param watch the informer's watch as {@link WatchFaults#openWatches()} names it
   * @param a ConfigMap {@code a} as created
   */
  record InformedCluster(FakeCluster cluster, Recorder recorder, SharedIndexInformer<ConfigMap> informer,
      String watch, ConfigMap a) implements AutoCloseable {

    static InformedCluster start(ClientTransport transport) {
      FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).build();
      Recorder recorder = new Recorder();
      SharedIndexInformer<ConfigMap> informer = inform(cluster, recorder, 0);
      String watch = cluster.watchFaults().openWatches().get(0);
      ConfigMap a = cluster.create(configMap("a", Map.of("v", "1")));
      await("the informer sees a").atMost(WAIT).until(() -> cache(informer).contains("a@" + rv(a)));
      return new InformedCluster(cluster, recorder, informer, watch, a);
    }

    /** Sets {@code v} of ConfigMap {@code a}; returns it as written. */
    ConfigMap editA(String value) {
      return WatchFaultCloseTest.editA(cluster, value);
    }

    @Override
    public void close() {
      informer.close();
      cluster.close();
    }
  }

  @Test
  void close_endsTheStream_andTheInformerWatchesAgainFromItsLastResourceVersion_withoutRelisting() {
    // the watch must have delivered something (a): fabric8 7.8 relists when a watch younger than 2 s ends cleanly
    // without any event (its guard against proxies that close instead of answering 410)
    try (InformedCluster informed = InformedCluster.start(transport)) {
      FakeCluster cluster = informed.cluster();
      String first = informed.watch();

      int hit = cluster.watchFaults().close(CONFIG_MAPS);

      assertThat(hit).isEqualTo(1);
      await("the informer watches again").atMost(WAIT).until(() -> cluster.watchFaults().openWatches().size() == 1
          && !cluster.watchFaults().openWatches().get(0).equals(first));
      ConfigMap a = informed.a();
      ConfigMap b = cluster.create(configMap("b", Map.of("v", "1")));
      await("the informer sees b").atMost(WAIT).untilAsserted(() ->
          assertThat(cache(informed.informer())).containsExactly("a@" + rv(a), "b@" + rv(b)));
      assertThat(informed.recorder().lists).as("lists: a closed watch is resumed, not relisted").hasValue(1);
      assertThat(informed.recorder().calls).containsExactly("add a@" + rv(a), "add b@" + rv(b));
      assertThat(cluster.watchFaults().deliveries()).filteredOn(d -> d.outcome() == WatchDelivery.Outcome.CLOSED)
          .extracting(WatchDelivery::summary)
          .containsExactly(first + ": CLOSED (close(ConfigMap))");
      assertThat(cluster.watchFaults().close(WatchPattern.kind("Secret"))).as("no Secret watch is open").isZero();
    }
  }

  @Test
  void expire_sendsKubes410ErrorEvent_andTheInformerRelists() {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).build()) {
      ConfigMap a = cluster.create(configMap("a", Map.of("v", "1")));
      Recorder recorder = new Recorder();
      SharedIndexInformer<ConfigMap> informer = inform(cluster, recorder, 0);
      String first = cluster.watchFaults().openWatches().get(0);

      int hit = cluster.watchFaults().expire(CONFIG_MAPS);

      assertThat(hit).isEqualTo(1);
      await("the informer relists after 410 Gone").atMost(WAIT).until(() -> recorder.lists.get() == 2);
      await("the informer watches again").atMost(WAIT).until(() -> cluster.watchFaults().openWatches().size() == 1
          && !cluster.watchFaults().openWatches().get(0).equals(first));
      ConfigMap b = cluster.create(configMap("b", Map.of("v", "1")));
      await("the informer sees b").atMost(WAIT).untilAsserted(() ->
          assertThat(cache(informer)).containsExactly("a@" + rv(a), "b@" + rv(b)));
      assertThat(cluster.watchFaults().deliveries()).filteredOn(d -> d.outcome() == WatchDelivery.Outcome.EXPIRED)
          .extracting(WatchDelivery::summary)
          .containsExactly(first + ": ERROR EXPIRED (expire(ConfigMap))");
      informer.close();
    }
  }

  @Test
  void expire_errorEventIsKubesExpiredStatus_namingTheLastResourceVersionTheWatchSent() {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).build()) {
      ConfigMap a = cluster.create(configMap("a", Map.of("v", "1")));
      try (WatchLines watch = new RawApi(cluster.url())
          .watch("/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=" + rv(a))) {
        await("the watch is open").atMost(WAIT).until(() -> cluster.watchFaults().openWatches().size() == 1);
        ConfigMap b = cluster.create(configMap("b", Map.of("v", "1")));
        await("b arrives").atMost(WAIT).until(() -> watch.events().size() == 1);
        cluster.create(new SecretBuilder().withNewMetadata().withName("other-kind").withNamespace("default")
            .endMetadata().build());

        assertThat(cluster.watchFaults().expire(WatchPattern.kind("configmaps").inNamespace("default"))).isOne();

        await("the stream ends").atMost(WAIT).until(watch::hasEnded);
        JsonNode error = watch.events().get(watch.events().size() - 1);
        assertThat(error.toString()).isEqualTo("{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":"
            + "\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\"too old resource version: " + rv(b) + " ("
            + cluster.resourceVersion() + ")\",\"reason\":\"Expired\",\"code\":410}}");
      }
    }
  }

  @Test
  void drop_aDroppedDeleteLeavesTheInformerCacheStale_untilARelistRepairsIt() {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).build()) {
      ConfigMap a = cluster.create(configMap("a", Map.of("v", "1")));
      Recorder recorder = new Recorder();
      SharedIndexInformer<ConfigMap> informer = inform(cluster, recorder, 0);
      WatchRule drop = cluster.watchFaults().drop(CONFIG_MAPS.inNamespace("default"));

      cluster.client().configMaps().inNamespace("default").withName("a").delete();
      drop.remove();
      ConfigMap b = cluster.create(configMap("b", Map.of("v", "1")));

      await("the informer sees b").atMost(WAIT).until(() -> cache(informer).contains("b@" + rv(b)));
      assertThat(cache(informer)).as("a is gone from the API but not from the cache")
          .containsExactly("a@" + rv(a), "b@" + rv(b));
      assertThat(cluster.client().configMaps().inNamespace("default").withName("a").get()).isNull();
      assertThat(drop.fired()).isOne();
      assertThat(drop.isActive()).isFalse();
      String deleteRv = cluster.watchFaults().deliveries().stream()
          .filter(d -> d.outcome() == WatchDelivery.Outcome.DROPPED).findFirst().orElseThrow().resourceVersion();
      assertThat(cluster.watchFaults().deliveries()).filteredOn(d -> d.outcome() == WatchDelivery.Outcome.DROPPED)
          .extracting(WatchDelivery::summary)
          .containsExactly(cluster.watchFaults().openWatches().get(0) + ": DELETED default/a rv=" + deleteRv
              + " DROPPED (drop(ConfigMap in default))");

      cluster.watchFaults().expire(CONFIG_MAPS);

      await("the relist removes a").atMost(WAIT).untilAsserted(() ->
          assertThat(cache(informer)).containsExactly("b@" + rv(b)));
      await("the handler is told").atMost(WAIT).untilAsserted(() -> assertThat(recorder.calls)
          .containsExactly("add a@" + rv(a), "add b@" + rv(b), "delete a@" + rv(a) + " (final state unknown)"));
      informer.close();
    }
  }
}
