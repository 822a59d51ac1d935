package dev.ctk.fake;

import static dev.ctk.fake.WatchFaultCloseTest.WAIT;
import static dev.ctk.fake.WatchFaultCloseTest.cache;
import static dev.ctk.fake.WatchFaultCloseTest.rv;
import static dev.ctk.fake.WatchFaultCloseTest.withData;
import static dev.ctk.fake.testing.Fixtures.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ctk.fake.WatchFaultCloseTest.InformedCluster;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.WatchLines;
import dev.ctk.fake.values.WatchDelivery.Outcome;
import dev.ctk.fake.values.WatchDelivery;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** holdAfter (the first n events pass, later ones are held) and releaseCoalesced (only each object's net event). */
@ParameterizedClass(name = "{0}")
@EnumSource(ClientTransport.class)
class WatchFaultHoldAfterTest {

  @Parameter
  ClientTransport transport;

  private static final WatchPattern IN_DEFAULT = WatchPattern.kind("ConfigMap").inNamespace("default");

  @Test
  void holdAfter_letsTheFirstEventsPass_countedAcrossWatchesInDeliveryOrder_thenHoldsTheRest() {
    String path = "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=";
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).build();
        WatchLines first = new RawApi(cluster.url()).watch(path + cluster.resourceVersion())) {
      await("the first watch is open").atMost(WAIT).until(() -> cluster.watchFaults().openWatches().size() == 1);
      WatchLines second = new RawApi(cluster.url()).watch(path + cluster.resourceVersion());
      await("both watches are open").atMost(WAIT).until(() -> cluster.watchFaults().openWatches().size() == 2);
      List<String> watches = cluster.watchFaults().openWatches();
      HeldDelivery hold = cluster.watchFaults().holdAfter(WatchPattern.kind("ConfigMap"), 3);

      ConfigMap a = cluster.create(configMap("a", Map.of("v", "1")));
      ConfigMap b = cluster.create(configMap("b", Map.of("v", "1")));
      ConfigMap c = cluster.create(configMap("c", Map.of("v", "1")));

      await("the first watch has a and b").atMost(WAIT).until(() -> first.events().size() == 2);
      assertThat(first.summary()).containsExactly("ADDED a", "ADDED b");
      assertThat(second.summary()).containsExactly("ADDED a");
      assertThat(hold.held()).isEqualTo(3);
      assertThat(hold.description()).isEqualTo("holdAfter(ConfigMap, 3)");
      assertThat(cluster.watchFaults().rulesInForce()).containsExactly("holdAfter(ConfigMap, 3)");
      String w1 = watches.get(0);
      String w2 = watches.get(1);
      assertThat(cluster.watchFaults().deliveries()).extracting(WatchDelivery::summary).containsExactly(
          w1 + ": ADDED default/a rv=" + rv(a) + " DELIVERED",
          w2 + ": ADDED default/a rv=" + rv(a) + " DELIVERED",
          w1 + ": ADDED default/b rv=" + rv(b) + " DELIVERED",
          w2 + ": ADDED default/b rv=" + rv(b) + " HELD (holdAfter(ConfigMap, 3))",
          w1 + ": ADDED default/c rv=" + rv(c) + " HELD (holdAfter(ConfigMap, 3))",
          w2 + ": ADDED default/c rv=" + rv(c) + " HELD (holdAfter(ConfigMap, 3))");

      assertThat(hold.release()).isEqualTo(3);

      await("both watches have every event").atMost(WAIT)
          .until(() -> first.events().size() == 3 && second.events().size() == 3);
      assertThat(first.summary()).containsExactly("ADDED a", "ADDED b", "ADDED c");
      assertThat(second.summary()).containsExactly("ADDED a", "ADDED b", "ADDED c");
      assertThat(cluster.watchFaults().deliveries()).filteredOn(d -> d.outcome() == Outcome.RELEASED)
          .extracting(WatchDelivery::summary).containsExactly(
              w1 + ": ADDED default/c rv=" + rv(c) + " RELEASED (holdAfter(ConfigMap, 3))",
              w2 + ": ADDED default/b rv=" + rv(b) + " RELEASED (holdAfter(ConfigMap, 3))",
              w2 + ": ADDED default/c rv=" + rv(c) + " RELEASED (holdAfter(ConfigMap, 3))");
      assertThat(hold.fired()).as("events it held").isEqualTo(3);
      second.close();
    }
  }

  @Test
  void holdAfter_neverCountsNorHoldsBookmarks_butABookmarkWaitsBehindAHeldEvent() {
    String bookmarks = "?watch=true&allowWatchBookmarks=true&resourceVersion=";
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport)
        .withBookmarkInterval(Duration.ofMillis(100)).build();
        WatchLines watch = new RawApi(cluster.url()).watch("/api/v1/namespaces/default/configmaps" + bookmarks
            + cluster.resourceVersion());
        WatchLines control = new RawApi(cluster.url()).watch("/api/v1/namespaces/default/secrets" + bookmarks
            + cluster.resourceVersion())) {
      await("both watches are open").atMost(WAIT).until(() -> cluster.watchFaults().openWatches().size() == 2);
      HeldDelivery hold = cluster.watchFaults().holdAfter(IN_DEFAULT, 1);
      await("a bookmark passes the hold").atMost(WAIT).until(() -> watch.summary().contains("BOOKMARK "));

      cluster.create(configMap("a", Map.of("v", "1")));
      await("a passes: the bookmark did not count").atMost(WAIT).until(() -> watch.summary().contains("ADDED a"));
      ConfigMap b = cluster.create(configMap("b", Map.of("v", "1")));
      long bRv = Long.parseLong(rv(b));
      await("bookmarks after b reach the control watch").atMost(WAIT).until(() -> bookmarkRvs(control).stream()
          .anyMatch(r -> r >= bRv));

      assertThat(hold.held()).isOne();
      assertThat(watch.summary()).doesNotContain("ADDED b");
      assertThat(bookmarkRvs(watch)).as("no bookmark overtakes the held b").allMatch(r -> r < bRv);
      assertThat(hold.release()).isOne();
      await("b reaches the watch").atMost(WAIT).until(() -> watch.summary().contains("ADDED b"));
      assertThat(cluster.watchFaults().deliveries()).filteredOn(d -> "BOOKMARK".equals(d.eventType()))
          .extracting(WatchDelivery::outcome).containsOnly(Outcome.DELIVERED);
      assertThat(cluster.watchFaults().deliveries()).filteredOn(d -> d.outcome() == Outcome.HELD)
          .extracting(WatchDelivery::summary)
          .containsExactly(cluster.watchFaults().openWatches().stream().filter(w -> w.contains(" ConfigMap "))
              .findFirst().orElseThrow() + ": ADDED default/b rv=" + rv(b)
              + " HELD (holdAfter(ConfigMap in default, 1))");
    }
  }

  /** The resourceVersions of the BOOKMARK events a watch received, in order. */
  private static List<Long> bookmarkRvs(WatchLines watch) {
    return watch.events().stream().filter(e -> "BOOKMARK".equals(e.path("type").asText()))
        .map(e -> e.path("object").path("metadata").path("resourceVersion").asLong()).toList();
  }

  @Test
  void releaseCoalesced_sendsEachObjectsNetEvent_inTheOrderOfTheirLastEvents_andLogsTheRestDropped() {
    try (InformedCluster informed = InformedCluster.start(transport)) {
      FakeCluster cluster = informed.cluster();
      String watch = informed.watch();
      ConfigMap d = cluster.create(configMap("d", Map.of("v", "1")));
      ConfigMap e = cluster.create(configMap("e", Map.of("v", "1")));
      await("the informer has a, d, e").atMost(WAIT).until(() -> cache(informed.informer()).size() == 3);
      HeldDelivery hold = cluster.watchFaults().holdAfter(IN_DEFAULT, 0);

      ConfigMap a2 = informed.editA("2");
      ConfigMap a3 = informed.editA("3");
      ConfigMap b1 = cluster.create(configMap("b", Map.of("v", "1")));
      ConfigMap b2 = cluster.client().configMaps().inNamespace("default").withName("b").edit(c -> withData(c, "2"));
      ConfigMap c1 = cluster.create(configMap("c", Map.of("v", "1")));
      cluster.client().configMaps().inNamespace("default").withName("c").delete();
      String cDeleted = cluster.resourceVersion();
      ConfigMap d2 = cluster.client().configMaps().inNamespace("default").withName("d").edit(c -> withData(c, "2"));
      cluster.client().configMaps().inNamespace("default").withName("d").delete();
      String dDeleted = cluster.resourceVersion();
      cluster.client().configMaps().inNamespace("default").withName("e").delete();
      String eDeleted = cluster.resourceVersion();
      ConfigMap e2 = cluster.create(configMap("e", Map.of("v", "new")));
      assertThat(hold.held()).isEqualTo(10);

      assertThat(hold.releaseCoalesced()).isEqualTo(5);

      await("the informer has the net changes").atMost(WAIT).until(() -> informed.recorder().calls.size() == 8);
      assertThat(informed.recorder().calls).containsExactly("add a@" + rv(informed.a()), "add d@" + rv(d),
          "add e@" + rv(e), "update a@" + rv(a3), "add b@" + rv(b2), "delete d@" + dDeleted,
          "delete e@" + eDeleted, "add e@" + rv(e2));
      assertThat(cache(informed.informer())).containsExactly("a@" + rv(a3), "b@" + rv(b2), "e@" + rv(e2));
      assertThat(cluster.watchFaults().deliveries()).filteredOn(x -> x.outcome() == Outcome.DROPPED
          || x.outcome() == Outcome.RELEASED).extracting(WatchDelivery::summary).containsExactly(
              watch + ": MODIFIED default/a rv=" + rv(a2) + " DROPPED (coalesced into rv=" + rv(a3) + ")",
              watch + ": ADDED default/b rv=" + rv(b1) + " DROPPED (coalesced into rv=" + rv(b2) + ")",
              watch + ": ADDED default/c rv=" + rv(c1) + " DROPPED (coalesced into rv=" + cDeleted + ")",
              watch + ": DELETED default/c rv=" + cDeleted + " DROPPED (coalesced into rv=" + cDeleted + ")",
              watch + ": MODIFIED default/d rv=" + rv(d2) + " DROPPED (coalesced into rv=" + dDeleted + ")",
              watch + ": MODIFIED default/a rv=" + rv(a3) + " RELEASED (holdAfter(ConfigMap in default, 0))",
              watch + ": ADDED default/b rv=" + rv(b2) + " RELEASED (holdAfter(ConfigMap in default, 0))",
              watch + ": DELETED default/d rv=" + dDeleted + " RELEASED (holdAfter(ConfigMap in default, 0))",
              watch + ": DELETED default/e rv=" + eDeleted + " RELEASED (holdAfter(ConfigMap in default, 0))",
              watch + ": ADDED default/e rv=" + rv(e2) + " RELEASED (holdAfter(ConfigMap in default, 0))");
      assertThat(hold.isActive()).isFalse();
      assertThat(hold.releaseCoalesced()).as("a second release").isZero();
      assertThat(hold.release()).as("a release after it").isZero();
    }
  }

  @Test
  void releaseCoalesced_worksOnAHoldMadeByHold() {
    try (InformedCluster informed = InformedCluster.start(transport)) {
      FakeCluster cluster = informed.cluster();
      HeldDelivery hold = cluster.watchFaults().hold(IN_DEFAULT);
      informed.editA("2");
      informed.editA("3");
      ConfigMap a4 = informed.editA("4");

      assertThat(hold.releaseCoalesced()).isOne();

      await("the informer has a@" + rv(a4)).atMost(WAIT).until(() -> informed.recorder().calls.size() == 2);
      assertThat(informed.recorder().calls).containsExactly("add a@" + rv(informed.a()), "update a@" + rv(a4));
      assertThat(cluster.watchFaults().deliveries()).filteredOn(x -> x.outcome() == Outcome.DROPPED)
          .extracting(WatchDelivery::detail)
          .containsExactly("coalesced into rv=" + rv(a4), "coalesced into rv=" + rv(a4));
    }
  }

  @Test
  void holdAfter_refusesANegativeCountAndANullPattern() {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).build()) {
      assertThatThrownBy(() -> cluster.watchFaults().holdAfter(IN_DEFAULT, -1))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("WatchFaults.holdAfter: passed must be 0 or more, was -1. Use 0 to hold every event from now "
              + "on, n to let the next n events through first.");
      assertThatThrownBy(() -> cluster.watchFaults().holdAfter(null, 1))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("WatchFaults.holdAfter: pattern is null. Use WatchPattern.any() for every watch, or "
              + "WatchPattern.kind(\"ConfigMap\") and its narrowing methods.");
      assertThat(cluster.watchFaults().rulesInForce()).isEmpty();
    }
  }
}
