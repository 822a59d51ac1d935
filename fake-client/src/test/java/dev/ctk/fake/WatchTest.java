package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.configMap;
import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.WatchLines;
import dev.ctk.fake.values.ApiRequestRecord;
import dev.ctk.fake.values.RequestPattern;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Watch semantics over HTTP streaming (what kubectl and client-go use) and websockets (fabric8's default). */
@ParameterizedClass(name = "{0}")
@EnumSource(ClientTransport.class)
class WatchTest {

  @Parameter
  ClientTransport transport;

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";

  private FakeCluster cluster;
  private RawApi api;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClientTransport(transport).withWatchHistoryLimit(5)
        .withObjects(configMap("existing", Map.of())).build();
    api = new RawApi(cluster.url());
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void withoutResourceVersion_startsWithAddedForEveryObject_thenLiveEvents() {
    try (WatchLines watch = api.watch(CONFIGMAPS + "?watch=true")) {
      await().atMost(WAIT).until(() -> watch.summary().size() == 1);
      cluster.create(configMap("new", Map.of()));
      cluster.client().configMaps().withName("existing").delete();

      await("ADDED existing, ADDED new, DELETED existing").atMost(WAIT).untilAsserted(() ->
          assertThat(watch.summary()).containsExactly("ADDED existing", "ADDED new", "DELETED existing"));
    }
  }

  @Test
  void httpStreaming_isChunkedNewlineDelimitedJson() {
    try (WatchLines watch = api.watch(CONFIGMAPS + "?watch=1&resourceVersion=0")) {
      await().atMost(WAIT).until(() -> watch.summary().size() == 1);
      assertThat(watch.status().join()).isEqualTo(200);
      assertThat(watch.events().get(0).path("type").asText()).isEqualTo("ADDED");
      assertThat(watch.events().get(0).path("object").path("kind").asText()).isEqualTo("ConfigMap");
    }
  }

  @Test
  void fromResourceVersion_replaysEverythingAfterIt_exactlyOnce() {
    String rv = cluster.resourceVersion();
    cluster.create(configMap("one", Map.of()));
    cluster.create(configMap("two", Map.of()));

    try (WatchLines watch = api.watch(CONFIGMAPS + "?watch=true&resourceVersion=" + rv)) {
      cluster.create(configMap("three", Map.of()));
      await().atMost(WAIT).untilAsserted(() ->
          assertThat(watch.summary()).containsExactly("ADDED one", "ADDED two", "ADDED three"));
      List<Long> rvs = watch.events().stream()
          .map(e -> Long.parseLong(e.path("object").path("metadata").path("resourceVersion").asText())).toList();
      assertThat(rvs).isSorted().doesNotHaveDuplicates();
    }
  }

  @Test
  void fromResourceVersionOlderThanHistory_sendsGoneErrorAndEnds() {
    String old = cluster.resourceVersion();
    for (int i = 0; i < 7; i++) {
      cluster.create(configMap("cm-" + i, Map.of()));
    }
    long oldestKept = Long.parseLong(cluster.resourceVersion()) - 5;

    try (WatchLines watch = api.watch(CONFIGMAPS + "?watch=true&resourceVersion=" + old)) {
      await().atMost(WAIT).until(watch::hasEnded);
      assertThat(watch.events()).hasSize(1);
      assertThat(watch.events().get(0)).isEqualTo(json("""
          {"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
           "message":"too old resource version: %s (%d)","reason":"Expired","code":410}}"""
          .formatted(old, oldestKept)));
    }
  }

  @Test
  void labelSelector_objectLeavingTheSelection_isDeleted_enteringIsAdded() {
    cluster.create(configMap("web", Map.of("app", "web"), Map.of()));
    try (WatchLines watch = api.watch(CONFIGMAPS + "?watch=true&labelSelector=app%3Dweb")) {
      await().atMost(WAIT).until(() -> watch.summary().size() == 1);
      relabel("web", Map.of("app", "other"));
      relabel("web", Map.of("app", "web"));
      cluster.create(configMap("unrelated", Map.of("app", "db"), Map.of()));
      relabel("web", Map.of("app", "web", "x", "y"));

      await().atMost(WAIT).untilAsserted(() -> assertThat(watch.summary())
          .containsExactly("ADDED web", "DELETED web", "ADDED web", "MODIFIED web"));
      assertThat(watch.events().get(1).path("object").path("metadata").path("labels").path("app").asText())
          .as("DELETED carries the last state that matched").isEqualTo("web");
    }
  }

  @Test
  void fieldSelectorOnName_and_namedWatchUrl_watchOneObject() {
    try (WatchLines byField = api.watch(CONFIGMAPS + "?watch=true&fieldSelector=metadata.name%3Dexisting");
        WatchLines legacy = api.watch("/api/v1/watch/namespaces/default/configmaps/existing")) {
      await().atMost(WAIT).until(() -> byField.summary().size() == 1 && legacy.summary().size() == 1);
      cluster.create(configMap("other", Map.of()));
      cluster.client().configMaps().withName("existing").edit(c -> {
        c.setData(Map.of("k", "v"));
        return c;
      });
      await().atMost(WAIT).untilAsserted(() -> {
        assertThat(byField.summary()).containsExactly("ADDED existing", "MODIFIED existing");
        assertThat(legacy.summary()).containsExactly("ADDED existing", "MODIFIED existing");
      });
    }
  }

  @Test
  void timeoutSeconds_endsTheStream() {
    try (WatchLines watch = api.watch(CONFIGMAPS + "?watch=true&timeoutSeconds=1")) {
      await("the server ends the watch after timeoutSeconds").atMost(WAIT).until(watch::hasEnded);
      assertThat(watch.summary()).containsExactly("ADDED existing");
    }
  }

  @Test
  void sendInitialEvents_endsInitialStateWithAnnotatedBookmark() {
    String rv = cluster.resourceVersion();
    try (WatchLines watch = api.watch(CONFIGMAPS + "?watch=true&sendInitialEvents=true"
        + "&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true")) {
      await().atMost(WAIT).until(() -> watch.summary().size() == 2);
      assertThat(watch.events().get(1)).isEqualTo(json("""
          {"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1",
           "metadata":{"resourceVersion":"%s","annotations":{"k8s.io/initial-events-end":"true",
            "kubernetes.io/initial-events-list-blueprint":"%s"}}}}"""
          .formatted(rv, CONFIGMAP_LIST_BLUEPRINT)));
    }
  }

  /** {@code {"kind":"ConfigMapList","apiVersion":"v1","metadata":{},"items":null}} and a newline, base64, as 1.32. */
  private static final String CONFIGMAP_LIST_BLUEPRINT =
      "eyJraW5kIjoiQ29uZmlnTWFwTGlzdCIsImFwaVZlcnNpb24iOiJ2MSIsIm1ldGFkYXRhIjp7fSwiaXRlbXMiOm51bGx9Cg==";

  @Test
  void aPlainWatchFromNoResourceVersion_isAWatchList_endingWithABookmarkOnlyWhenBookmarksAreAllowed() {
    try (WatchLines withBookmarks = api.watch(CONFIGMAPS + "?watch=true&allowWatchBookmarks=true");
        WatchLines without = api.watch(CONFIGMAPS + "?watch=true&resourceVersion=0&sendInitialEvents=true"
            + "&resourceVersionMatch=NotOlderThan")) {
      await().atMost(WAIT).until(() -> withBookmarks.summary().size() == 2 && without.summary().size() == 1);
      cluster.create(configMap("after", Map.of()));
      await().atMost(WAIT).until(() -> without.summary().size() == 2);

      assertThat(withBookmarks.events().get(1).path("type").asText()).isEqualTo("BOOKMARK");
      assertThat(without.summary()).as("no bookmark without allowWatchBookmarks").containsExactly("ADDED existing",
          "ADDED after");
    }
  }

  @Test
  void theLegacyWatchPath_isNoWatchList_andItsOptionsAreAList() {
    try (WatchLines legacy = openWatch("/api/v1/watch/namespaces/default/configmaps?allowWatchBookmarks=true")) {
      cluster.create(configMap("after", Map.of()));
      await().atMost(WAIT).until(() -> legacy.summary().size() == 2);

      assertThat(legacy.summary()).as("no initial-events-end bookmark").containsExactly("ADDED existing",
          "ADDED after");
    }
    RawApi.Reply refused = api.get("/api/v1/watch/namespaces/default/configmaps?sendInitialEvents=true"
        + "&resourceVersionMatch=NotOlderThan&resourceVersion=0");
    assertThat(refused.json().path("message").asText()).isEqualTo("ListOptions.meta.k8s.io \"\" is invalid: "
        + "sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list");
  }

  @Test
  void aWatchListByDefault_isCheckedAfterItsDefaults_soContinueIsRefused() {
    RawApi.Reply refused = api.get(CONFIGMAPS + "?watch=true&continue=abc");

    assertThat(refused.code()).isEqualTo(422);
    assertThat(refused.json().path("message").asText()).isEqualTo("ListOptions.meta.k8s.io \"\" is invalid: "
        + "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided");
  }

  @Test
  void sendInitialEventsFalse_withNoResourceVersionAtAll_startsNow() {
    assertStartsNow(CONFIGMAPS + "?watch=true&sendInitialEvents=false&resourceVersionMatch=NotOlderThan");
  }

  /** Opens the watch, writes one ConfigMap, and checks that the watch saw that write and nothing before it. */
  private void assertStartsNow(String path) {
    try (WatchLines watch = openWatch(path)) {
      cluster.create(configMap("later", Map.of()));

      await().atMost(WAIT).until(() -> !watch.summary().isEmpty());
      assertThat(watch.summary()).containsExactly("ADDED later");
    }
  }

  /** Opens a watch and waits until the fake has registered it, so that a write made next reaches it. */
  private WatchLines openWatch(String path) {
    int before = cluster.server().store().watchHub().openWatches().size();
    WatchLines watch = api.watch(path);
    await("the watch is open").atMost(WAIT)
        .until(() -> cluster.server().store().watchHub().openWatches().size() == before + 1);
    return watch;
  }

  @Test
  void on133_sendInitialEvents_isRefused_asTheWatchListFeatureIsOff() {
    try (FakeCluster old = FakeCluster.builder().withKubernetesVersion("1.33").build()) {
      RawApi.Reply refused = new RawApi(old.url()).get(CONFIGMAPS + "?watch=true&sendInitialEvents=true"
          + "&resourceVersionMatch=NotOlderThan");

      assertThat(refused.code()).isEqualTo(422);
      assertThat(refused.json().path("message").asText()).isEqualTo("ListOptions.meta.k8s.io \"\" is invalid: "
          + "sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate "
          + "is enabled");
    }
  }

  @Test
  void sendInitialEventsFalse_withoutResourceVersion_startsNow_withoutTheInitialState() {
    cluster.create(configMap("present", Map.of()));
    assertStartsNow(CONFIGMAPS + "?watch=true&sendInitialEvents=false&resourceVersionMatch=NotOlderThan"
        + "&resourceVersion=0");
  }

  @Test
  void watchListOptions_areValidatedAsKube() {
    RawApi.Reply noMatch = api.get(CONFIGMAPS + "?watch=true&sendInitialEvents=true");
    RawApi.Reply matchAlone = api.get(CONFIGMAPS + "?watch=true&resourceVersionMatch=NotOlderThan&resourceVersion=1");
    RawApi.Reply exact = api.get(CONFIGMAPS + "?watch=true&sendInitialEvents=true&resourceVersionMatch=Exact"
        + "&resourceVersion=1");
    RawApi.Reply onList = api.get(CONFIGMAPS + "?sendInitialEvents=true&resourceVersionMatch=NotOlderThan"
        + "&resourceVersion=0");

    assertThat(noMatch.code()).isEqualTo(422);
    assertThat(noMatch.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"ListOptions.meta.k8s.io \\"\\" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
         "reason":"Invalid","details":{"group":"meta.k8s.io","kind":"ListOptions",
         "causes":[{"reason":"FieldValueForbidden",
         "message":"Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
         "field":"resourceVersionMatch"}]},"code":422}"""));
    assertThat(matchAlone.json().path("message").asText()).isEqualTo("ListOptions.meta.k8s.io \"\" is invalid: "
        + "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is "
        + "provided");
    assertThat(exact.json().path("message").asText()).isEqualTo("ListOptions.meta.k8s.io \"\" is invalid: "
        + "[resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, "
        + "resourceVersionMatch: Unsupported value: \"Exact\": supported values: \"NotOlderThan\"]");
    assertThat(onList.code()).isEqualTo(422);
    assertThat(onList.json().path("message").asText()).isEqualTo("ListOptions.meta.k8s.io \"\" is invalid: "
        + "sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list");
  }

  @Test
  void badWatchRequests_answerPlainStatus() {
    RawApi.Reply unknown = api.get("/api/v1/namespaces/default/widgets?watch=true");
    assertThat(unknown.code()).isEqualTo(404);
    assertThat(unknown.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"the server could not find the requested resource","reason":"NotFound","details":{},
         "code":404}"""));
    RawApi.Reply badSelector = api.get(CONFIGMAPS + "?watch=true&fieldSelector=spec.x%3Dy");
    assertThat(badSelector.code()).isEqualTo(400);
    assertThat(badSelector.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"\\"spec.x\\" is not a known field selector: only \\"metadata.name\\", \\"metadata.namespace\\"",
         "reason":"BadRequest","code":400}"""));
  }

  @Test
  void fabric8Watch_overWebsocket_andOverHttp() throws Exception {
    for (boolean onlyHttp : new boolean[] {false, true}) {
      List<String> events = new CopyOnWriteArrayList<>();
      io.fabric8.kubernetes.client.Config config = cluster.clientConfig();
      config.setOnlyHttpWatches(onlyHttp);
      try (var client = FakeClusterInternals.client(cluster, config);
          Watch w = client.configMaps().inNamespace("default").watch(new Watcher<ConfigMap>() {
            @Override
            public void eventReceived(Action action, ConfigMap resource) {
              events.add(action + " " + resource.getMetadata().getName());
            }

            @Override
            public void onClose(WatcherException cause) {
            }
          })) {
        String name = onlyHttp ? "via-http" : "via-websocket";
        cluster.create(configMap(name, Map.of()));
        await().atMost(WAIT).untilAsserted(() -> assertThat(events).containsExactly("ADDED existing",
            "ADDED " + name));
        assertThat(w).isNotNull();
        cluster.client().configMaps().withName(name).delete();
      }
    }
    // a websocket watch is answered 101 (the upgrade), an HTTP-streaming one 200
    List<Integer> watchCodes = cluster.requests().entries(RequestPattern.watch("ConfigMap").inNamespace("default"))
        .stream().map(ApiRequestRecord::code).toList();
    assertThat(watchCodes).containsExactly(101, 200);
  }

  @Test
  void concurrentWriters_everyWatcherSeesEveryCommitOnce_inResourceVersionOrder() throws Exception {
    String start = cluster.resourceVersion();
    List<WatchLines> watchers = List.of(api.watch(CONFIGMAPS + "?watch=true&resourceVersion=" + start),
        api.watch(CONFIGMAPS + "?watch=true&resourceVersion=" + start),
        api.watch("/api/v1/configmaps?watch=true&resourceVersion=" + start));
    try {
      for (WatchLines watcher : watchers) {
        assertThat(watcher.status().get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(200);
      }
      List<java.util.concurrent.CompletableFuture<Void>> writers = new java.util.ArrayList<>();
      for (int w = 0; w < 4; w++) {
        int writer = w;
        writers.add(java.util.concurrent.CompletableFuture.runAsync(() -> {
          for (int i = 0; i < 25; i++) {
            cluster.create(configMap("w" + writer + "-" + i, Map.of()));
          }
        }));
      }
      writers.forEach(java.util.concurrent.CompletableFuture::join);
      long end = Long.parseLong(cluster.resourceVersion());
      assertThat(end - Long.parseLong(start)).isEqualTo(100);
      for (WatchLines watcher : watchers) {
        await("100 events on " + watcher).atMost(WAIT).until(() -> watcher.events().size() >= 100);
        assertThat(watcher.events()).hasSize(100);
        List<Long> rvs = watcher.events().stream()
            .map(e -> Long.parseLong(e.path("object").path("metadata").path("resourceVersion").asText())).toList();
        assertThat(rvs).isSorted().doesNotHaveDuplicates().first().isEqualTo(Long.parseLong(start) + 1);
        assertThat(rvs).last().isEqualTo(end);
      }
    } finally {
      watchers.forEach(WatchLines::close);
    }
  }

  private void relabel(String name, Map<String, String> labels) {
    cluster.client().configMaps().withName(name).edit(c -> {
      c.getMetadata().setLabels(labels);
      return c;
    });
  }
}
