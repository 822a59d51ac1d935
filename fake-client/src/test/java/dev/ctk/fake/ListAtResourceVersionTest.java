package dev.ctk.fake;

import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.WatchLines;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reads at a resourceVersion: an exact list (resourceVersionMatch=Exact, or a limit with a resourceVersion) reads
 * the snapshot from the watch history, 410 beyond it, 500 ahead of the store (as kube 1.32's etcd read); a
 * not-older-than list reads the present, 504 ahead; a watch of a CRD's kind from before the CRD answers 410.
 */
class ListAtResourceVersionTest {

  private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";

  private FakeCluster cluster;
  private RawApi api;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).withWatchHistoryLimit(5).build();
    api = new RawApi(cluster.url());
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void exactList_readsTheSnapshot_pagesIt_andKeepsItsResourceVersion() {
    create("a");
    create("c");
    String rv = api.get(CONFIGMAPS).json().at("/metadata/resourceVersion").asText();
    create("b");
    api.patch(CONFIGMAPS + "/a", "application/merge-patch+json", "{\"data\":{\"k\":\"w\"}}");
    api.delete(CONFIGMAPS + "/c");

    JsonNode exact = api.get(CONFIGMAPS + "?resourceVersionMatch=Exact&resourceVersion=" + rv).json();
    assertThat(items(exact) + " at " + exact.at("/metadata/resourceVersion").asText())
        .isEqualTo("[a k=v, c k=v] at " + rv);
    JsonNode first = api.get(CONFIGMAPS + "?limit=1&resourceVersion=" + rv).json();
    JsonNode second = api.get(CONFIGMAPS + "?limit=1&continue=" + first.at("/metadata/continue").asText()).json();
    assertThat(items(first) + " " + items(second) + " at " + second.at("/metadata/resourceVersion").asText())
        .isEqualTo("[a k=v] [c k=v] at " + rv);
    assertThat(items(api.get(CONFIGMAPS + "?resourceVersionMatch=NotOlderThan&resourceVersion=" + rv).json()))
        .isEqualTo("[a k=w, b k=v]");
    assertThat(items(api.get(CONFIGMAPS + "?resourceVersion=" + rv).json())).isEqualTo("[a k=w, b k=v]");
  }

  @Test
  void exactList_beyondTheHistory_410_aheadOfTheStore_500_andNotOlderThanAhead_504() {
    String old = cluster.resourceVersion();
    for (int i = 0; i < 6; i++) {
      create("cm" + i);
    }
    long ahead = Long.parseLong(cluster.resourceVersion()) + 10;

    assertThat(api.get(CONFIGMAPS + "?resourceVersionMatch=Exact&resourceVersion=" + old).json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"The resourceVersion for the provided list is too old.","reason":"Expired","code":410}"""));
    assertThat(api.get(CONFIGMAPS + "?limit=5&resourceVersion=" + ahead).json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"etcdserver: mvcc: required revision is a future revision","code":500}"""));
    assertThat(api.get(CONFIGMAPS + "?resourceVersion=" + ahead).json().path("message").asText())
        .isEqualTo("Timeout: Too large resource version: " + ahead + ", current: " + (ahead - 10));
  }

  @Test
  void aResourceVersionThatIsNotANumber_400OnTheExactPath_500OnTheCachePath() {
    assertThat(api.get(CONFIGMAPS + "?limit=1&resourceVersion=abc").json().path("message").asText())
        .isEqualTo("invalid resource version: resourceVersion: Invalid value: \"abc\": strconv.ParseUint: parsing "
            + "\"abc\": invalid syntax");
    RawApi.Reply cache = api.get(CONFIGMAPS + "?resourceVersion=abc");
    assertThat(cache.code() + " " + cache.json().path("message").asText()).isEqualTo("500 resourceVersion: Invalid "
        + "value: \"abc\": strconv.ParseUint: parsing \"abc\": invalid syntax");
  }

  @Test
  void watchOfACrdsKind_fromBeforeTheCrd_410NamingWhereItsWindowStarts() {
    FakeCluster roomy = FakeCluster.builder().build();
    try (roomy) {
      RawApi raw = new RawApi(roomy.url());
      String before = roomy.resourceVersion();
      roomy.installCrd(Fixtures.networkCrd());
      String established = roomy.resourceVersion();
      String networks = "/apis/samplecrd.k8s.io/v1/namespaces/default/networks";
      try (WatchLines watch = raw.watch(networks + "?watch=true&resourceVersion=" + before)) {
        await().atMost(Duration.ofSeconds(10)).until(watch::hasEnded);
        assertThat(watch.events()).containsExactly(json("""
            {"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
             "message":"too old resource version: %s (%s)","reason":"Expired","code":410}}"""
            .formatted(before, established)));
      }
      roomy.create(Fixtures.network("n", "10.0.0.0/24"));
      try (WatchLines watch = raw.watch(networks + "?watch=true&resourceVersion=" + established)) {
        await().atMost(Duration.ofSeconds(10)).until(() -> watch.summary().contains("ADDED n"));
      }
      assertThat(items(raw.get(networks + "?resourceVersionMatch=Exact&resourceVersion=" + before).json()))
          .isEqualTo("[]");
    }
  }

  private void create(String name) {
    api.post(CONFIGMAPS, "{\"metadata\":{\"name\":\"" + name + "\"},\"data\":{\"k\":\"v\"}}");
  }

  private static String items(JsonNode list) {
    List<String> items = new ArrayList<>();
    list.path("items").forEach(i -> items.add(i.at("/metadata/name").asText() + (i.has("data") ? " k="
        + i.at("/data/k").asText() : "")));
    return items.toString();
  }
}
