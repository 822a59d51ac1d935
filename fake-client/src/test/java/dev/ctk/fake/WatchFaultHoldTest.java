package dev.ctk.fake;

import static dev.ctk.fake.WatchFaultCloseTest.WAIT;
import static dev.ctk.fake.WatchFaultCloseTest.cache;
import static dev.ctk.fake.WatchFaultCloseTest.rv;
import static dev.ctk.fake.WatchFaultCloseTest.withData;
import static dev.ctk.fake.testing.Fixtures.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.fake.WatchFaultCloseTest.InformedCluster;
import dev.ctk.fake.WatchFaultCloseTest.Recorder;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.WatchLines;
import dev.ctk.fake.values.WatchDelivery;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Holding delivery: a stale informer cache while reads stay fresh, then release. */
@ParameterizedClass(name = "{0}")
@EnumSource(ClientTransport.class)
class WatchFaultHoldTest {

  @Parameter
  ClientTransport transport;

  private static final WatchPattern IN_DEFAULT = WatchPattern.kind("ConfigMap").inNamespace("default");

  @Test
  void hold_keepsTheInformerCacheStaleWhileGetIsFresh_thenReleaseDeliversEverythingInOrder() {
    try (InformedCluster informed = InformedCluster.start(transport);
        // a control: a watch across all namespaces, which the hold does not match
        WatchLines control = new RawApi(informed.cluster().url())
            .watch("/api/v1/configmaps?watch=true&resourceVersion=" + rv(informed.a()))) {
      FakeCluster cluster = informed.cluster();
      String watch = informed.watch();
      ConfigMap a = informed.a();
      await("the control watch is open").atMost(WAIT).until(() -> cluster.watchFaults().openWatches().size() == 2);
      HeldDelivery hold = cluster.watchFaults().hold(IN_DEFAULT);

      ConfigMap a2 = informed.editA("2");
      ConfigMap b = cluster.create(configMap("b", Map.of("v", "1")));
      cluster.client().configMaps().inNamespace("default").withName("a").delete();

      await("the control watch has every change").atMost(WAIT).until(() -> control.events().size() == 3);
      assertThat(cluster.client().configMaps().inNamespace("default").withName("a").get()).as("GET is fresh")
          .isNull();
      assertThat(cache(informed.informer())).as("the informer cache is stale").containsExactly("a@" + rv(a));
      assertThat(informed.recorder().calls).containsExactly("add a@" + rv(a));
      assertThat(hold.held()).isEqualTo(3);
      assertThat(cluster.watchFaults().deliveries()).filteredOn(d -> d.outcome() == WatchDelivery.Outcome.HELD)
          .extracting(d -> d.eventType() + " " + d.name() + " " + d.detail())
          .containsExactly("MODIFIED a hold(ConfigMap in default)", "ADDED b hold(ConfigMap in default)",
              "DELETED a hold(ConfigMap in default)");

      assertThat(hold.release()).isEqualTo(3);

      await("the informer catches up").atMost(WAIT)
          .until(() -> cache(informed.informer()).equals(List.of("b@" + rv(b))));
      await("the handlers saw every change").atMost(WAIT).until(() -> informed.recorder().calls.size() == 4);
      String deletedRv = cluster.watchFaults().deliveries().stream()
          .filter(d -> "DELETED".equals(d.eventType())).findFirst().orElseThrow().resourceVersion();
      assertThat(informed.recorder().calls).containsExactly("add a@" + rv(a), "update a@" + rv(a2),
          "add b@" + rv(b), "delete a@" + deletedRv);
      assertThat(cluster.watchFaults().deliveries()).filteredOn(d -> d.outcome() == WatchDelivery.Outcome.RELEASED)
          .extracting(WatchDelivery::summary).containsExactly(
              watch + ": MODIFIED default/a rv=" + rv(a2) + " RELEASED (hold(ConfigMap in default))",
              watch + ": ADDED default/b rv=" + rv(b) + " RELEASED (hold(ConfigMap in default))",
              watch + ": DELETED default/a rv=" + deletedRv + " RELEASED (hold(ConfigMap in default))");
      assertThat(hold.isActive()).isFalse();
      assertThat(hold.release()).as("a second release").isZero();
    }
  }

  @Test
  void hold_onALabelSelector_holdsOnlyTheInformerThatWatchesWithIt() {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).build()) {
      Map<String, String> labels = Map.of("tier", "web", "app", "shop");
      ConfigMap shared = cluster.create(configMap("shared", labels, Map.of("v", "1")));
      Recorder web = new Recorder();
      Recorder shop = new Recorder();
      SharedIndexInformer<ConfigMap> webInformer = cluster.client().configMaps().inNamespace("default")
          .withLabel("tier", "web").inform(web);
      SharedIndexInformer<ConfigMap> shopInformer = cluster.client().configMaps().inNamespace("default")
          .withLabels(Map.of("app", "shop")).inform(shop);
      await("both informers watch").atMost(WAIT).until(() -> cluster.watchFaults().openWatches().size() == 2);
      assertThat(cluster.watchFaults().openWatches()).extracting(w -> w.substring(w.indexOf(' ', 7) + 1))
          .containsExactlyInAnyOrder("ConfigMap in default labelSelector=tier=web",
              "ConfigMap in default labelSelector=app=shop");
      HeldDelivery hold = cluster.watchFaults().hold(WatchPattern.kind("configmaps").labelSelector("tier=web"));

      ConfigMap changed = cluster.client().configMaps().inNamespace("default").withName("shared")
          .edit(c -> withData(c, "2"));

      await("the shop informer sees the change").atMost(WAIT).until(() -> cache(shopInformer)
          .equals(List.of("shared@" + rv(changed))));
      assertThat(hold.held()).isOne();
      assertThat(cache(webInformer)).containsExactly("shared@" + rv(shared));
      assertThat(web.calls).containsExactly("add shared@" + rv(shared));

      hold.release();

      await("the web informer catches up").atMost(WAIT).until(() -> web.calls.size() == 2);
      assertThat(web.calls).containsExactly("add shared@" + rv(shared), "update shared@" + rv(changed));
      assertThat(shop.calls).containsExactly("add shared@" + rv(shared), "update shared@" + rv(changed));
      webInformer.close();
      shopInformer.close();
    }
  }

  @Test
  void hold_whenTheHeldWatchEnds_itsEventsAreDiscarded_theReWatchIsHeldAgain_andReleaseDeliversEachChangeOnce() {
    try (InformedCluster informed = InformedCluster.start(transport)) {
      FakeCluster cluster = informed.cluster();
      String first = informed.watch();
      ConfigMap a = informed.a();
      HeldDelivery hold = cluster.watchFaults().hold(IN_DEFAULT);
      ConfigMap a2 = informed.editA("2");

      assertThat(cluster.watchFaults().close(IN_DEFAULT)).isOne();

      await("the informer watches again").atMost(WAIT).until(() -> cluster.watchFaults().openWatches().size() == 1
          && !cluster.watchFaults().openWatches().get(0).equals(first));
      String second = cluster.watchFaults().openWatches().get(0);
      await("the re-watch replays a2, held").atMost(WAIT).until(() -> hold.held() == 1);
      assertThat(cluster.watchFaults().deliveries()).filteredOn(d -> rv(a2).equals(d.resourceVersion()))
          .extracting(WatchDelivery::summary).containsExactly(
              first + ": MODIFIED default/a rv=" + rv(a2) + " HELD (hold(ConfigMap in default))",
              first + ": MODIFIED default/a rv=" + rv(a2) + " DROPPED (discarded: the watch ended before it was "
                  + "sent (a client that re-watches from its last resourceVersion receives it again from the watch "
                  + "history))",
              second + ": MODIFIED default/a rv=" + rv(a2) + " HELD (hold(ConfigMap in default))");
      assertThat(cache(informed.informer())).containsExactly("a@" + rv(a));
      assertThat(informed.recorder().lists).as("resumed, not relisted").hasValue(1);

      assertThat(hold.release()).isOne();

      await("the informer catches up").atMost(WAIT)
          .until(() -> cache(informed.informer()).equals(List.of("a@" + rv(a2))));
      await("the handler saw the change").atMost(WAIT).until(() -> informed.recorder().calls.size() == 2);
      assertThat(informed.recorder().calls).containsExactly("add a@" + rv(a), "update a@" + rv(a2));
    }
  }
}
