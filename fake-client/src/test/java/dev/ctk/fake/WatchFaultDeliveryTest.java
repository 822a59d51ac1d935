package dev.ctk.fake;

import static dev.ctk.fake.WatchFaultCloseTest.WAIT;
import static dev.ctk.fake.WatchFaultCloseTest.cache;
import static dev.ctk.fake.WatchFaultCloseTest.editA;
import static dev.ctk.fake.WatchFaultCloseTest.inform;
import static dev.ctk.fake.WatchFaultCloseTest.rv;
import static dev.ctk.fake.testing.Fixtures.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.fake.WatchFaultCloseTest.InformedCluster;
import dev.ctk.fake.WatchFaultCloseTest.Recorder;
import dev.ctk.fake.values.WatchDelivery;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Delivery rules (duplicate, delay, reorder) as real fabric8 informers experience them. */
@ParameterizedClass(name = "{0}")
@EnumSource(ClientTransport.class)
class WatchFaultDeliveryTest {

  @Parameter
  ClientTransport transport;

  private static final WatchPattern CONFIG_MAPS = WatchPattern.kind("ConfigMap");

  @Test
  void duplicate_sendsEachEventTwice_andAFabric8InformerIgnoresTheCopies() {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).build()) {
      Recorder recorder = new Recorder();
      SharedIndexInformer<ConfigMap> informer = inform(cluster, recorder, 0);
      String watch = cluster.watchFaults().openWatches().get(0);
      WatchRule duplicate = cluster.watchFaults().duplicate(CONFIG_MAPS);

      ConfigMap a = cluster.create(configMap("a", Map.of("v", "1")));
      ConfigMap a2 = editA(cluster, "2");
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
  void delay_deliversNothingWhileTheDelayIsPending_thenEveryEvent_inOrder() {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).build()) {
      Recorder recorder = new Recorder();
      SharedIndexInformer<ConfigMap> informer = inform(cluster, recorder, 0);
      WatchRule rule = cluster.watchFaults().delay(CONFIG_MAPS.inNamespace("default"), Duration.ofSeconds(2));

      ConfigMap a = cluster.create(configMap("a", Map.of("v", "1")));
      ConfigMap a2 = editA(cluster, "2");
      ConfigMap a3 = editA(cluster, "3");

      // three local writes take far less than the 2 s delay: nothing has reached the informer yet
      assertThat(cache(informer)).as("the informer's cache while the delay is pending").isEmpty();
      assertThat(recorder.calls).as("handler calls while the delay is pending").isEmpty();
      await("the informer catches up").atMost(WAIT).until(() -> cache(informer).equals(List.of("a@" + rv(a3))));
      await("the handler saw every change").atMost(WAIT).until(() -> recorder.calls.size() == 3);
      assertThat(recorder.calls).containsExactly("add a@" + rv(a), "update a@" + rv(a2), "update a@" + rv(a3));
      assertThat(rule.fired()).isEqualTo(3);
      List<String> outcomes = cluster.watchFaults().deliveries().stream().filter(d -> "a".equals(d.name()))
          .map(d -> d.resourceVersion() + " " + d.outcome()).toList();
      assertThat(outcomes).filteredOn(o -> o.endsWith(" DELIVERED")).as("sent in commit order")
          .containsExactly(rv(a) + " DELIVERED", rv(a2) + " DELIVERED", rv(a3) + " DELIVERED");
      for (ConfigMap c : List.of(a, a2, a3)) {
        assertThat(outcomes.indexOf(rv(c) + " DELAYED")).as("DELAYED of %s comes before its DELIVERED", rv(c))
            .isNotNegative().isLessThan(outcomes.indexOf(rv(c) + " DELIVERED"));
      }
      assertThat(cluster.watchFaults().deliveries()).filteredOn(d -> "a".equals(d.name()))
          .extracting(WatchDelivery::detail).containsOnly("delay(ConfigMap in default, 2s)");
      informer.close();
    }
  }

  @Test
  void reorder_reversesEachWindow_soTheInformerEndsOnAnOlderState_andAPartlyFilledWindowIsSentInOrderOnRemove() {
    try (InformedCluster informed = InformedCluster.start(transport)) {
      FakeCluster cluster = informed.cluster();
      Recorder recorder = informed.recorder();
      String watch = informed.watch();
      ConfigMap a = informed.a();
      WatchRule reorder = cluster.watchFaults().reorder(CONFIG_MAPS, 3);

      ConfigMap a2 = informed.editA("2");
      ConfigMap a3 = informed.editA("3");
      ConfigMap a4 = informed.editA("4");

      await("the handler saw the window").atMost(WAIT).until(() -> recorder.calls.size() == 4);
      assertThat(recorder.calls).containsExactly("add a@" + rv(a), "update a@" + rv(a4), "update a@" + rv(a3),
          "update a@" + rv(a2));
      assertThat(cache(informed.informer())).as("the cache keeps the last state it was sent, an older one")
          .containsExactly("a@" + rv(a2));
      assertThat(rv(cluster.client().configMaps().inNamespace("default").withName("a").get())).isEqualTo(rv(a4));
      assertThat(summaries(cluster, "a")).filteredOn(s -> s.contains("REORDERED")).containsExactly(
          watch + ": MODIFIED default/a rv=" + rv(a4) + " REORDERED (reorder(ConfigMap, window of 3): sent 1st of "
              + "a window of 3 (committed 3rd))",
          watch + ": MODIFIED default/a rv=" + rv(a3) + " REORDERED (reorder(ConfigMap, window of 3): sent 2nd of "
              + "a window of 3 (committed 2nd))",
          watch + ": MODIFIED default/a rv=" + rv(a2) + " REORDERED (reorder(ConfigMap, window of 3): sent 3rd of "
              + "a window of 3 (committed 1st))");

      ConfigMap a5 = informed.editA("5");
      assertThat(summaries(cluster, "a")).as("one event waits for its window").noneMatch(s -> s.contains(
          "rv=" + rv(a5)));
      reorder.remove();

      await("the partly filled window is sent").atMost(WAIT).until(() -> cache(informed.informer())
          .equals(List.of("a@" + rv(a5))));
      assertThat(summaries(cluster, "a")).last().isEqualTo(watch + ": MODIFIED default/a rv=" + rv(a5)
          + " DELIVERED");
      assertThat(reorder.fired()).isEqualTo(4);
    }
  }

  private static List<String> summaries(FakeCluster cluster, String name) {
    return cluster.watchFaults().deliveries().stream().filter(d -> name.equals(d.name()))
        .map(WatchDelivery::summary).toList();
  }
}
