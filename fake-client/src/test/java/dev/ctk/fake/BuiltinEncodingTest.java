package dev.ctk.fake;

import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.RawApi.Reply;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Built-in objects come back as kube's Go types and protobuf storage return them: empty lists and maps gone, empty
 * non-{@code omitempty} lists {@code null}, structs kept (a container's {@code resources: {}}); custom resources and
 * CustomResourceDefinitions keep what they were sent.
 */
class BuiltinEncodingTest {

  private static final String DEPLOYMENT = "/apis/apps/v1/namespaces/default/deployments/web";

  private FakeCluster cluster;
  private RawApi api;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).build();
    api = new RawApi(cluster.url());
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void podSpec_dropsEmptyListsAndMaps_keepsEmptyStructs_andGivesEveryContainerResources() {
    Reply reply = api.post("/api/v1/namespaces/default/pods", """
        {"metadata":{"name":"p","labels":{},"annotations":{},"finalizers":[]},
         "spec":{"nodeSelector":{},"tolerations":[],"volumes":[{"name":"v","emptyDir":{}}],
          "initContainers":[{"name":"init","image":"busybox:1.36","command":[]}],
          "containers":[{"name":"c","image":"nginx:1.27","env":[],"args":[],"ports":[],
            "resources":{"limits":{}}}]}}""");

    assertThat(reply.code()).isEqualTo(201);
    assertThat(reply.json().path("spec")).isEqualTo(json("""
        {"volumes":[{"name":"v","emptyDir":{}}],
         "initContainers":[{"name":"init","image":"busybox:1.36","imagePullPolicy":"IfNotPresent","resources":{},
           "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],
         "containers":[{"name":"c","image":"nginx:1.27","resources":{},"imagePullPolicy":"IfNotPresent",
           "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],
         "dnsPolicy":"ClusterFirst","restartPolicy":"Always","terminationGracePeriodSeconds":30,
         "securityContext":{},"schedulerName":"default-scheduler","enableServiceLinks":true,
         "priority":0,"preemptionPolicy":"PreemptLowerPriority","tolerations":[
           {"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300},
           {"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}]}"""));
    assertThat(fieldNames(reply.json().path("metadata"))).as("empty labels, annotations and finalizers are gone")
        .doesNotContain("labels", "annotations", "finalizers");
  }

  @Test
  void strategicMergePatch_deletingTheLastEnvVar_dropsTheList() {
    api.post("/apis/apps/v1/namespaces/default/deployments", """
        {"metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},
         "template":{"metadata":{"labels":{"app":"web"}},
          "spec":{"containers":[{"name":"main","image":"nginx:1.27","env":[{"name":"A","value":"1"}]}]}}}}""");

    Reply reply = api.patch(DEPLOYMENT, "application/strategic-merge-patch+json",
        "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"main\",\"env\":[{\"name\":\"A\","
            + "\"$patch\":\"delete\"}]}]}}}}");

    assertThat(reply.code()).isEqualTo(200);
    assertThat(reply.json().at("/spec/template/spec/containers")).isEqualTo(json("""
        [{"name":"main","image":"nginx:1.27","imagePullPolicy":"IfNotPresent","resources":{},
          "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}]"""));
    assertThat(api.get(DEPLOYMENT).json().at("/spec/template/spec/containers/0").has("env"))
        .as("stored without env too").isFalse();
  }

  @Test
  void configMap_withEmptyDataAndLabels_isStoredWithout_andAnUpdateSendingThemChangesNothing() {
    Reply created = api.post("/api/v1/namespaces/default/configmaps",
        "{\"metadata\":{\"name\":\"cm\",\"labels\":{}},\"data\":{},\"binaryData\":{}}");
    String rv = created.json().path("metadata").path("resourceVersion").asText();

    Reply updated = api.put("/api/v1/namespaces/default/configmaps/cm",
        "{\"metadata\":{\"name\":\"cm\",\"annotations\":{}},\"data\":{}}");

    assertThat(fieldNames(created.json())).containsExactlyInAnyOrder("apiVersion", "kind", "metadata");
    assertThat(fieldNames(created.json().path("metadata"))).doesNotContain("labels");
    assertThat(updated.json().path("metadata").path("resourceVersion").asText()).as("a no-op update").isEqualTo(rv);
  }

  @Test
  void listFieldsWithoutOmitempty_comeBackNull_asFromKubesProtobufStorage() {
    Reply role = api.post("/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles",
        "{\"metadata\":{\"name\":\"nothing\"},\"rules\":[]}");
    Reply slice = api.post("/apis/discovery.k8s.io/v1/namespaces/default/endpointslices",
        "{\"metadata\":{\"name\":\"empty\"},\"addressType\":\"IPv4\",\"endpoints\":[],\"ports\":[]}");

    assertThat(role.json().get("rules")).isEqualTo(NullNode.getInstance());
    assertThat(slice.json().get("endpoints")).isEqualTo(NullNode.getInstance());
    assertThat(slice.json().get("ports")).isEqualTo(NullNode.getInstance());
  }

  @Test
  void statusWrite_withEmptyConditions_storesNone() {
    api.post("/apis/apps/v1/namespaces/default/deployments", """
        {"metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},
         "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"main","image":"nginx"}]}}}}""");

    Reply reply = api.patch(DEPLOYMENT + "/status", "application/merge-patch+json",
        "{\"status\":{\"replicas\":1,\"conditions\":[]}}");

    assertThat(reply.json().path("status")).isEqualTo(json("{\"replicas\":1}"));
  }

  @Test
  void customResourcesAndTheirDefinitions_keepEmptyValues() {
    Reply crd = api.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", """
        {"metadata":{"name":"boxes.ctk.example.com"},
         "spec":{"group":"ctk.example.com","scope":"Namespaced",
          "names":{"plural":"boxes","singular":"box","kind":"Box"},
          "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object",
            "properties":{"spec":{"type":"object","properties":{
              "items":{"type":"array","items":{"type":"string"},"default":[]},
              "sizes":{"type":"object","additionalProperties":{"type":"integer"}}}}}}}}]}}""");
    assertThat(crd.code()).as(crd.body()).isEqualTo(201);
    await("the Box kind is served").atMost(Duration.ofSeconds(10))
        .until(() -> api.get("/apis/ctk.example.com/v1").code() == 200);

    Reply box = api.post("/apis/ctk.example.com/v1/namespaces/default/boxes",
        "{\"apiVersion\":\"ctk.example.com/v1\",\"kind\":\"Box\",\"metadata\":{\"name\":\"b\"},"
            + "\"spec\":{\"items\":[],\"sizes\":{}}}");

    assertThat(box.json().path("spec")).isEqualTo(json("{\"items\":[],\"sizes\":{}}"));
    assertThat(crd.json().at("/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/items/default"))
        .as("a schema default is raw JSON, kept").isEqualTo(json("[]"));
  }

  private static List<String> fieldNames(JsonNode object) {
    List<String> names = new ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
