package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.network;
import static dev.ctk.fake.testing.Fixtures.networkCrd;
import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.RawApi.Reply;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a delete answers, as kube-apiserver does: a {@code Status} of {@code Success} naming the object when it is
 * gone at once, the object itself when finalizers keep it (or, for the kinds whose registry returns the deleted
 * object, always), and an update that removes the last finalizer answers the updated object.
 */
class DeleteAnswerTest {

  private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";
  private static final String NETWORKS = "/apis/samplecrd.k8s.io/v1/namespaces/default/networks";

  private FakeCluster cluster;
  private RawApi api;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).withGarbageCollection(false)
        .withCrds(networkCrd()).withObjects(network("net-a", "10.0.0.0/24")).build();
    api = new RawApi(cluster.url());
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void deleteOfAnObjectWithoutFinalizers_answersSuccessNamingItsResourceAndUid() {
    String uid = uid(api.post(CONFIGMAPS, "{\"metadata\":{\"name\":\"web\"}}"));

    Reply deleted = api.delete(CONFIGMAPS + "/web");

    assertThat(deleted.code()).isEqualTo(200);
    assertThat(deleted.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success",
         "details":{"name":"web","kind":"configmaps","uid":"%s"}}""".formatted(uid)));
    assertThat(api.get(CONFIGMAPS + "/web").code()).isEqualTo(404);
  }

  @Test
  void deleteOfACustomResource_answersSuccessWithItsGroup() {
    String uid = uid(api.get(NETWORKS + "/net-a"));

    Reply deleted = api.delete(NETWORKS + "/net-a");

    assertThat(deleted.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success",
         "details":{"name":"net-a","group":"samplecrd.k8s.io","kind":"networks","uid":"%s"}}""".formatted(uid)));
  }

  @Test
  void dryRunDelete_answersSuccessToo_andKeepsTheObject() {
    String uid = uid(api.post(CONFIGMAPS, "{\"metadata\":{\"name\":\"web\"}}"));

    Reply deleted = api.delete(CONFIGMAPS + "/web?dryRun=All");

    assertThat(deleted.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success",
         "details":{"name":"web","kind":"configmaps","uid":"%s"}}""".formatted(uid)));
    assertThat(api.get(CONFIGMAPS + "/web").code()).isEqualTo(200);
  }

  @Test
  void deleteOfAPod_answersThePod_asKubesPodRegistryReturnsTheDeletedObject() {
    api.post("/api/v1/namespaces/default/pods", "{\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":["
        + "{\"name\":\"main\",\"image\":\"nginx:1.27\"}]}}");

    Reply deleted = api.delete("/api/v1/namespaces/default/pods/p");

    assertThat(deleted.code()).isEqualTo(200);
    assertThat(deleted.json().path("kind").asText() + " " + deleted.json().path("metadata").path("name").asText())
        .isEqualTo("Pod p");
    assertThat(api.get("/api/v1/namespaces/default/pods/p").code()).isEqualTo(404);
  }

  @Test
  void deleteOfAnObjectWithAFinalizer_answersTheObjectMarkedForDeletion() {
    api.post(CONFIGMAPS, "{\"metadata\":{\"name\":\"held\",\"finalizers\":[\"example.com/hold\"]}}");

    Reply deleted = api.delete(CONFIGMAPS + "/held");

    assertThat(deleted.json().path("kind").asText()).isEqualTo("ConfigMap");
    assertThat(deleted.json().path("metadata").path("deletionTimestamp").asText()).isEqualTo("2025-03-01T12:00:00Z");
    assertThat(deleted.json().path("metadata").path("finalizers")).isEqualTo(json("[\"example.com/hold\"]"));
  }

  @Test
  void updateRemovingTheLastFinalizer_answersTheUpdatedObjectAtItsResourceVersion_andDeletesIt() {
    api.post(CONFIGMAPS, "{\"metadata\":{\"name\":\"held\",\"finalizers\":[\"example.com/hold\"]},"
        + "\"data\":{\"k\":\"v\"}}");
    String marked = api.delete(CONFIGMAPS + "/held").json().path("metadata").path("resourceVersion").asText();

    Reply last = api.patch(CONFIGMAPS + "/held", "application/merge-patch+json",
        "{\"metadata\":{\"finalizers\":null},\"data\":{\"k\":\"w\"}}");

    assertThat(last.code()).isEqualTo(200);
    JsonNode meta = last.json().path("metadata");
    assertThat(meta.has("finalizers")).as("finalizers gone from the answer").isFalse();
    assertThat(meta.path("resourceVersion").asText()).isEqualTo(marked);
    assertThat(last.json().path("data")).as("the update's other changes are in the answer")
        .isEqualTo(json("{\"k\":\"w\"}"));
    assertThat(api.get(CONFIGMAPS + "/held").code()).isEqualTo(404);
  }

  @Test
  void deleteCollection_answersTheDeletedObjects_asAListWhoseItemsCarryNoKind() {
    api.post(CONFIGMAPS, "{\"metadata\":{\"name\":\"a\",\"labels\":{\"x\":\"y\"}}}");

    Reply reply = api.delete(CONFIGMAPS + "?labelSelector=x%3Dy");

    assertThat(reply.json().path("kind").asText() + " " + reply.json().path("apiVersion").asText())
        .isEqualTo("ConfigMapList v1");
    List<String> fields = new ArrayList<>();
    reply.json().path("items").get(0).fieldNames().forEachRemaining(fields::add);
    assertThat(fields).containsExactly("metadata");
  }

  private static String uid(Reply reply) {
    return reply.json().path("metadata").path("uid").asText();
  }
}
