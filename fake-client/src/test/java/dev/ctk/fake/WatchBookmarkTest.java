package dev.ctk.fake;

import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.WatchLines;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Periodic BOOKMARK events for watches that ask for them, over HTTP streaming and websockets (fabric8 informers). */
@ParameterizedClass(name = "{0}")
@EnumSource(ClientTransport.class)
class WatchBookmarkTest {

  @Parameter
  ClientTransport transport;

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps?watch=true";

  private FakeCluster cluster;

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void watchesThatAskForBookmarks_getThemPeriodically_withTheCurrentResourceVersion() {
    cluster = FakeCluster.builder().withClientTransport(transport).withBookmarkInterval(Duration.ofMillis(200)).build();
    RawApi api = new RawApi(cluster.url());
    try (WatchLines asking = api.watch(CONFIGMAPS + "&allowWatchBookmarks=true&resourceVersion="
            + cluster.resourceVersion());
        WatchLines notAsking = api.watch(CONFIGMAPS + "&resourceVersion=" + cluster.resourceVersion())) {
      await("the watch with allowWatchBookmarks received its first bookmark").atMost(WAIT)
          .until(() -> bookmarks(asking).size() >= 1);
      cluster.create(Fixtures.configMap("web", Map.of()));
      String afterCreate = cluster.resourceVersion();

      await("a bookmark at resourceVersion " + afterCreate + " after the ADDED event").atMost(WAIT)
          .until(() -> bookmarks(asking).stream().anyMatch(b -> afterCreate.equals(resourceVersion(b))));

      JsonNode bookmark = bookmarks(asking).get(bookmarks(asking).size() - 1);
      assertThat(bookmark).isEqualTo(json("""
          {"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1",
           "metadata":{"resourceVersion":"%s"}}}""".formatted(afterCreate)));
      List<String> types = asking.events().stream().map(e -> e.path("type").asText()).toList();
      assertThat(types.indexOf("ADDED")).as("the ADDED event comes before the bookmark that covers it")
          .isLessThan(types.lastIndexOf("BOOKMARK"));
      await("the other watch saw the ADDED event").atMost(WAIT).until(() -> !notAsking.events().isEmpty());
      assertThat(notAsking.summary()).as("no bookmarks without allowWatchBookmarks").containsExactly("ADDED web");
    }
  }

  @Test
  void aWatchWithATimeout_getsABookmarkShortlyBeforeItEnds() {
    cluster = FakeCluster.builder().withClientTransport(transport).build();
    RawApi api = new RawApi(cluster.url());
    String rv = cluster.resourceVersion();

    try (WatchLines watch = api.watch(CONFIGMAPS + "&allowWatchBookmarks=true&timeoutSeconds=3&resourceVersion=" + rv)) {
      await("the watch ends after its timeout").atMost(WAIT).until(watch::hasEnded);

      assertThat(watch.events()).containsExactly(json("""
          {"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"%s"}}}"""
          .formatted(rv)));
    }
  }

  @Test
  void fabric8Informers_takeTheBookmarksResourceVersion() {
    cluster = FakeCluster.builder().withClientTransport(transport).withBookmarkInterval(Duration.ofMillis(200)).build();
    SharedIndexInformer<ConfigMap> informer = cluster.client().configMaps().inNamespace("default").inform();
    try {
      await("the informer synced").atMost(WAIT).until(informer::hasSynced);
      cluster.client().secrets().inNamespace("default").resource(new SecretBuilder().withNewMetadata()
          .withName("other-kind").endMetadata().build()).create();
      String current = cluster.resourceVersion();

      await("a bookmark moved the ConfigMap informer to resourceVersion " + current + " (a Secret's change)")
          .atMost(WAIT).until(() -> current.equals(informer.lastSyncResourceVersion()));
      assertThat(informer.getStore().list()).isEmpty();
    } finally {
      informer.close();
    }
  }

  @Test
  void theBookmarkInterval_mustBePositive() {
    assertThatThrownBy(() -> FakeCluster.builder().withClientTransport(transport).withBookmarkInterval(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bookmark interval must be positive, was PT0S. Use a positive Duration such as "
            + "Duration.ofSeconds(5).");
  }

  private static List<JsonNode> bookmarks(WatchLines watch) {
    return watch.events().stream().filter(e -> e.path("type").asText().equals("BOOKMARK")).toList();
  }

  private static String resourceVersion(JsonNode event) {
    return event.path("object").path("metadata").path("resourceVersion").asText();
  }
}
