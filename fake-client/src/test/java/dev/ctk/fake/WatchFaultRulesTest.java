package dev.ctk.fake;

import static dev.ctk.fake.WatchFaultCloseTest.WAIT;
import static dev.ctk.fake.WatchFaultCloseTest.rv;
import static dev.ctk.fake.testing.Fixtures.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.WatchLines;
import dev.ctk.fake.values.WatchDelivery;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Patterns, counted rules, the delivery log, clear(), and misuse, over raw HTTP watches. */
@ParameterizedClass(name = "{0}")
@EnumSource(ClientTransport.class)
class WatchFaultRulesTest {

  @Parameter
  ClientTransport transport;

  @Test
  void deliveries_recordOrdinaryDeliveriesWithTheWatchAndTheObject() {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).build();
        WatchLines watch = new RawApi(cluster.url())
            .watch("/api/v1/namespaces/default/configmaps?watch=true&labelSelector=app%3Dweb")) {
      await("the watch is open").atMost(WAIT).until(() -> cluster.watchFaults().openWatches().size() == 1);
      ConfigMap web = cluster.create(configMap("web", Map.of("app", "web"), Map.of()));
      cluster.create(configMap("other", Map.of("app", "other"), Map.of()));
      await("web arrives").atMost(WAIT).until(() -> watch.events().size() == 1);

      assertThat(cluster.watchFaults().openWatches()).singleElement().asString()
          .matches("watch #\\d+ ConfigMap in default labelSelector=app=web");
      WatchDelivery delivery = cluster.watchFaults().deliveries().get(0);
      assertThat(delivery.summary()).isEqualTo(cluster.watchFaults().openWatches().get(0) + ": ADDED default/web rv="
          + rv(web) + " DELIVERED");
      assertThat(delivery.watch()).isEqualTo("ConfigMap in default labelSelector=app=web");
      assertThat(delivery.eventType()).isEqualTo("ADDED");
      assertThat(delivery.namespace()).isEqualTo("default");
      assertThat(delivery.name()).isEqualTo("web");
      assertThat(delivery.resourceVersion()).isEqualTo(rv(web));
      assertThat(delivery.outcome()).isEqualTo(WatchDelivery.Outcome.DELIVERED);
      assertThat(delivery.detail()).isNull();
      assertThat(delivery.time()).isNotNull();
      assertThat(cluster.watchFaults().deliveries()).as("other is not selected: not sent, not recorded").hasSize(1);
    }
  }

  @Test
  void patterns_matchKindOrPluralInAnyCase_namespaceOrAllNamespaces_andSelectorsInCanonicalForm() {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).build()) {
      RawApi api = new RawApi(cluster.url());
      try (WatchLines all = api.watch("/api/v1/configmaps?watch=true");
          WatchLines named = api.watch("/api/v1/namespaces/default/configmaps?watch=true"
              + "&fieldSelector=metadata.name%3Dweb&labelSelector=tier%3Dweb,app%3Dshop");
          WatchLines secrets = api.watch("/api/v1/namespaces/default/secrets?watch=true")) {
        await("three watches are open").atMost(WAIT).until(() -> cluster.watchFaults().openWatches().size() == 3);
        assertThat(List.of(all, named, secrets)).noneMatch(WatchLines::hasEnded);
        WatchFaults faults = cluster.watchFaults();
        assertThat(count(cluster, WatchPattern.any())).isEqualTo(3);
        assertThat(count(cluster, WatchPattern.kind("CONFIGMAPS"))).isEqualTo(2);
        assertThat(count(cluster, WatchPattern.kind("configMap").inAllNamespaces())).isEqualTo(1);
        assertThat(count(cluster, WatchPattern.kind("ConfigMap").inNamespace("default"))).isEqualTo(1);
        assertThat(count(cluster, WatchPattern.kind("ConfigMap").inNamespace("kube-system"))).isZero();
        assertThat(count(cluster, WatchPattern.kind("ConfigMap").labelSelector("app=shop,tier=web"))).isEqualTo(1);
        assertThat(count(cluster, WatchPattern.kind("ConfigMap").labelSelector("app=shop"))).isZero();
        assertThat(count(cluster, WatchPattern.kind("ConfigMap").labelSelector(""))).isEqualTo(1);
        assertThat(count(cluster, WatchPattern.kind("ConfigMap").fieldSelector("metadata.name==web"))).isEqualTo(1);
        assertThat(count(cluster, WatchPattern.kind("ConfigMap").fieldSelector("spec.nope=x"))).isZero();
        assertThat(count(cluster, WatchPattern.kind("Secret").fieldSelector(""))).isEqualTo(1);
        assertThat(WatchPattern.kind("ConfigMap").inNamespace("default").labelSelector("tier=web,app=shop")
            .fieldSelector("").toString())
            .isEqualTo("ConfigMap in default labelSelector=app=shop,tier=web without fieldSelector");
        assertThat(faults.rulesInForce()).isEmpty();
      }
    }
  }

  @Test
  void countedDrop_dropsOnlyTheNextEvents_thenEnds() {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).build();
        WatchLines watch = new RawApi(cluster.url()).watch("/api/v1/namespaces/default/configmaps?watch=true")) {
      await("the watch is open").atMost(WAIT).until(() -> cluster.watchFaults().openWatches().size() == 1);
      WatchRule drop = cluster.watchFaults().drop(WatchPattern.kind("ConfigMap"), 2);
      assertThat(cluster.watchFaults().rulesInForce()).containsExactly("drop(ConfigMap, next 2 events)");

      cluster.create(configMap("one", Map.of()));
      cluster.create(configMap("two", Map.of()));
      cluster.create(configMap("three", Map.of()));

      await("three arrives").atMost(WAIT).until(() -> watch.events().size() == 1);
      assertThat(watch.summary()).containsExactly("ADDED three");
      assertThat(drop.fired()).isEqualTo(2);
      assertThat(drop.isActive()).isFalse();
      assertThat(drop.toString()).isEqualTo("drop(ConfigMap, next 2 events) [ended], fired 2 times");
      assertThat(cluster.watchFaults().rulesInForce()).isEmpty();
      assertThat(cluster.watchFaults().deliveries()).extracting(d -> d.name() + " " + d.outcome())
          .containsExactly("one DROPPED", "two DROPPED", "three DELIVERED");
    }
  }

  @Test
  void clear_endsEveryRule_andReleasesHolds() {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).build();
        WatchLines watch = new RawApi(cluster.url()).watch("/api/v1/namespaces/default/configmaps?watch=true")) {
      await("the watch is open").atMost(WAIT).until(() -> cluster.watchFaults().openWatches().size() == 1);
      WatchFaults faults = cluster.watchFaults();
      HeldDelivery hold = faults.hold(WatchPattern.any());
      WatchRule reorder = faults.reorder(WatchPattern.any(), 2);
      WatchRule duplicate = faults.duplicate(WatchPattern.kind("Secret"));
      assertThat(faults.rulesInForce()).containsExactly("hold(any kind)", "reorder(any kind, window of 2)",
          "duplicate(Secret)");
      cluster.create(configMap("one", Map.of()));
      cluster.create(configMap("two", Map.of()));
      assertThat(hold.held()).isEqualTo(2);

      faults.clear();

      await("the held events arrive").atMost(WAIT).until(() -> watch.events().size() == 2);
      assertThat(watch.summary()).containsExactly("ADDED two", "ADDED one");
      assertThat(faults.rulesInForce()).isEmpty();
      assertThat(hold.isActive()).isFalse();
      assertThat(reorder.isActive()).isFalse();
      assertThat(duplicate.isActive()).isFalse();
      assertThat(duplicate.fired()).isZero();
    }
  }

  @Test
  void delayRules_describeTheirDurationAsKubePrintsDurations_asApiFaultsDo() {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).build()) {
      WatchFaults faults = cluster.watchFaults();
      WatchPattern configMaps = WatchPattern.kind("ConfigMap");

      WatchRule minutes = faults.delay(configMaps, Duration.ofMinutes(2));
      WatchRule fraction = faults.delay(configMaps, Duration.ofMillis(1500), 3);
      WatchRule millis = faults.delay(configMaps, Duration.ofMillis(250));

      assertThat(List.of(minutes, fraction, millis)).extracting(WatchRule::description).containsExactly(
          "delay(ConfigMap, 2m)", "delay(ConfigMap, 1.5s, next 3 events)", "delay(ConfigMap, 250ms)");
      assertThat(faults.rulesInForce()).containsExactly("delay(ConfigMap, 2m)",
          "delay(ConfigMap, 1.5s, next 3 events)", "delay(ConfigMap, 250ms)");
      assertThat(ApiFault.delay(Duration.ofMinutes(2))).as("the same text in API faults").hasToString("delay 2m");
    }
  }

  @Test
  void rules_leaveTheInitialStateOfAWatchAlone_andActFromTheFirstChangeOn() {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).build()) {
      cluster.create(configMap("web", Map.of()));
      WatchRule drop = cluster.watchFaults().drop(WatchPattern.kind("ConfigMap"), 1);
      HeldDelivery hold = cluster.watchFaults().hold(WatchPattern.kind("ConfigMap"));

      try (WatchLines watch = new RawApi(cluster.url()).watch("/api/v1/namespaces/default/configmaps?watch=true"
          + "&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true")) {
        await("the initial state arrives, neither dropped nor held").atMost(WAIT)
            .until(() -> watch.events().size() == 2);
        assertThat(watch.summary()).containsExactly("ADDED web", "BOOKMARK ");
        assertThat(drop.fired()).isZero();
        assertThat(hold.held()).isZero();

        cluster.create(configMap("dropped", Map.of()));
        ConfigMap held = cluster.create(configMap("held", Map.of()));

        assertThat(drop.fired()).isOne();
        assertThat(hold.held()).isOne();
        assertThat(cluster.watchFaults().deliveries()).extracting(d -> d.eventType() + " " + d.name() + " "
            + d.outcome()).containsExactly("ADDED web DELIVERED", "BOOKMARK null DELIVERED", "ADDED dropped DROPPED",
                "ADDED held HELD");
        hold.release();
        await("the held change arrives").atMost(WAIT).until(() -> watch.events().size() == 3);
        assertThat(watch.events().get(2).path("object").path("metadata").path("resourceVersion").asText())
            .isEqualTo(rv(held));
      }
    }
  }

  @Test
  void invalidArguments_failAtOnceWithTheFix() {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).build()) {
      WatchFaults faults = cluster.watchFaults();
      WatchPattern any = WatchPattern.any();
      assertThatThrownBy(() -> faults.drop(null)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("WatchFaults.drop: pattern is null. Use WatchPattern.any() for every watch, or "
              + "WatchPattern.kind(\"ConfigMap\") and its narrowing methods.");
      assertThatThrownBy(() -> faults.duplicate(any, 0)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("WatchFaults.duplicate: events must be at least 1, was 0. Leave the count out for a rule "
              + "that acts until it is removed.");
      assertThatThrownBy(() -> faults.delay(any, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("WatchFaults.delay: delay must be positive, was PT0S. Use a positive Duration such as "
              + "Duration.ofMillis(200).");
      assertThatThrownBy(() -> faults.delay(any, null)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("WatchFaults.delay: delay must be positive, was null. Use a positive Duration such as "
              + "Duration.ofMillis(200).");
      assertThatThrownBy(() -> faults.reorder(any, 1)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("WatchFaults.reorder: window must be at least 2 events, was 1. A window of n reverses every "
              + "n events; use 2 to swap pairs.");
      assertThatThrownBy(() -> WatchPattern.kind(" ")).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("WatchPattern: kind must not be blank. Use a kind such as \"ConfigMap\" or a resource such as "
              + "\"configmaps\".");
      assertThatThrownBy(() -> any.inNamespace(null)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("WatchPattern: namespace must not be null. Use a namespace such as \"default\", or "
              + "inAllNamespaces() for watches across all namespaces.");
      assertThatThrownBy(() -> any.labelSelector("app in web")).isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("WatchPattern.labelSelector: \"app in web\" is not a label selector: ")
          .hasMessageEndingWith(". Write it as a watch's labelSelector parameter, e.g. \"app=web\".");
      assertThat(faults.rulesInForce()).as("nothing was added").isEmpty();
    }
  }

  @Test
  void afterClose_actionsAndRulesFail_butTheDeliveryLogStaysReadable() {
    FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).build();
    WatchFaults faults = cluster.watchFaults();
    String url = cluster.url();
    cluster.close();

    assertThatThrownBy(() -> faults.hold(WatchPattern.any())).isInstanceOf(IllegalStateException.class)
        .hasMessage("FakeCluster at " + url + " is closed; watchFaults().hold(..) needs a running cluster. Build a "
            + "new one with FakeCluster.builder()...build().");
    assertThatThrownBy(() -> faults.expire(WatchPattern.any())).isInstanceOf(IllegalStateException.class)
        .hasMessage("FakeCluster at " + url + " is closed; watchFaults().expire(..) needs a running cluster. Build "
            + "a new one with FakeCluster.builder()...build().");
    assertThat(faults.deliveries()).isEmpty();
    assertThat(faults.openWatches()).isEmpty();
  }

  /** How many open watches a pattern matches (the matching close() and every rule use), streams untouched. */
  private static long count(FakeCluster cluster, WatchPattern pattern) {
    return cluster.server().store().watchHub().openWatches().stream().filter(w -> pattern.selects(w.identity()))
        .count();
  }
}
