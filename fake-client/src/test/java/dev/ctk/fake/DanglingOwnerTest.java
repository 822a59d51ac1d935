package dev.ctk.fake;

import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi.Reply;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.WatchLines;
import dev.ctk.fake.values.GarbageCollection;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Objects whose owners do not exist are collected, as kube's garbage collector collects them: the owner is looked
 * up by kind, namespace and name, and one found with another uid counts as absent. An object with a live owner
 * keeps it and loses only the dangling reference; a reference to a kind that is not served leaves the object alone.
 */
class DanglingOwnerTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";

  private FakeCluster cluster;
  private RawApi api;

  private void start(GarbageCollection mode) {
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).withGarbageCollection(mode).build();
    api = new RawApi(cluster.url());
  }

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void createdWithAnOwnerThatNeverExisted_isDeleted_afterTheCreateIsAnswered() {
    start(GarbageCollection.ASYNCHRONOUS);
    String before = cluster.resourceVersion();
    try (WatchLines events = api.watch(CONFIGMAPS + "?watch=true&resourceVersion=" + before)) {
      Reply created = api.post(CONFIGMAPS, configMap("orphan", ref("ConfigMap", "ghost", "no-such-uid")));
      cluster.awaitGarbageCollection(WAIT);

      assertThat(created.code()).isEqualTo(201);
      assertThat(api.get(CONFIGMAPS + "/orphan").code()).isEqualTo(404);
      await("ADDED and DELETED orphan").atMost(WAIT).until(() -> events.events().size() == 2);
      assertThat(events.summary()).containsExactly("ADDED orphan", "DELETED orphan");
    }
  }

  @Test
  void ownerOfTheSameNameWithAnotherUid_countsAsAbsent() {
    start(GarbageCollection.ASYNCHRONOUS);
    String oldUid = api.post(CONFIGMAPS, configMap("owner", "")).json().path("metadata").path("uid").asText();
    api.delete(CONFIGMAPS + "/owner");
    api.post(CONFIGMAPS, configMap("owner", ""));

    api.post(CONFIGMAPS, configMap("stale", ref("ConfigMap", "owner", oldUid)));
    cluster.awaitGarbageCollection(WAIT);

    assertThat(api.get(CONFIGMAPS + "/stale").code()).isEqualTo(404);
    assertThat(api.get(CONFIGMAPS + "/owner").code()).isEqualTo(200);
  }

  @Test
  void aLiveOwner_keepsTheObject_whichLosesOnlyItsDanglingReference() {
    start(GarbageCollection.ASYNCHRONOUS);
    String liveUid = api.post(CONFIGMAPS, configMap("live", "")).json().path("metadata").path("uid").asText();

    api.post(CONFIGMAPS, configMap("shared", ref("ConfigMap", "live", liveUid) + ","
        + ref("ConfigMap", "ghost", "no-such-uid")));
    cluster.awaitGarbageCollection(WAIT);

    assertThat(api.get(CONFIGMAPS + "/shared").json().path("metadata").path("ownerReferences"))
        .isEqualTo(json("[" + ref("ConfigMap", "live", liveUid) + "]"));
  }

  @Test
  void anUpdateThatAddsADanglingReference_deletesTheObject() {
    start(GarbageCollection.ASYNCHRONOUS);
    api.post(CONFIGMAPS, configMap("plain", ""));
    cluster.awaitGarbageCollection(WAIT);
    assertThat(api.get(CONFIGMAPS + "/plain").code()).isEqualTo(200);

    api.patch(CONFIGMAPS + "/plain", "application/merge-patch+json",
        "{\"metadata\":{\"ownerReferences\":[" + ref("ConfigMap", "ghost", "no-such-uid") + "]}}");
    cluster.awaitGarbageCollection(WAIT);

    assertThat(api.get(CONFIGMAPS + "/plain").code()).isEqualTo(404);
  }

  @Test
  void aLiveUidUnderAnotherNameOrKind_isLookedUpByThatNameOrKind_andCountsAsAbsent() {
    start(GarbageCollection.ASYNCHRONOUS);
    String ownerUid = api.post(CONFIGMAPS, configMap("owner", "")).json().path("metadata").path("uid").asText();

    api.post(CONFIGMAPS, configMap("typo", ref("ConfigMap", "ownr", ownerUid)));
    api.post(CONFIGMAPS, configMap("wrong-kind", ref("Secret", "owner", ownerUid)));
    api.post(CONFIGMAPS, configMap("right", ref("ConfigMap", "owner", ownerUid)));
    cluster.awaitGarbageCollection(WAIT);

    assertThat(api.get(CONFIGMAPS + "/typo").code()).isEqualTo(404);
    assertThat(api.get(CONFIGMAPS + "/wrong-kind").code()).isEqualTo(404);
    assertThat(api.get(CONFIGMAPS + "/right").code()).isEqualTo(200);
    assertThat(api.get(CONFIGMAPS + "/owner").code()).isEqualTo(200);
  }

  @Test
  void aNamespacedOwnerInAnotherNamespace_countsAsAbsent() {
    start(GarbageCollection.ASYNCHRONOUS);
    String ownerUid = api.post("/api/v1/namespaces/kube-public/configmaps", configMap("owner", "")).json()
        .path("metadata").path("uid").asText();

    api.post(CONFIGMAPS, configMap("elsewhere", ref("ConfigMap", "owner", ownerUid)));
    cluster.awaitGarbageCollection(WAIT);

    assertThat(api.get(CONFIGMAPS + "/elsewhere").code()).isEqualTo(404);
  }

  @Test
  void aClusterScopedOwner_isLookedUpWithoutNamespace() {
    start(GarbageCollection.ASYNCHRONOUS);
    String namespaceUid = api.get("/api/v1/namespaces/kube-public").json().path("metadata").path("uid").asText();

    api.post(CONFIGMAPS, configMap("owned", ref("Namespace", "kube-public", namespaceUid)));
    api.post(CONFIGMAPS, configMap("orphan", ref("Namespace", "ghost", "no-such-uid")));
    cluster.awaitGarbageCollection(WAIT);

    assertThat(api.get(CONFIGMAPS + "/owned").code()).isEqualTo(200);
    assertThat(api.get(CONFIGMAPS + "/orphan").code()).isEqualTo(404);
  }

  @Test
  void anOwnerOfAKindThatIsNotServed_leavesTheObjectAlone() {
    start(GarbageCollection.ASYNCHRONOUS);

    api.post(CONFIGMAPS, configMap("unknown", "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\","
        + "\"name\":\"w\",\"uid\":\"no-such-uid\"}"));
    cluster.awaitGarbageCollection(WAIT);

    assertThat(api.get(CONFIGMAPS + "/unknown").code()).isEqualTo(200);
  }

  @Test
  void synchronous_theObjectIsGoneWhenItsCreateIsAnswered() {
    start(GarbageCollection.SYNCHRONOUS);

    Reply created = api.post(CONFIGMAPS, configMap("orphan", ref("ConfigMap", "ghost", "no-such-uid")));

    assertThat(created.code()).isEqualTo(201);
    assertThat(api.get(CONFIGMAPS + "/orphan").code()).isEqualTo(404);
  }

  @Test
  void switchedOff_danglingObjectsStay() {
    start(GarbageCollection.OFF);

    api.post(CONFIGMAPS, configMap("orphan", ref("ConfigMap", "ghost", "no-such-uid")));

    assertThat(api.get(CONFIGMAPS + "/orphan").code()).isEqualTo(200);
  }

  private static String ref(String kind, String name, String uid) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"" + kind + "\",\"name\":\"" + name + "\",\"uid\":\"" + uid + "\"}";
  }

  private static String configMap(String name, String ownerReferences) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\""
        + (ownerReferences.isEmpty() ? "" : ",\"ownerReferences\":[" + ownerReferences + "]") + "}}";
  }
}
