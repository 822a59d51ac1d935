package dev.ctk.fake;

import static dev.ctk.fake.WatchFaultCloseTest.WAIT;
import static dev.ctk.fake.WatchFaultCloseTest.cache;
import static dev.ctk.fake.WatchFaultCloseTest.inform;
import static dev.ctk.fake.WatchFaultCloseTest.rv;
import static dev.ctk.fake.testing.Fixtures.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.fake.WatchFaultCloseTest.Recorder;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Delivery rules (duplicate, delay, reorder) as real fabric8 informers experience them. */
class WatchFaultDeliveryTest {

  private static final WatchPattern CONFIG_MAPS = WatchPattern.kind("ConfigMap");

  @Test
  void duplicate_sendsEachEventTwice_andAFabric8InformerIgnoresTheCopies() {
    try (FakeCluster cluster = FakeCluster.start()) {
      Recorder recorder = new Recorder();
      SharedIndexInformer<ConfigMap> informer = inform(cluster, recorder, 0);
      String watch = cluster.watchFaults().openWatches().get(0);
      WatchRule duplicate = cluster.watchFaults().duplicate(CONFIG_MAPS);

      ConfigMap a = cluster.create(configMap("a", Map.of("v", "1")));
      ConfigMap a2 = cluster.client().configMaps().inNamespace("default").withName("a")
          .edit(c -> withData(c, "2"));
      cluster.client().configMaps().inNamespace("default").withName("a").delete();
      duplicate.remove();
      ConfigMap b = cluster.create(configMap("b", Map.of("v", "1")));

      // b comes after every copy on the same stream: once the informer has b, it has handled the copies
      await("the informer sees b").atMost(WAIT).until(() -> cache(informer).contains("b@" + rv(b)));
      String deletedRv = cluster.watchFaults().deliveries().stream()
          .filter(d -> "DELETED".equals(d.eventType())).findFirst().orElseThrow().resourceVersion();
      await("the handler saw b").atMost(WAIT).until(() -> recorder.calls.contains("add b@" + rv(b)));
      assertThat(recorder.calls).as("same resourceVersion twice: fabric8 calls no handler for the copy")
          .containsExactly("add a@" + rv(a), "update a@" + rv(a2), "delete a@" + deletedRv, "add b@" + rv(b));
      assertThat(duplicate.fired()).isEqualTo(3);
      assertThat(summaries(cluster, "a")).containsExactly(
          watch + ": ADDED default/a rv=" + rv(a) + " DELIVERED",
          watch + ": ADDED default/a rv=" + rv(a) + " DUPLICATED (duplicate(ConfigMap))",
          watch + ": ADDED default/a rv=" + rv(a) + " DELIVERED",
          watch + ": MODIFIED default/a rv=" + rv(a2) + " DELIVERED",
          watch + ": MODIFIED default/a rv=" + rv(a2) + " DUPLICATED (duplicate(ConfigMap))",
          watch + ": MODIFIED default/a rv=" + rv(a2) + " DELIVERED",
          watch + ": DELETED default/a rv=" + deletedRv + " DELIVERED",
          watch + ": DELETED default/a rv=" + deletedRv + " DUPLICATED (duplicate(ConfigMap))",
          watch + ": DELETED default/a rv=" + deletedRv + " DELIVERED");
      informer.close();
    }
  }

  @Test
  void delay_deliversEveryEventLater_inOrder() {
    try (FakeCluster cluster = FakeCluster.start()) {
      Recorder recorder = new Recorder();
      SharedIndexInformer<ConfigMap> informer = inform(cluster, recorder, 0);
      Duration delay = Duration.ofMillis(300);
      WatchRule rule = cluster.watchFaults().delay(CONFIG_MAPS.inNamespace("default"), delay);

      ConfigMap a = cluster.create(configMap("a", Map.of("v", "1")));
      ConfigMap a2 = cluster.client().configMaps().inNamespace("default").withName("a").edit(c -> withData(c, "2"));
      ConfigMap a3 = cluster.client().configMaps().inNamespace("default").withName("a").edit(c -> withData(c, "3"));

      await("the informer catches up").atMost(WAIT).until(() -> cache(informer).equals(List.of("a@" + rv(a3))));
      await("the handler saw every change").atMost(WAIT).until(() -> recorder.calls.size() == 3);
      assertThat(recorder.calls).containsExactly("add a@" + rv(a), "update a@" + rv(a2), "update a@" + rv(a3));
      assertThat(rule.fired()).isEqualTo(3);
      List<WatchDelivery> deliveries = cluster.watchFaults().deliveries().stream()
          .filter(d -> "a".equals(d.name())).toList();
      assertThat(deliveries).extracting(d -> d.resourceVersion() + " " + d.outcome()).containsExactly(
          rv(a) + " DELAYED", rv(a2) + " DELAYED", rv(a3) + " DELAYED",
          rv(a) + " DELIVERED", rv(a2) + " DELIVERED", rv(a3) + " DELIVERED");
      assertThat(deliveries).extracting(WatchDelivery::detail).containsOnly("delay(ConfigMap in default, 300ms)");
      for (int i = 0; i < 3; i++) {
        // not a timing check but the rule's meaning: never sent before its delay. 10 ms of slack for the wall clock
        // these records carry against the monotonic clock the delay is measured on
        assertThat(Duration.between(deliveries.get(i).time(), deliveries.get(i + 3).time()))
            .as("time from DELAYED to DELIVERED of %s", deliveries.get(i).resourceVersion())
            .isGreaterThanOrEqualTo(delay.minusMillis(10));
      }
      informer.close();
    }
  }

  @Test
  void reorder_reversesEachWindow_soTheInformerEndsOnAnOlderState_andAPartlyFilledWindowIsSentInOrderOnRemove() {
    try (FakeCluster cluster = FakeCluster.start()) {
      Recorder recorder = new Recorder();
      SharedIndexInformer<ConfigMap> informer = inform(cluster, recorder, 0);
      String watch = cluster.watchFaults().openWatches().get(0);
      ConfigMap a = cluster.create(configMap("a", Map.of("v", "1")));
      await("the informer sees a").atMost(WAIT).until(() -> cache(informer).contains("a@" + rv(a)));
      WatchRule reorder = cluster.watchFaults().reorder(CONFIG_MAPS, 3);

      ConfigMap a2 = edit(cluster, "2");
      ConfigMap a3 = edit(cluster, "3");
      ConfigMap a4 = edit(cluster, "4");

      await("the handler saw the window").atMost(WAIT).until(() -> recorder.calls.size() == 4);
      assertThat(recorder.calls).containsExactly("add a@" + rv(a), "update a@" + rv(a4), "update a@" + rv(a3),
          "update a@" + rv(a2));
      assertThat(cache(informer)).as("the cache keeps the last state it was sent, an older one")
          .containsExactly("a@" + rv(a2));
      assertThat(rv(cluster.client().configMaps().inNamespace("default").withName("a").get())).isEqualTo(rv(a4));
      assertThat(summaries(cluster, "a")).filteredOn(s -> s.contains("REORDERED")).containsExactly(
          watch + ": MODIFIED default/a rv=" + rv(a4) + " REORDERED (reorder(ConfigMap, window of 3): sent 1st of "
              + "a window of 3 (committed 3rd))",
          watch + ": MODIFIED default/a rv=" + rv(a3) + " REORDERED (reorder(ConfigMap, window of 3): sent 2nd of "
              + "a window of 3 (committed 2nd))",
          watch + ": MODIFIED default/a rv=" + rv(a2) + " REORDERED (reorder(ConfigMap, window of 3): sent 3rd of "
              + "a window of 3 (committed 1st))");

      ConfigMap a5 = edit(cluster, "5");
      assertThat(summaries(cluster, "a")).as("one event waits for its window").noneMatch(s -> s.contains(
          "rv=" + rv(a5)));
      reorder.remove();

      await("the partly filled window is sent").atMost(WAIT).until(() -> cache(informer).equals(List.of("a@"
          + rv(a5))));
      assertThat(summaries(cluster, "a")).last().isEqualTo(watch + ": MODIFIED default/a rv=" + rv(a5)
          + " DELIVERED");
      assertThat(reorder.fired()).isEqualTo(4);
      informer.close();
    }
  }

  private static ConfigMap edit(FakeCluster cluster, String value) {
    return cluster.client().configMaps().inNamespace("default").withName("a").edit(c -> withData(c, value));
  }

  private static ConfigMap withData(ConfigMap c, String value) {
    c.setData(Map.of("v", value));
    return c;
  }

  private static List<String> summaries(FakeCluster cluster, String name) {
    return cluster.watchFaults().deliveries().stream().filter(d -> name.equals(d.name()))
        .map(WatchDelivery::summary).toList();
  }
}
