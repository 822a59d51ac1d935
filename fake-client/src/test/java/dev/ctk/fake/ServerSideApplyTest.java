package dev.ctk.fake;

import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.RawApi.Reply;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Server-side apply over HTTP: create-by-apply, managedFields entries, changes, removal of fields an applier stops
 * applying, no-op applies, conflicts with their exact Status, force, shared ownership, and the request checks.
 */
class ServerSideApplyTest {

  static final String APPLY = "application/apply-patch+yaml";
  static final String DEPLOYMENTS = "/apis/apps/v1/namespaces/default/deployments";
  static final String WEB = DEPLOYMENTS + "/web";

  private TickingClock clock;
  private FakeCluster cluster;
  private RawApi api;

  /** A clock the test moves forward, so every write has its own managedFields time. */
  static final class TickingClock extends Clock {
    private Instant now = Instant.parse("2025-03-01T12:00:00Z");

    void advanceSeconds(long seconds) {
      now = now.plusSeconds(seconds);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  @BeforeEach
  void start() {
    clock = new TickingClock();
    cluster = FakeCluster.builder().withClock(clock).build();
    api = new RawApi(cluster.url());
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  /** A Deployment configuration: image, replicas, and an optional extra label and env variable. */
  static String deployment(String image, int replicas, String extraLabel) {
    return """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: web
          labels:
            app: web
        %s
        spec:
          replicas: %d
          selector:
            matchLabels: {app: web}
          template:
            metadata:
              labels: {app: web}
            spec:
              containers:
              - name: main
                image: %s
                ports:
                - containerPort: 80
        """.formatted(extraLabel == null ? "" : "    " + extraLabel, replicas, image);
  }

  private Reply apply(String manager, String body) {
    return api.patch(WEB + "?fieldManager=" + manager, APPLY, body);
  }

  private static JsonNode fields(Reply reply, int entry) {
    return reply.json().path("metadata").path("managedFields").path(entry);
  }

  @Test
  void createByApply_answers201_withTheApplierAsOnlyManager() {
    Reply reply = apply("ci", deployment("nginx:1", 2, null));

    assertThat(reply.code()).isEqualTo(201);
    assertThat(reply.json().path("metadata").path("managedFields")).isEqualTo(json("""
        [{"manager":"ci","operation":"Apply","apiVersion":"apps/v1","time":"2025-03-01T12:00:00Z",
          "fieldsType":"FieldsV1","fieldsV1":{
            "f:metadata":{"f:labels":{"f:app":{}}},
            "f:spec":{"f:replicas":{},"f:selector":{},"f:template":{
              "f:metadata":{"f:labels":{"f:app":{}}},
              "f:spec":{"f:containers":{"k:{\\"name\\":\\"main\\"}":{".":{},"f:image":{},"f:name":{},
                "f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}}}}}}}}}]
        """));
    // defaulting and generation as for any create; nothing else owns the defaulted fields
    assertThat(reply.json().path("spec").path("strategy").path("type").asText()).isEqualTo("RollingUpdate");
    assertThat(reply.json().path("metadata").path("generation").asLong()).isEqualTo(1);
    assertThat(api.get(WEB).json().path("metadata").path("managedFields"))
        .isEqualTo(reply.json().path("metadata").path("managedFields"));
  }

  @Test
  void create_recordsAnUpdateEntry_namedByFieldManager_orTheUserAgent() {
    Reply named = api.post("/api/v1/namespaces/default/configmaps?fieldManager=kubectl-create",
        "{\"metadata\":{\"name\":\"a\",\"labels\":{\"x\":\"1\"}},\"data\":{\"k\":\"v\"}}");
    Reply byAgent = api.post("/api/v1/namespaces/default/configmaps",
        "{\"metadata\":{\"name\":\"b\"},\"data\":{\"k\":\"v\"}}");

    assertThat(named.json().path("metadata").path("managedFields")).isEqualTo(json("""
        [{"manager":"kubectl-create","operation":"Update","apiVersion":"v1","time":"2025-03-01T12:00:00Z",
          "fieldsType":"FieldsV1",
          "fieldsV1":{"f:data":{".":{},"f:k":{}},"f:metadata":{"f:labels":{".":{},"f:x":{}}}}}]
        """));
    // java.net.http sends "Java-http-client/17..."; kube keeps what comes before the first '/'
    assertThat(fields(byAgent, 0).path("manager").asText()).isEqualTo("Java-http-client");
  }

  @Test
  void createOfABuiltinKind_ownsNoDotForTheStructsItsGoTypeAlwaysHas() {
    Reply reply = api.post(DEPLOYMENTS + "?fieldManager=kubectl-create", """
        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"app":"web"}},
         "spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
           "spec":{"containers":[{"name":"main","image":"nginx:1"}]}}}}""");

    JsonNode spec = fields(reply, 0).path("fieldsV1").path("f:spec");
    assertThat(spec.has(".")).isFalse();
    assertThat(spec.path("f:strategy").has(".")).isFalse();
    assertThat(spec.path("f:strategy").path("f:rollingUpdate")).isEqualTo(json(
        "{\".\":{},\"f:maxSurge\":{},\"f:maxUnavailable\":{}}"));
    assertThat(spec.path("f:template").path("f:spec").path("f:containers").path("k:{\"name\":\"main\"}")
        .path(".").isObject()).isTrue();
    assertThat(spec.path("f:replicas").isObject()).as("defaulted fields belong to the creator").isTrue();
  }

  @Test
  void secondApply_changesTheObject_andTheApplyTime() {
    apply("ci", deployment("nginx:1", 2, null));
    clock.advanceSeconds(60);

    Reply reply = apply("ci", deployment("nginx:2", 3, null));

    assertThat(reply.code()).isEqualTo(200);
    assertThat(reply.json().path("spec").path("replicas").asInt()).isEqualTo(3);
    assertThat(reply.json().path("spec").path("template").path("spec").path("containers").path(0).path("image")
        .asText()).isEqualTo("nginx:2");
    assertThat(reply.json().path("metadata").path("generation").asLong()).isEqualTo(2);
    assertThat(reply.json().path("metadata").path("managedFields")).hasSize(1);
    assertThat(fields(reply, 0).path("time").asText()).isEqualTo("2025-03-01T12:01:00Z");
  }

  @Test
  void applyThatChangesNothing_keepsResourceVersionAndTime() {
    Reply first = apply("ci", deployment("nginx:1", 2, null));
    clock.advanceSeconds(60);

    Reply again = apply("ci", deployment("nginx:1", 2, null));

    assertThat(again.code()).isEqualTo(200);
    assertThat(again.json().path("metadata").path("resourceVersion"))
        .isEqualTo(first.json().path("metadata").path("resourceVersion"));
    assertThat(fields(again, 0).path("time").asText()).isEqualTo("2025-03-01T12:00:00Z");
  }

  @Test
  void fieldTheApplierStopsApplying_isRemoved() {
    apply("ci", deployment("nginx:1", 2, "tier: web"));

    Reply reply = apply("ci", deployment("nginx:1", 2, null));

    assertThat(reply.json().path("metadata").path("labels")).isEqualTo(json("{\"app\":\"web\"}"));
    assertThat(fields(reply, 0).path("fieldsV1").path("f:metadata")).isEqualTo(json(
        "{\"f:labels\":{\"f:app\":{}}}"));
  }

  @Test
  void fieldTheApplierStopsApplying_staysWhenAnotherManagerOwnsIt() {
    apply("ci", deployment("nginx:1", 2, "tier: web"));
    api.patch(WEB + "?fieldManager=labeller", "application/merge-patch+json",
        "{\"metadata\":{\"labels\":{\"tier\":\"frontend\"}}}");

    Reply reply = apply("ci", deployment("nginx:1", 2, null));

    assertThat(reply.json().path("metadata").path("labels")).isEqualTo(json("{\"app\":\"web\",\"tier\":\"frontend\"}"));
  }

  @Test
  void conflictWithAnUpdater_isA409WithKubesStatus() {
    apply("ci", deployment("nginx:1", 2, null));
    api.patch(WEB + "?fieldManager=kubectl-edit", "application/merge-patch+json", "{\"spec\":{\"replicas\":5}}");

    Reply reply = apply("ci", deployment("nginx:1", 3, null));

    assertThat(reply.code()).isEqualTo(409);
    assertThat(reply.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"Apply failed with 1 conflict: conflict with \\"kubectl-edit\\" using apps/v1: .spec.replicas",
         "reason":"Conflict",
         "details":{"causes":[{"reason":"FieldManagerConflict","message":"conflict with \\"kubectl-edit\\" using apps/v1",
           "field":".spec.replicas"}]},
         "code":409}"""));
    assertThat(api.get(WEB).json().path("spec").path("replicas").asInt()).isEqualTo(5);
  }

  @Test
  void severalConflicts_areListedByManager_oneFieldALine() {
    apply("ci", deployment("nginx:1", 2, null));
    api.patch(WEB + "?fieldManager=hpa", "application/merge-patch+json", "{\"spec\":{\"replicas\":5}}");
    api.patch(WEB + "?fieldManager=other&force=true", APPLY, """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web}
        spec:
          template:
            spec:
              containers:
              - name: main
                image: nginx:9
        """);

    Reply reply = apply("ci", deployment("nginx:2", 3, null));

    assertThat(reply.code()).isEqualTo(409);
    assertThat(reply.json().path("message").asText()).isEqualTo("Apply failed with 2 conflicts: "
        + "conflicts with \"hpa\" using apps/v1:\n- .spec.replicas\n"
        + "conflicts with \"other\":\n- .spec.template.spec.containers[name=\"main\"].image");
    assertThat(reply.json().path("details").path("causes")).isEqualTo(json("""
        [{"reason":"FieldManagerConflict","message":"conflict with \\"hpa\\" using apps/v1","field":".spec.replicas"},
         {"reason":"FieldManagerConflict","message":"conflict with \\"other\\"",
          "field":".spec.template.spec.containers[name=\\"main\\"].image"}]"""));
  }

  @Test
  void force_takesTheFieldOver() {
    apply("ci", deployment("nginx:1", 2, null));
    api.patch(WEB + "?fieldManager=kubectl-edit", "application/merge-patch+json", "{\"spec\":{\"replicas\":5}}");

    Reply reply = api.patch(WEB + "?fieldManager=ci&force=true", APPLY, deployment("nginx:1", 3, null));

    assertThat(reply.code()).isEqualTo(200);
    assertThat(reply.json().path("spec").path("replicas").asInt()).isEqualTo(3);
    // kubectl-edit owned only replicas: its entry is gone
    assertThat(reply.json().path("metadata").path("managedFields")).hasSize(1);
    assertThat(fields(reply, 0).path("manager").asText()).isEqualTo("ci");
    assertThat(fields(reply, 0).path("fieldsV1").path("f:spec").has("f:replicas")).isTrue();
  }

  @Test
  void aNodeSelector_isOwnedWhole_soAnEditToItConflicts_andForceRevertsIt() {
    String withNodeSelector = deployment("nginx:1", 2, null).replace("\n      containers:",
        "\n      nodeSelector: {disk: ssd}\n      containers:");
    apply("op", withNodeSelector);
    api.patch(WEB + "?fieldManager=kubectl-edit", "application/merge-patch+json",
        "{\"spec\":{\"template\":{\"spec\":{\"nodeSelector\":{\"zone\":\"z1\"}}}}}");

    Reply conflict = apply("op", withNodeSelector);
    Reply forced = api.patch(WEB + "?fieldManager=op&force=true", APPLY, withNodeSelector);

    assertThat(conflict.code()).isEqualTo(409);
    assertThat(conflict.json().path("message").asText()).isEqualTo("Apply failed with 1 conflict: conflict with "
        + "\"kubectl-edit\" using apps/v1: .spec.template.spec.nodeSelector");
    assertThat(forced.json().path("spec").path("template").path("spec").path("nodeSelector"))
        .isEqualTo(json("{\"disk\":\"ssd\"}"));
    assertThat(fields(forced, 0).path("fieldsV1").path("f:spec").path("f:template").path("f:spec")
        .path("f:nodeSelector")).isEqualTo(json("{}"));
  }

  @Test
  void anOwnerReference_isOwnedWhole_asOneItemOfItsList() {
    String uid = "6b0a8b4e-0000-4000-8000-000000000001";
    String owned = deployment("nginx:1", 2, null).replace("""
          labels:
            app: web
        """, """
          labels:
            app: web
          ownerReferences:
          - {apiVersion: v1, kind: ConfigMap, name: owner, uid: %s, controller: true}
        """.formatted(uid));

    Reply reply = apply("op", owned);

    assertThat(reply.code()).as(reply.json().toString()).isEqualTo(201);
    assertThat(fields(reply, 0).path("fieldsV1").path("f:metadata").path("f:ownerReferences"))
        .isEqualTo(json("{\"k:{\\\"uid\\\":\\\"" + uid + "\\\"}\":{}}"));
  }

  @Test
  void anApplyOfAValueEqualAsANumber_changesNothing_andStampsNoTime() {
    String pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
        + "  containers:\n  - {name: main, image: nginx:1}\n";
    api.patch("/api/v1/namespaces/default/pods/p?fieldManager=a", APPLY, pod);

    Reply same = api.patch("/api/v1/namespaces/default/pods/p?fieldManager=b", APPLY,
        pod + "  terminationGracePeriodSeconds: 30\n");

    JsonNode b = null;
    for (JsonNode entry : same.json().path("metadata").path("managedFields")) {
      b = entry.path("manager").asText().equals("b") ? entry : b;
    }
    assertThat(same.code()).isEqualTo(200);
    assertThat(b).as("b's entry: %s", same.json().path("metadata").path("managedFields")).isNotNull();
    assertThat(b.has("time")).as("the defaulted 30 equals the applied 30: %s", b).isFalse();
  }

  @Test
  void forceIsFalseOnlyFor0AndFalse_asKubeReadsBooleans() {
    apply("ci", deployment("nginx:1", 2, null));
    api.patch(WEB + "?fieldManager=kubectl-edit", "application/merge-patch+json", "{\"spec\":{\"replicas\":5}}");

    Reply refused = api.patch(WEB + "?fieldManager=ci&force=False", APPLY, deployment("nginx:1", 3, null));
    Reply forced = api.patch(WEB + "?fieldManager=ci&force=no", APPLY, deployment("nginx:1", 3, null));

    assertThat(refused.code()).isEqualTo(409);
    assertThat(forced.code()).as("kube reads force=no as true").isEqualTo(200);
    assertThat(forced.json().path("spec").path("replicas").asInt()).isEqualTo(3);
  }

  @Test
  void twoAppliersWithTheSameValue_shareTheField_andItStaysWhileOneStillAppliesIt() {
    apply("a", deployment("nginx:1", 2, null));
    Reply shared = apply("b", """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web}
        spec: {replicas: 2}
        """);
    assertThat(shared.code()).isEqualTo(200);
    // the apply changed nothing: kube gives b's entry no time, which sorts it before a's
    assertThat(fields(shared, 0).path("manager").asText()).isEqualTo("b");
    assertThat(fields(shared, 0).has("time")).as("b's entry: %s", fields(shared, 0)).isFalse();
    assertThat(fields(shared, 0).path("fieldsV1")).isEqualTo(json("{\"f:spec\":{\"f:replicas\":{}}}"));
    assertThat(fields(shared, 1).path("manager").asText()).isEqualTo("a");

    Reply reply = apply("a", """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web}
        spec:
          selector:
            matchLabels: {app: web}
          template:
            metadata:
              labels: {app: web}
            spec:
              containers:
              - name: main
                image: nginx:1
        """);

    assertThat(reply.json().path("spec").path("replicas").asInt()).isEqualTo(2);
    assertThat(reply.json().path("metadata").has("labels")).as("a stopped applying its label: removed").isFalse();
  }

  @Test
  void applyWithoutFieldManager_isInvalid() {
    Reply reply = api.patch(WEB, APPLY, deployment("nginx:1", 2, null));

    assertThat(reply.code()).isEqualTo(422);
    assertThat(reply.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"PatchOptions.meta.k8s.io \\"\\" is invalid: fieldManager: Required value: is required for apply patch",
         "reason":"Invalid",
         "details":{"group":"meta.k8s.io","kind":"PatchOptions","causes":[{"reason":"FieldValueRequired",
           "message":"Required value: is required for apply patch","field":"fieldManager"}]},
         "code":422}"""));
  }

  @Test
  void forceOnAnotherPatchType_isInvalid() {
    apply("ci", deployment("nginx:1", 2, null));

    Reply reply = api.patch(WEB + "?force=true", "application/merge-patch+json", "{\"spec\":{\"replicas\":5}}");

    assertThat(reply.code()).isEqualTo(422);
    assertThat(reply.json().path("message").asText()).isEqualTo(
        "PatchOptions.meta.k8s.io \"\" is invalid: force: Forbidden: may not be specified for non-apply patch");
  }

  @Test
  void staleResourceVersionInTheConfiguration_isAConflict() {
    apply("ci", deployment("nginx:1", 2, null));
    apply("ci", deployment("nginx:1", 3, null));

    Reply reply = apply("ci", deployment("nginx:1", 4, null).replace("  name: web\n",
        "  name: web\n  resourceVersion: \"1\"\n"));

    assertThat(reply.code()).isEqualTo(409);
    assertThat(reply.json().path("message").asText()).isEqualTo("Operation cannot be fulfilled on deployments.apps "
        + "\"web\": the object has been modified; please apply your changes to the latest version and try again");
  }

  @Test
  void dryRun_computesTheApply_andStoresNothing() {
    Reply created = api.patch(WEB + "?fieldManager=ci&dryRun=All", APPLY, deployment("nginx:1", 2, null));
    assertThat(created.code()).isEqualTo(201);
    assertThat(created.json().path("metadata").path("managedFields")).hasSize(1);
    assertThat(api.get(WEB).code()).isEqualTo(404);

    apply("ci", deployment("nginx:1", 2, null));
    Reply changed = api.patch(WEB + "?fieldManager=ci&dryRun=All", APPLY, deployment("nginx:1", 7, null));
    assertThat(changed.json().path("spec").path("replicas").asInt()).isEqualTo(7);
    assertThat(api.get(WEB).json().path("spec").path("replicas").asInt()).isEqualTo(2);
  }

  @Test
  void configurationChecks_answerAsKube() {
    assertThat(apply("ci", "{\"apiVersion\":\"v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"}}")
        .json().path("message").asText()).isEqualTo("invalid object type: /v1, Kind=Deployment");
    assertThat(apply("ci", "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\","
        + "\"managedFields\":[]}}").json().path("message").asText()).isEqualTo("metadata.managedFields must be nil");
    assertThat(apply("ci", "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"api\"}}")
        .json().path("message").asText()).isEqualTo(
            "the name of the object (api) does not match the name on the URL (web)");
    assertThat(apply("ci", "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{}}")
        .json().path("message").asText()).isEqualTo(
            "the name of the object (web based on URL) was undeterminable: name must be provided");
    assertThat(apply("ci", "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\","
        + "\"namespace\":\"other\"}}").json().path("message").asText()).isEqualTo(
            "the namespace of the provided object does not match the namespace sent on the request");
    Reply missingKey = apply("ci", "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":"
        + "\"web\"},\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"image\":\"x\"}]}}}}");
    assertThat(missingKey.code()).isEqualTo(500);
    assertThat(missingKey.json().path("message").asText()).isEqualTo("failed to create typed patch object "
        + "(/web; apps/v1, Kind=Deployment): .spec.template.spec.containers: element 0: associative list with keys "
        + "has an element that omits key field \"name\" (and doesn't have default value)");
    Reply notYamlObject = apply("ci", "- a\n- b\n");
    assertThat(notYamlObject.code()).isEqualTo(400);
    assertThat(api.get(WEB).code()).isEqualTo(404);
  }

  @Test
  void applyInANamespaceThatDoesNotExist_isNotFound() {
    Reply reply = api.patch("/apis/apps/v1/namespaces/nope/deployments/web?fieldManager=ci", APPLY,
        deployment("nginx:1", 1, null));

    assertThat(reply.code()).isEqualTo(404);
    assertThat(reply.json().path("message").asText()).isEqualTo("namespaces \"nope\" not found");
  }

  @Test
  void validationStillApplies_toTheAppliedObject() {
    Reply reply = apply("ci", deployment("nginx:1", 1, null).replace("matchLabels: {app: web}",
        "matchLabels: {app: other}"));

    assertThat(reply.code()).isEqualTo(422);
    assertThat(reply.json().path("reason").asText()).isEqualTo("Invalid");
  }
}
