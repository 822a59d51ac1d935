package dev.ctk.fake;

import static dev.ctk.fake.ServerSideApplyTest.APPLY;
import static dev.ctk.fake.ServerSideApplyTest.WEB;
import static dev.ctk.fake.ServerSideApplyTest.deployment;
import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.RawApi.Reply;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Field ownership beyond one applier: status and scale subresources, custom resources with list types, objects
 * seeded without managedFields, kubectl's client-side apply annotation, resetting managedFields, and the cap on
 * updaters.
 */
class ServerSideApplyOwnershipTest {

  private static final String CRD = """
      {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
       "metadata":{"name":"routes.example.com"},
       "spec":{"group":"example.com","scope":"Namespaced",
         "names":{"kind":"Route","plural":"routes","singular":"route","listKind":"RouteList"},
         "versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},
           "schema":{"openAPIV3Schema":{"type":"object","properties":{
             "spec":{"type":"object","properties":{
               "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
                 "items":{"type":"object","required":["name"],
                   "properties":{"name":{"type":"string"},"port":{"type":"integer"}}}},
               "tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
               "hosts":{"type":"array","items":{"type":"string"}}}},
             "status":{"type":"object","properties":{"phase":{"type":"string"}}}}}}}]}}""";
  private static final String ROUTE = "/apis/example.com/v1/namespaces/default/routes/r";

  private ServerSideApplyTest.TickingClock clock;
  private FakeCluster cluster;
  private RawApi api;

  @BeforeEach
  void start() {
    clock = new ServerSideApplyTest.TickingClock();
    cluster = FakeCluster.builder().withClock(clock)
        .withObjects(Fixtures.deployment("seeded", "nginx:1"))
        .build();
    api = new RawApi(cluster.url());
    assertThat(api.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", CRD).code()).isEqualTo(201);
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  private static String route(String spec) {
    return "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Route\",\"metadata\":{\"name\":\"r\"},\"spec\":" + spec + "}";
  }

  private static JsonNode managedFields(Reply reply) {
    return reply.json().path("metadata").path("managedFields");
  }

  private static JsonNode entry(Reply reply, String manager) {
    for (JsonNode e : managedFields(reply)) {
      if (e.path("manager").asText().equals(manager)) {
        return e;
      }
    }
    return null;
  }

  @Test
  void customResourceLists_mergeByTheirSchemaListType() {
    Reply first = api.patch(ROUTE + "?fieldManager=a", APPLY,
        route("{\"ports\":[{\"name\":\"http\",\"port\":80}],\"tags\":[\"x\"],\"hosts\":[\"a.example\"]}"));
    assertThat(first.code()).isEqualTo(201);
    assertThat(entry(first, "a").path("fieldsV1")).isEqualTo(json("""
        {"f:spec":{"f:hosts":{},"f:ports":{"k:{\\"name\\":\\"http\\"}":{".":{},"f:name":{},"f:port":{}}},
          "f:tags":{"v:\\"x\\"":{}}}}"""));

    Reply atomicConflict = api.patch(ROUTE + "?fieldManager=b", APPLY,
        route("{\"ports\":[{\"name\":\"metrics\",\"port\":9090}],\"tags\":[\"y\"],\"hosts\":[\"b.example\"]}"));
    assertThat(atomicConflict.json().path("message").asText())
        .isEqualTo("Apply failed with 1 conflict: conflict with \"a\": .spec.hosts");

    Reply merged = api.patch(ROUTE + "?fieldManager=b", APPLY,
        route("{\"ports\":[{\"name\":\"metrics\",\"port\":9090}],\"tags\":[\"y\"]}"));
    assertThat(merged.json().path("spec")).isEqualTo(json("""
        {"ports":[{"name":"http","port":80},{"name":"metrics","port":9090}],"tags":["x","y"],"hosts":["a.example"]}
        """));

    Reply pruned = api.patch(ROUTE + "?fieldManager=a", APPLY, route("{\"hosts\":[\"a.example\"]}"));
    assertThat(pruned.json().path("spec")).isEqualTo(json("""
        {"ports":[{"name":"metrics","port":9090}],"tags":["y"],"hosts":["a.example"]}"""));
  }

  @Test
  void customResourceCreatedByPost_ownsItsSpecAsAWhole() {
    Reply created = api.post("/apis/example.com/v1/namespaces/default/routes?fieldManager=kubectl-create",
        route("{\"tags\":[\"x\"]}"));

    assertThat(entry(created, "kubectl-create").path("fieldsV1")).isEqualTo(json(
        "{\"f:spec\":{\".\":{},\"f:tags\":{\".\":{},\"v:\\\"x\\\"\":{}}}}"));
  }

  @Test
  void statusApply_changesOnlyStatus_andIsRecordedWithItsSubresource() {
    api.patch(ROUTE + "?fieldManager=a", APPLY, route("{\"tags\":[\"x\"]}"));
    clock.advanceSeconds(1);

    Reply reply = api.patch(ROUTE + "/status?fieldManager=operator", APPLY,
        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Route\",\"metadata\":{\"name\":\"r\"},"
            + "\"spec\":{\"tags\":[\"ignored\"]},\"status\":{\"phase\":\"Ready\"}}");

    assertThat(reply.code()).isEqualTo(200);
    assertThat(reply.json().path("spec")).isEqualTo(json("{\"tags\":[\"x\"]}"));
    assertThat(reply.json().path("status")).isEqualTo(json("{\"phase\":\"Ready\"}"));
    assertThat(entry(reply, "operator")).isEqualTo(json("""
        {"manager":"operator","operation":"Apply","apiVersion":"example.com/v1","time":"2025-03-01T12:00:01Z",
         "fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:phase":{}}},"subresource":"status"}"""));
    assertThat(api.patch("/apis/example.com/v1/namespaces/default/routes/missing/status?fieldManager=operator",
        APPLY, route("{}").replace("\"r\"", "\"missing\"")).code()).isEqualTo(404);
  }

  @Test
  void statusApplyOfACustomResource_ownsTheMetadataItSends_thoughTheMetadataIsNotSaved() {
    api.patch(ROUTE + "?fieldManager=user", APPLY, route("{\"tags\":[\"x\"]}")
        .replace("\"name\":\"r\"", "\"name\":\"r\",\"labels\":{\"app\":\"a\"}"));
    Reply status = api.patch(ROUTE + "/status?fieldManager=op&force=true", APPLY,
        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Route\",\"metadata\":{\"name\":\"r\","
            + "\"labels\":{\"app\":\"a\",\"extra\":\"e\"}},\"status\":{\"phase\":\"Ready\"}}");

    Reply conflict = api.patch(ROUTE + "?fieldManager=user", APPLY, route("{\"tags\":[\"x\"]}")
        .replace("\"name\":\"r\"", "\"name\":\"r\",\"labels\":{\"app\":\"b\"}"));

    assertThat(status.json().path("metadata").path("labels")).as("not saved, as kube's status strategy drops it")
        .isEqualTo(json("{\"app\":\"a\"}"));
    assertThat(entry(status, "op").path("fieldsV1")).isEqualTo(json("""
        {"f:metadata":{"f:labels":{"f:app":{},"f:extra":{}}},"f:status":{"f:phase":{}}}"""));
    assertThat(conflict.code()).isEqualTo(409);
    assertThat(conflict.json().path("message").asText()).isEqualTo("Apply failed with 1 conflict: conflict with "
        + "\"op\" with subresource \"status\": .metadata.labels.app");
  }

  @Test
  void statusApplyOfACustomResource_ownsNoMetadata_from136() {
    cluster.close();
    cluster = FakeCluster.builder().withClock(clock).withKubernetesVersion("1.37").build();
    api = new RawApi(cluster.url());
    assertThat(api.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", CRD).code()).isEqualTo(201);
    api.patch(ROUTE + "?fieldManager=user", APPLY, route("{\"tags\":[\"x\"]}")
        .replace("\"name\":\"r\"", "\"name\":\"r\",\"labels\":{\"app\":\"a\"}"));

    Reply status = api.patch(ROUTE + "/status?fieldManager=op&force=true", APPLY,
        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Route\",\"metadata\":{\"name\":\"r\","
            + "\"labels\":{\"app\":\"a\"}},\"status\":{\"phase\":\"Ready\"}}");
    Reply relabelled = api.patch(ROUTE + "?fieldManager=user", APPLY, route("{\"tags\":[\"x\"]}")
        .replace("\"name\":\"r\"", "\"name\":\"r\",\"labels\":{\"app\":\"b\"}"));

    assertThat(entry(status, "op").path("fieldsV1")).isEqualTo(json("{\"f:status\":{\"f:phase\":{}}}"));
    assertThat(relabelled.code()).isEqualTo(200);
  }

  @Test
  void mainResourceApply_ignoresStatus_ofAKindWithAStatusSubresource() {
    Reply reply = api.patch(ROUTE + "?fieldManager=a", APPLY,
        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Route\",\"metadata\":{\"name\":\"r\"},"
            + "\"spec\":{\"tags\":[\"x\"]},\"status\":{\"phase\":\"Ready\"}}");

    assertThat(reply.json().has("status")).isFalse();
    assertThat(entry(reply, "a").path("fieldsV1")).isEqualTo(json("{\"f:spec\":{\"f:tags\":{\"v:\\\"x\\\"\":{}}}}"));
  }

  @Test
  void statusUpdate_isAnUpdateEntryWithSubresourceStatus() {
    api.patch(ROUTE + "?fieldManager=a", APPLY, route("{\"tags\":[\"x\"]}"));
    JsonNode live = api.get(ROUTE).json();
    ((ObjectNode) live).putObject("status").put("phase", "Pending");

    Reply reply = api.put(ROUTE + "/status?fieldManager=operator", live.toString());

    assertThat(entry(reply, "operator")).isEqualTo(json("""
        {"manager":"operator","operation":"Update","apiVersion":"example.com/v1","time":"2025-03-01T12:00:00Z",
         "fieldsType":"FieldsV1","fieldsV1":{"f:status":{".":{},"f:phase":{}}},"subresource":"status"}"""));
  }

  @Test
  void scaleWrite_isAnUpdateEntryWithSubresourceScale_thatAppliersConflictWith() {
    api.patch(WEB + "?fieldManager=ci", APPLY, deployment("nginx:1", 2, null));
    clock.advanceSeconds(1);

    Reply scaled = api.patch(WEB + "/scale?fieldManager=hpa", "application/merge-patch+json",
        "{\"spec\":{\"replicas\":5}}");
    assertThat(scaled.code()).isEqualTo(200);
    Reply live = new Reply(200, "", api.get(WEB).body());
    assertThat(entry(live, "hpa")).isEqualTo(json("""
        {"manager":"hpa","operation":"Update","apiVersion":"apps/v1","time":"2025-03-01T12:00:01Z",
         "fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}},"subresource":"scale"}"""));
    assertThat(entry(live, "ci").path("fieldsV1").path("f:spec").has("f:replicas")).isFalse();

    Reply reply = api.patch(WEB + "?fieldManager=ci", APPLY, deployment("nginx:1", 2, null));
    assertThat(reply.json().path("message").asText()).isEqualTo(
        "Apply failed with 1 conflict: conflict with \"hpa\" with subresource \"scale\" using apps/v1: .spec.replicas");
    assertThat(api.patch(WEB + "/scale?fieldManager=hpa", APPLY, "{}").code()).isEqualTo(415);
  }

  @Test
  void seededObject_isUntrackedUntilTheFirstApply_whichRecordsBeforeFirstApply() {
    String seeded = "/apis/apps/v1/namespaces/default/deployments/seeded";
    Reply patched = api.patch(seeded + "?fieldManager=editor", "application/merge-patch+json",
        "{\"metadata\":{\"labels\":{\"x\":\"y\"}}}");
    assertThat(patched.json().path("metadata").has("managedFields")).isFalse();

    String config = """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: seeded}
        spec: {replicas: 3}
        """;
    Reply conflict = api.patch(seeded + "?fieldManager=ci", APPLY, config);
    assertThat(conflict.json().path("message").asText()).isEqualTo(
        "Apply failed with 1 conflict: conflict with \"before-first-apply\" using apps/v1: .spec.replicas");

    Reply forced = api.patch(seeded + "?fieldManager=ci&force=true", APPLY, config);
    assertThat(forced.code()).isEqualTo(200);
    assertThat(entry(forced, "ci").path("fieldsV1")).isEqualTo(json("{\"f:spec\":{\"f:replicas\":{}}}"));
    JsonNode before = entry(forced, "before-first-apply");
    assertThat(before.path("operation").asText()).isEqualTo("Update");
    assertThat(before.path("fieldsV1").path("f:spec").has("f:replicas")).isFalse();
    assertThat(before.path("fieldsV1").path("f:metadata").path("f:labels").has("f:x")).isTrue();
  }

  @Test
  void objectSeededWithManagedFields_keepsThem_soATestCanSetUpAnotherOwner() {
    io.fabric8.kubernetes.api.model.apps.Deployment owned = Fixtures.deployment("owned", "nginx:1");
    owned.getMetadata().setManagedFields(List.of(new io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder()
        .withManager("helm").withOperation("Update").withApiVersion("apps/v1").withTime("2024-01-01T00:00:00Z")
        .withFieldsType("FieldsV1").withNewFieldsV1().addToAdditionalProperties("f:spec",
            java.util.Map.of("f:replicas", java.util.Map.of())).endFieldsV1().build()));
    try (FakeCluster seeded = FakeCluster.builder().withObjects(owned).build()) {
      RawApi raw = new RawApi(seeded.url());
      String path = "/apis/apps/v1/namespaces/default/deployments/owned";
      assertThat(raw.get(path).json().path("metadata").path("managedFields").path(0).path("manager").asText())
          .isEqualTo("helm");

      Reply reply = raw.patch(path + "?fieldManager=ci", APPLY,
          "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"owned\"},"
              + "\"spec\":{\"replicas\":7}}");

      assertThat(reply.json().path("message").asText()).isEqualTo(
          "Apply failed with 1 conflict: conflict with \"helm\" using apps/v1: .spec.replicas");
    }
  }

  @Test
  void kubectlClientSideApplyFields_conflictForOthers_butKubectlTakesThemOver() {
    String lastApplied = "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},"
        + "\"spec\":{\"replicas\":2}}";
    ObjectNode created = (ObjectNode) yamlToJsonNode(deployment("nginx:1", 2, null));
    ((ObjectNode) created.path("metadata")).putObject("annotations")
        .put("kubectl.kubernetes.io/last-applied-configuration", lastApplied + "\n");
    assertThat(api.post(ServerSideApplyTest.DEPLOYMENTS + "?fieldManager=kubectl-client-side-apply",
        created.toString()).code()).isEqualTo(201);

    Reply other = api.patch(WEB + "?fieldManager=other", APPLY, deployment("nginx:1", 4, null));
    assertThat(other.json().path("message").asText()).isEqualTo(
        "Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" using apps/v1: .spec.replicas");

    Reply kubectl = api.patch(WEB + "?fieldManager=kubectl", APPLY, deployment("nginx:1", 4, null));
    assertThat(kubectl.code()).isEqualTo(200);
    assertThat(kubectl.json().path("spec").path("replicas").asInt()).isEqualTo(4);
    String annotation = kubectl.json().path("metadata").path("annotations")
        .path("kubectl.kubernetes.io/last-applied-configuration").asText();
    assertThat(json(annotation)).isEqualTo(yamlToJsonNode(deployment("nginx:1", 4, null)));
    assertThat(annotation).endsWith("}\n").startsWith("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",");
  }

  @Test
  void updateSendingManagedFields_setsThem_andAnEmptyListResetsThem() {
    api.patch(WEB + "?fieldManager=ci", APPLY, deployment("nginx:1", 2, null));
    ObjectNode live = (ObjectNode) api.get(WEB).json();
    ArrayNode imported = json("""
        [{"manager":"imported","operation":"Update","apiVersion":"apps/v1","time":"2024-01-01T00:00:00Z",
          "fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:paused":{}}}}]""").deepCopy();
    ((ObjectNode) live.path("metadata")).set("managedFields", imported);

    Reply replaced = api.put(WEB + "?fieldManager=editor", live.toString());
    assertThat(managedFields(replaced)).isEqualTo(imported);

    ((ObjectNode) live.path("metadata")).putArray("managedFields");
    ((ObjectNode) live.path("metadata")).remove("resourceVersion");
    Reply reset = api.put(WEB + "?fieldManager=editor", live.toString());
    assertThat(reset.json().path("metadata").has("managedFields")).isFalse();

    api.patch(WEB + "?fieldManager=ci", APPLY, deployment("nginx:1", 3, null));
    Reply resetByPatch = api.patch(WEB, "application/merge-patch+json",
        "{\"metadata\":{\"managedFields\":[{}]}}");
    assertThat(resetByPatch.json().path("metadata").has("managedFields")).isFalse();
  }

  @Test
  void updatesRemoveWhatTheyRemoveFromEveryOwner() {
    api.patch(WEB + "?fieldManager=ci", APPLY, deployment("nginx:1", 2, "tier: web"));

    Reply reply = api.patch(WEB + "?fieldManager=janitor", "application/merge-patch+json",
        "{\"metadata\":{\"labels\":{\"tier\":null}}}");

    assertThat(entry(reply, "ci").path("fieldsV1").path("f:metadata")).isEqualTo(json(
        "{\"f:labels\":{\"f:app\":{}}}"));
    assertThat(entry(reply, "janitor")).as("an update that only removes owns nothing").isNull();
  }

  @Test
  void moreThanTenUpdaters_mergeTheOldestIntoAncientChanges() {
    api.post("/api/v1/namespaces/default/configmaps?fieldManager=creator",
        "{\"metadata\":{\"name\":\"c\",\"labels\":{\"a\":\"b\"}}}");
    for (int i = 0; i < 11; i++) {
      clock.advanceSeconds(1);
      api.patch("/api/v1/namespaces/default/configmaps/c?fieldManager=m" + i, "application/merge-patch+json",
          "{\"data\":{\"k" + i + "\":\"v\"}}");
    }

    Reply reply = new Reply(200, "", api.get("/api/v1/namespaces/default/configmaps/c").body());
    List<String> managers = new ArrayList<>();
    managedFields(reply).forEach(e -> managers.add(e.path("manager").asText()));
    // twelve updaters: the creator and m0 went into ancient-changes at m9, then m1 joined them at m10
    assertThat(managers).containsExactly("ancient-changes", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9", "m10");
    assertThat(entry(reply, "ancient-changes").path("fieldsV1").path("f:data")).isEqualTo(json(
        "{\".\":{},\"f:k0\":{},\"f:k1\":{}}"));
    assertThat(entry(reply, "ancient-changes").path("fieldsV1").path("f:metadata")).isEqualTo(json(
        "{\"f:labels\":{\".\":{},\"f:a\":{}}}"));
    assertThat(entry(reply, "ancient-changes").path("time").asText()).isEqualTo("2025-03-01T12:00:02Z");
  }

  @Test
  void objectWhoseCreatorOwnedNothing_isNotTrackedByUpdates() {
    Reply created = api.post("/api/v1/namespaces/default/configmaps?fieldManager=creator",
        "{\"metadata\":{\"name\":\"bare\"}}");
    assertThat(created.json().path("metadata").has("managedFields")).isFalse();

    Reply updated = api.patch("/api/v1/namespaces/default/configmaps/bare?fieldManager=editor",
        "application/merge-patch+json", "{\"data\":{\"k\":\"v\"}}");
    assertThat(updated.json().path("metadata").has("managedFields")).isFalse();
  }

  private static JsonNode yamlToJsonNode(String yaml) {
    try {
      return new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readTree(yaml);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
